/**
 * DELETE /logs/cleanup: a server's logs older than `days` days deleted (0: all of them), with what hangs on
 * them: the photo objects, the players' mentions of the deleted logs, the server's counts, and one audit
 * entry naming the acting member. The server is the one the route's guard granted.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogStore, ObjectStore, PlayerStore } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { AuditPublisher } from '@skald/service-kit';
import { DAY_MS } from './days.ts';
import type { PlayerRecorder } from './players/player-recorder.ts';
import { upkeep } from './players/record-players.ts';
import type { ServerCounts } from './server-counts.ts';
import { deleteObjects } from './store-batch.ts';

export const CLEANUP_DAYS_ERROR = 'Insert a valid amount of days (0 or more)';
/** Upper bound on cleanup days (about 270 years): keeps `now - days` a sane epoch. */
const MAX_CLEANUP_DAYS = 100_000;

export interface LogCleanupDeps {
  readonly logStore: Pick<LogStore, 'deleteBefore'>;
  readonly objects: ObjectStore;
  readonly players: Pick<PlayerStore, 'forgetBefore'>;
  readonly recorder: Pick<PlayerRecorder, 'catchUp'>;
  readonly counts: Pick<ServerCounts, 'mark'>;
  readonly audit: AuditPublisher;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
}

/** `days` as sent (the spec's own message answers every bad value, not a validator's): a whole number, 0 or more. */
export function cleanupDays(days: string | undefined): number {
  const parsed = days !== undefined && /^\d{1,6}$/.test(days.trim()) ? Number(days.trim()) : Number.NaN;
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > MAX_CLEANUP_DAYS) throw new HttpError(400, CLEANUP_DAYS_ERROR);
  return parsed;
}

export async function cleanUpLogs(deps: LogCleanupDeps, serverId: string, actorId: string, days: string | undefined): Promise<{ deletedCount: number }> {
  const parsedDays = cleanupDays(days);
  // days = 0 deletes everything up to now; days = n keeps the last n days.
  const before = deps.now() - parsedDays * DAY_MS;
  const result = await deps.logStore.deleteBefore(serverId, before);
  await deleteObjects(deps, result.objectKeys);
  await upkeep(deps.log, 'a cleanup', async () => {
    await deps.recorder.catchUp();
    await deps.players.forgetBefore(serverId, { at: before, logId: '' });
  });
  if (result.deletedCount > 0) await deps.counts.mark(serverId);
  await deps.audit.publish({ actorId, serverId, action: 'logs.deleted', details: { days: parsedDays, deletedCount: result.deletedCount } });
  return { deletedCount: result.deletedCount };
}
