/**
 * The staff admin area's reads: the role matrix of every admin service call, the stats against a
 * direct count of a seeded data set, and the server pages' answers, all from the read model fed by the
 * owners' facts (identity, logs.server-counts, backup.catalog-changed, the audit trail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BackupCatalogChangedEvent,
  LogsServerCountsEvent,
  MembershipAddedEvent,
  ServerCreatedEvent,
  ServerDeletedEvent,
  UserRegisteredEvent,
  UserSignedInEvent,
  UserUpdatedEvent,
  eventMessage,
  identityMessage,
} from '@skald/contracts';
import type { PublishInput } from '@skald/ports';
import type { AdminServerAuditPage, AdminServerBackups, AdminServerDetail, AdminServerList, AdminServerUsers, AdminStats, AdminUserList } from '@skald/contracts/api';
import { buildTestService, waitFor } from '@skald/testing';
import { createAdminServiceWith, statsDays } from '../src/testing.ts';
import { getAs, publishAudit } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const DAY = 86_400_000;
/** A fixed clock: the day window of the stats is known. */
const NOW = Date.UTC(2026, 2, 15, 12, 0, 0);
const day = (offset: number) => new Date(NOW - offset * DAY).toISOString().slice(0, 10);
const at = (offset: number) => new Date(NOW - offset * DAY).toISOString();

let h: Harness;
beforeAll(async () => {
  h = await buildTestService((deps) => createAdminServiceWith(deps, { now: () => NOW }), { service: 'admin' });
});
afterAll(async () => h.close());

interface SeedUser {
  readonly id: string;
  readonly createdDaysAgo: number;
  readonly twoFA: boolean;
  readonly role: 'user' | 'moderator' | 'admin' | 'superadmin';
}
interface SeedServer {
  readonly id: string;
  readonly owner: string;
  readonly createdDaysAgo: number;
  readonly logs: number;
  readonly photoLogs: number;
  /** Stored logs per day offset (0 = today). */
  readonly perDay: Readonly<Record<number, [number, number]>>;
}

const USERS: SeedUser[] = [
  { id: 'u-super', createdDaysAgo: 30, twoFA: true, role: 'superadmin' },
  { id: 'u-admin', createdDaysAgo: 20, twoFA: true, role: 'admin' },
  { id: 'u-mod', createdDaysAgo: 6, twoFA: false, role: 'moderator' },
  { id: 'u-plain', createdDaysAgo: 0, twoFA: false, role: 'user' },
  { id: 'u-a', createdDaysAgo: 2, twoFA: true, role: 'user' },
  { id: 'u-b', createdDaysAgo: 2, twoFA: false, role: 'user' },
  { id: 'u-c', createdDaysAgo: 9, twoFA: false, role: 'user' },
];

const SERVERS: SeedServer[] = [
  { id: 's-1', owner: 'u-a', createdDaysAgo: 1, logs: 500, photoLogs: 3, perDay: { 0: [100, 1], 1: [400, 2] } },
  { id: 's-2', owner: 'u-a', createdDaysAgo: 10, logs: 900, photoLogs: 0, perDay: { 6: [50, 0], 7: [850, 0] } },
  { id: 's-3', owner: 'u-b', createdDaysAgo: 3, logs: 0, photoLogs: 7, perDay: { 3: [0, 7] } },
  { id: 's-4', owner: 'u-c', createdDaysAgo: 3, logs: 0, photoLogs: 0, perDay: {} },
  ...Array.from({ length: 4 }, (_, i): SeedServer => ({ id: `s-x${i}`, owner: 'u-c', createdDaysAgo: 40, logs: 10 * (i + 1), photoLogs: i, perDay: { 2: [i, 0] } })),
];

function seedMessages(): PublishInput[] {
  const messages: PublishInput[] = [];
  for (const u of USERS) {
    messages.push(identityMessage(UserRegisteredEvent, { userId: u.id, username: `${u.id}-name`, email: `${u.id}@example.com`, role: u.role, createdAt: at(u.createdDaysAgo) }));
    if (u.twoFA) messages.push(identityMessage(UserUpdatedEvent, { userId: u.id, username: `${u.id}-name`, email: `${u.id}@example.com`, twoFactorEnabled: true }));
  }
  messages.push(identityMessage(UserSignedInEvent, { userId: 'u-a', at: at(0) }));
  for (const s of SERVERS) {
    messages.push(
      identityMessage(ServerCreatedEvent, { serverId: s.id, name: `Server ${s.id}`, ownerId: s.owner, tier: 'free', suspended: false, createdAt: at(s.createdDaysAgo) }),
      identityMessage(MembershipAddedEvent, { serverId: s.id, userId: s.owner, role: 'owner' }),
    );
    const days = Object.entries(s.perDay)
      .map(([offset, [logs, photoLogs]]) => ({ date: day(Number(offset)), logs, photoLogs }))
      .filter((d) => d.date > day(7))
      .sort((a, b) => a.date.localeCompare(b.date));
    messages.push(eventMessage(LogsServerCountsEvent, s.id, { serverId: s.id, logs: s.logs, photoLogs: s.photoLogs, days, countedAt: at(0) }));
  }
  messages.push(identityMessage(MembershipAddedEvent, { serverId: 's-1', userId: 'u-b', role: 'admin' }));
  messages.push(
    eventMessage(BackupCatalogChangedEvent, 's-1', {
      serverId: 's-1',
      backups: [
        { id: 'b-old', size: 1000, createdAt: at(2) },
        { id: 'b-new', size: 2048, createdAt: at(1) },
      ],
    }),
  );
  return messages;
}

