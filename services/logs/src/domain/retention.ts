/**
 * Retention: each log carries expiresAt (its arrival + its tier's retentionDays, fixed at insert: a log
 * backdated by its client is kept as long as any other, never less, never more). A
 * repeatable job on the JobQueue deletes expired logs and their photo objects. On MongoDB the adapter's TTL
 * index does the same on its own; the sweep is then a cheap no-op that still removes the photo objects.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue, LogStore, ObjectStore, Worker } from '@skald/ports';
import type { PlayerRecorder } from './players/player-recorder.ts';
import { upkeep } from './players/record-players.ts';
import type { ServerCounts } from './server-counts.ts';
import { deleteObjects } from './store-batch.ts';

export const RETENTION_QUEUE = 'logs-retention';
export const RETENTION_SCHEDULE_ID = 'logs-retention-sweep';
export const RETENTION_JOB = 'sweep-expired';
export const RETENTION_EVERY_MS = 10 * 60_000;

export interface RetentionDeps {
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
  readonly log: FastifyBaseLogger;
  /** Its mapping rows carry each log's expiry: they expire with the logs, and players left without logs go. */
  readonly players: Pick<PlayerRecorder, 'store' | 'catchUp'>;
}

export async function sweepExpired(deps: RetentionDeps, now: number): Promise<number> {
  const result = await deps.logStore.deleteExpired(now);
  await deleteObjects(deps, result.objectKeys);
  await upkeep(deps.log, 'retention', async () => {
    // Queued logs recorded first: an expired one among them is then forgotten too.
    await deps.players.catchUp();
    await deps.players.store.forgetExpired(now);
  });
  if (result.deletedCount > 0) deps.log.info({ deletedCount: result.deletedCount }, 'logs: retention sweep removed expired logs');
  return result.deletedCount;
}

/**
 * Schedules the sweep (idempotent: same schedule id) and starts its worker. A sweep that removed logs marks
 * every server with logs for its next counts fact (the store does not say whose logs expired).
 */
export async function startRetention(jobs: JobQueue, deps: RetentionDeps & { readonly counts: Pick<ServerCounts, 'markAllWithLogs'> }, everyMs = RETENTION_EVERY_MS): Promise<Worker> {
  await jobs.schedule(RETENTION_QUEUE, RETENTION_SCHEDULE_ID, everyMs, RETENTION_JOB, {});
  return jobs.process(RETENTION_QUEUE, async (job) => {
    if (job.name === RETENTION_JOB && (await sweepExpired(deps, Date.now())) > 0) await deps.counts.markAllWithLogs();
  });
}
