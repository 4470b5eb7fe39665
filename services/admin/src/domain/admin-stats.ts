/**
 * GET /admin/stats (docs/spec/part-2.txt sections 2 "Admin Dashboard" and 3): computed from the admin area's read model
 * (overview.ts), never from the logs: the known servers (their counts and per-day figures as the logs
 * service last published them, from the replica's in-memory copy, server-mirror.ts) and indexed counts of
 * the accounts.
 *
 * Definitions: serversWithoutLogs counts servers with no stored text log; avgLogsPerServer is totalLogs over
 * totalServers (0 without servers); the series are the last ADMIN_STATS_DAYS UTC days, oldest first, every
 * day present (0 when nothing happened); top lists rank servers with at least one log (ties by name).
 */
import { ADMIN_STATS_DAYS, ADMIN_TOP_SERVERS } from '@skald/contracts/api';
import type { AdminStats } from '@skald/contracts/api';
import type { Overview, OverviewServer } from './overview.ts';

/** The account half of the stats: indexed counts of the read model's accounts. */
export interface UserFigures {
  readonly totalUsers: number;
  readonly usersWith2FA: number;
  readonly newUsers: AdminStats['newUsers'];
}

const DAY_MS = 86_400_000;

/** The window's UTC days, oldest first, ending today. */
export function statsDays(now: number, days = ADMIN_STATS_DAYS): string[] {
  return Array.from({ length: days }, (_, i) => new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

function top(servers: readonly OverviewServer[], count: (s: OverviewServer) => number): AdminStats['topServers'] {
  return servers
    .map((s) => ({ id: s._id, name: s.name ?? '', count: count(s) }))
    .filter((s) => s.count > 0)
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .slice(0, ADMIN_TOP_SERVERS);
}

export async function countUsers(overview: Pick<Overview, 'users'>, now: number): Promise<UserFigures> {
  const [totalUsers, usersWith2FA, newUsers] = await Promise.all([
    overview.users.count({}),
    overview.users.count({ twoFA: true }),
    Promise.all(statsDays(now).map(async (date) => ({ date, count: await overview.users.count({ createdDay: date }) }))),
  ]);
  return { totalUsers, usersWith2FA, newUsers };
}

/** The stats of the known servers (server-mirror.ts) and the account figures. */
export function computeAdminStats(servers: readonly OverviewServer[], users: UserFigures, now: number): AdminStats {
  const days = statsDays(now);
  const { totalUsers, usersWith2FA, newUsers } = users;
  const logsPerDay = new Map(days.map((d) => [d, 0]));
  const photosPerDay = new Map(days.map((d) => [d, 0]));
  const newServers = new Map(days.map((d) => [d, 0]));
  let totalLogs = 0;
  let totalPhotoLogs = 0;
  let serversWithoutLogs = 0;
  for (const server of servers) {
    const logs = server.logs ?? 0;
    totalLogs += logs;
    totalPhotoLogs += server.photoLogs ?? 0;
    if (logs === 0) serversWithoutLogs += 1;
    for (const day of server.days ?? []) {
      if (logsPerDay.has(day.date)) {
        logsPerDay.set(day.date, logsPerDay.get(day.date)! + day.logs);
        photosPerDay.set(day.date, photosPerDay.get(day.date)! + day.photoLogs);
      }
    }
    const created = server.createdDay ?? '';
    if (newServers.has(created)) newServers.set(created, newServers.get(created)! + 1);
  }
  const series = (m: Map<string, number>) => days.map((date) => ({ date, count: m.get(date) ?? 0 }));
  return {
    totalLogs,
    totalPhotoLogs,
    totalServers: servers.length,
    totalUsers,
    twoFAAdoption: { usersWith2FA, totalUsers },
    avgLogsPerServer: servers.length === 0 ? 0 : totalLogs / servers.length,
    serversWithoutLogs,
    logsPerDay: series(logsPerDay),
    photoLogsPerDay: series(photosPerDay),
    newUsers,
    newServers: series(newServers),
    topServers: top(servers, (s) => s.logs ?? 0),
    topPhotoServers: top(servers, (s) => s.photoLogs ?? 0),
  };
}