beforeAll(async () => {
  await h.deps.bus.publish(seedMessages());
  await publishAudit(h, { serverId: 's-1', actorId: 'u-a', actorEmail: 'u-a@example.com' }, { serverId: 's-1', actorId: 'u-b', actorEmail: 'u-b@example.com' });
  await waitFor(async () => {
    const res = await getAs(h, '/admin/servers', 'u-super');
    if (res.statusCode !== 200) return false;
    const s1 = res.json<AdminServerList>().servers.find((s) => s.id === 's-1');
    return res.json<AdminServerList>().servers.length === SERVERS.length && s1?.auditLogCount === 2 && s1.backupCount === 2 && s1.userCount === 2;
  }, 'the seeded data in the read model');
});

describe('role matrix of the admin service calls', () => {
  const moderatorReads = ['/admin/stats', '/admin/servers', '/admin/tiers', '/admin/servers/s-1', '/admin/servers/s-1/users', '/admin/servers/s-1/backups', '/admin/servers/s-1/audit-logs?page=1&limit=50'];
  const cases: [string, Record<string, number>][] = [
    ...moderatorReads.map((url): [string, Record<string, number>] => [url, { 'u-plain': 403, 'u-mod': 200, 'u-admin': 200, 'u-super': 200 }]),
    ['/admin/users', { 'u-plain': 403, 'u-mod': 403, 'u-admin': 200, 'u-super': 200 }],
    ['/admin/logs', { 'u-plain': 403, 'u-mod': 403, 'u-admin': 403, 'u-super': 200 }],
  ];
  it.each(cases)('%s', async (url, expected) => {
    expect((await getAs(h, url, null)).statusCode, 'anonymous').toBe(401);
    for (const [userId, status] of Object.entries(expected)) expect((await getAs(h, url, userId)).statusCode, userId).toBe(status);
  });

  it('an unknown server is 404 for staff on every server page', async () => {
    for (const tab of ['', '/users', '/backups', '/audit-logs']) {
      const res = await getAs(h, `/admin/servers/nope${tab}`, 'u-mod');
      expect(res.statusCode, tab).toBe(404);
      expect(res.json().error).toBe('Server not found.');
    }
  });
});

describe('GET /admin/stats', () => {
  it('equals a direct count of the seeded data set', async () => {
    const stats = (await getAs(h, '/admin/stats', 'u-mod')).json<AdminStats>();
    const days = statsDays(NOW);
    const sum = (pick: (s: SeedServer) => number) => SERVERS.reduce((n, s) => n + pick(s), 0);
    const perDay = (index: 0 | 1) =>
      days.map((date) => ({ date, count: SERVERS.reduce((n, s) => n + Object.entries(s.perDay).reduce((m, [offset, v]) => m + (day(Number(offset)) === date ? v[index] : 0), 0), 0) }));
    const ranked = (pick: (s: SeedServer) => number) =>
      SERVERS.filter((s) => pick(s) > 0)
        .sort((a, b) => pick(b) - pick(a) || `Server ${a.id}`.localeCompare(`Server ${b.id}`))
        .slice(0, 5)
        .map((s) => ({ id: s.id, name: `Server ${s.id}`, count: pick(s) }));
    expect(stats).toEqual({
      totalLogs: sum((s) => s.logs),
      totalPhotoLogs: sum((s) => s.photoLogs),
      totalServers: SERVERS.length,
      totalUsers: USERS.length,
      twoFAAdoption: { usersWith2FA: USERS.filter((u) => u.twoFA).length, totalUsers: USERS.length },
      avgLogsPerServer: sum((s) => s.logs) / SERVERS.length,
      serversWithoutLogs: SERVERS.filter((s) => s.logs === 0).length,
      logsPerDay: perDay(0),
      photoLogsPerDay: perDay(1),
      newUsers: days.map((date) => ({ date, count: USERS.filter((u) => day(u.createdDaysAgo) === date).length })),
      newServers: days.map((date) => ({ date, count: SERVERS.filter((s) => day(s.createdDaysAgo) === date).length })),
      topServers: ranked((s) => s.logs),
      topPhotoServers: ranked((s) => s.photoLogs),
    });
    // The window: 7 days ending today, with the empty days present as 0.
    expect(stats.logsPerDay.map((d) => d.date)).toEqual([day(6), day(5), day(4), day(3), day(2), day(1), day(0)]);
    expect(stats.logsPerDay.find((d) => d.date === day(5))?.count).toBe(0);
    expect(stats.serversWithoutLogs).toBe(2);
  });

  it('follows a new count fact of a server (a full value, not a delta)', async () => {
    await h.deps.bus.publish([eventMessage(LogsServerCountsEvent, 's-4', { serverId: 's-4', logs: 12, photoLogs: 0, days: [{ date: day(0), logs: 12, photoLogs: 0 }], countedAt: at(0) })]);
    await waitFor(async () => (await getAs(h, '/admin/stats', 'u-mod')).json<AdminStats>().serversWithoutLogs === 1, 's-4 counted');
    const again = eventMessage(LogsServerCountsEvent, 's-4', { serverId: 's-4', logs: 12, photoLogs: 0, days: [{ date: day(0), logs: 12, photoLogs: 0 }], countedAt: at(0) });
    await h.deps.bus.publish([again]);
    await publishAudit(h, { serverId: 's-4', actorId: 'u-c' });
    await waitFor(async () => (await getAs(h, '/admin/servers/s-4/audit-logs', 'u-mod')).json<AdminServerAuditPage>().pagination.total === 1, 'later entry stored');
    const stats = (await getAs(h, '/admin/stats', 'u-mod')).json<AdminStats>();
    expect(stats.totalLogs).toBe(SERVERS.reduce((n, s) => n + s.logs, 0) + 12);
    expect(stats.logsPerDay.at(-1)?.count).toBe(100 + 12);
  });
});

describe('users and server pages', () => {
  it('GET /admin/users lists every account with its figures, the default role named user', async () => {
    const { users } = (await getAs(h, '/admin/users', 'u-admin')).json<AdminUserList>();
    expect(users).toHaveLength(USERS.length);
    const a = users.find((u) => u.id === 'u-a');
    expect(a).toEqual({
      id: 'u-a',
      email: 'u-a@example.com',
      username: 'u-a-name',
      role: 'user',
      twoFAEnabled: true,
      serverCount: 2,
      active: true,
      created_at: at(2),
      last_successful_login: at(0),
    });
    expect(users.find((u) => u.id === 'u-super')?.role).toBe('superadmin');
    expect(users.find((u) => u.id === 'u-c')?.last_successful_login).toBeNull();
  });

  it('lists servers with their counts, and answers detail, members, backups and the paged audit tab', async () => {
    const { servers } = (await getAs(h, '/admin/servers', 'u-mod')).json<AdminServerList>();
    expect(servers.find((s) => s.id === 's-1')).toEqual({
      id: 's-1',
      name: 'Server s-1',
      tier: 'free',
      userCount: 2,
      logCount: 500,
      photoLogCount: 3,
      auditLogCount: 2,
      backupCount: 2,
      totalBackupSize: 3048,
      is_suspended: false,
      created_at: at(1),
    });
    await h.identity.tier('s-1', 'pro');
    await waitFor(async () => (await getAs(h, '/admin/servers/s-1', 'u-mod')).json<AdminServerDetail>().tier === 'pro', 'tier change');
    const detail = (await getAs(h, '/admin/servers/s-1', 'u-mod')).json<AdminServerDetail>();
    expect(detail.tierInfo).toEqual({ label: 'Pro', limit: 600_000, retentionDays: 180, maxPhotoLogs: 6_000, maxServerUsers: 35, maxExportsPerMonth: 150, maxWebhooks: 20, maxBackups: 20 });
    expect(detail.userCount).toBe(2);
    expect((await getAs(h, '/admin/servers/s-1/users', 'u-mod')).json<AdminServerUsers>().users).toEqual([
      { id: 'u-a', username: 'u-a-name', email: 'u-a@example.com', role: 'owner' },
      { id: 'u-b', username: 'u-b-name', email: 'u-b@example.com', role: 'admin' },
    ]);
    expect((await getAs(h, '/admin/servers/s-1/backups', 'u-mod')).json<AdminServerBackups>().backups.map((b) => [b.id, b.size])).toEqual([
      ['b-new', 2048],
      ['b-old', 1000],
    ]);
    const page = (await getAs(h, '/admin/servers/s-1/audit-logs?page=2&limit=1', 'u-mod')).json<AdminServerAuditPage>();
    expect(page.pagination).toEqual({ page: 2, limit: 1, total: 2 });
    expect(page.logs).toHaveLength(1);
    expect(page.logs[0]).toMatchObject({ user_id: 'u-a', action: 'server.renamed' });
    expect((await getAs(h, '/admin/servers/s-1/audit-logs?limit=101', 'u-mod')).statusCode).toBe(400);
  });

  it('a deleted server leaves the lists and its members lose it', async () => {
    await h.deps.bus.publish([identityMessage(ServerDeletedEvent, { serverId: 's-3' })]);
    await waitFor(async () => (await getAs(h, '/admin/servers/s-3', 'u-mod')).statusCode === 404, 's-3 gone');
    expect((await getAs(h, '/admin/users', 'u-admin')).json<AdminUserList>().users.find((u) => u.id === 'u-b')?.serverCount).toBe(1);
  });
});
