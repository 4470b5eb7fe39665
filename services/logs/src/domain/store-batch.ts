/**
 * Storing `logs.batch-accepted` events: idempotent insert (ids come from ingestion, so a redelivered
 * message inserts nothing new), retention expiry from the server's tier, the live tails of every logs
 * replica told (a `logs.batch-stored` notice per batch on the bus, after the commit), then the photo-log
 * limit. The events one bus read brought are stored together: one transaction and one publish of their
 * notices for up to MAX_LOGS_PER_TRANSACTION logs (docs/DECISIONS.md, "Performance").
 */
import type { FastifyBaseLogger } from 'fastify';
import { LOG_LIMITS } from '@skald/contracts';
import type { LogsBatchAccepted, Tier } from '@skald/contracts';
import type { LogRecord, LogStore, ObjectStore } from '@skald/ports';
import { DAY_MS } from './days.ts';
import { forgetEvictedPhotos } from './players/forget-photos.ts';
import type { PlayerRecorder } from './players/player-recorder.ts';
import { upkeep } from './players/record-players.ts';
import { tierOfServer } from './server-directory.ts';
import type { ServerDirectory } from './server-directory.ts';
import type { LogsBatchStored } from '@skald/contracts';

export interface StoreBatchDeps {
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
  readonly directory: ServerDirectory;
  readonly log: FastifyBaseLogger;
  /** Records the players the stored logs name (docs/PLAYERS.md); absent, none are (the players benchmark's baseline). */
  readonly players?: PlayerRecorder;
  /** Publishes the `logs.batch-stored` notices the live tails wait for (every replica's, bus-feed.ts), in one publish. */
  readonly notifyStored: (notices: readonly LogsBatchStored[]) => Promise<void>;
}

/** One accepted event and its envelope id (which its notice names). */
export interface AcceptedBatch {
  readonly event: LogsBatchAccepted;
  readonly batchId: string;
}

export interface StoreBatchResult {
  readonly inserted: number;
  /** Photo logs removed to respect the tiers' maxPhotoLogs. */
  readonly photosEvicted: number;
  /**
   * Servers whose stored logs may have changed (their counts are due again): every server of a part that
   * inserted anything (the store counts new rows per call, not per server), and those that lost photos.
   */
  readonly changedServers: readonly string[];
}

/**
 * The most logs stored in one transaction: as many as one accepted event holds at most (LOG_LIMITS), so
 * a transaction never holds the store's thread (in the all-in-one, the thread that answers HTTP) longer
 * than a single large event did before events were stored together; events of a few logs (coalesced
 * single-log traffic) share one.
 */
export const MAX_LOGS_PER_TRANSACTION = LOG_LIMITS.maxBatch;

export async function storeAcceptedBatches(deps: StoreBatchDeps, batches: readonly AcceptedBatch[]): Promise<StoreBatchResult> {
  let inserted = 0;
  let photosEvicted = 0;
  const changed = new Set<string>();
  for (const part of partsOf(batches)) {
    const stored = await storeTogether(deps, part);
    inserted += stored.inserted;
    photosEvicted += stored.photosEvicted;
    for (const serverId of stored.changedServers) changed.add(serverId);
  }
  return { inserted, photosEvicted, changedServers: [...changed] };
}

/** Consecutive events of at most MAX_LOGS_PER_TRANSACTION logs together (a larger event alone). */
function partsOf(batches: readonly AcceptedBatch[]): AcceptedBatch[][] {
  const parts: AcceptedBatch[][] = [];
  let current: AcceptedBatch[] = [];
  let logs = 0;
  for (const batch of batches) {
    if (current.length > 0 && logs + batch.event.logs.length > MAX_LOGS_PER_TRANSACTION) {
      parts.push(current);
      current = [];
      logs = 0;
    }
    current.push(batch);
    logs += batch.event.logs.length;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

async function storeTogether(deps: StoreBatchDeps, batches: readonly AcceptedBatch[]): Promise<StoreBatchResult> {
  const tiers = new Map<string, Tier>();
  for (const { event } of batches) {
    if (!tiers.has(event.serverId)) tiers.set(event.serverId, await tierOfServer(deps.directory, event.serverId));
  }
  const records = batches.flatMap(({ event }) => recordsOf(event, tiers.get(event.serverId)!));
  const { inserted } = await deps.logStore.insertBatch(records);
  // Also on a redelivery: recording is idempotent, and the first delivery may have stopped before it.
  await deps.players?.queue(records);
  // Also on a redelivery (inserted 0): the first delivery may have crashed between its insert and its
  // notices, and tails drop ids they already sent (RecentIds). A failed publish fails the handler, so the
  // events are delivered again and the notices retried (the insert is idempotent).
  const notices = batches.flatMap((batch) => noticeOf(batch) ?? []);
  if (notices.length > 0) await deps.notifyStored(notices);

  let photosEvicted = 0;
  const changed = new Set<string>(inserted > 0 ? tiers.keys() : []);
  // Also on a redelivery (inserted 0): a crash between insert and eviction must not leave a server over its limit.
  const withPhotos = new Set(batches.filter(({ event }) => event.logs.some((log) => log.logType === 'photo')).map(({ event }) => event.serverId));
  for (const serverId of withPhotos) {
    const evicted = await deps.logStore.deleteOldest(serverId, 'photo', tiers.get(serverId)!.maxPhotoLogs);
    photosEvicted += evicted.deletedCount;
    if (evicted.deletedCount > 0) {
      changed.add(serverId);
      const players = deps.players;
      if (players) {
        // What is queued is recorded first (evicted photos among it included), then forgotten with the rest.
        await upkeep(deps.log, 'the photo limit', async () => {
          await players.catchUp();
          await forgetEvictedPhotos({ logStore: deps.logStore, players: players.store }, serverId, tiers.get(serverId)!.maxPhotoLogs);
        });
      }
    }
    await deleteObjects(deps, evicted.objectKeys);
  }
  return { inserted, photosEvicted, changedServers: [...changed] };
}

/**
 * Retention counts from the arrival, not from the log's own time: a client cannot keep a log longer by
 * stamping it ahead, nor lose it sooner by sending it a day late. (An event without receivedAt was received
 * at createdAt.)
 */
function recordsOf(event: LogsBatchAccepted, tier: Tier): LogRecord[] {
  const retentionMs = tier.retentionDays * DAY_MS;
  return event.logs.map((log) => ({
    id: log.id,
    serverId: event.serverId,
    createdAt: log.createdAt,
    receivedAt: log.receivedAt,
    level: log.level,
    type: log.type,
    resource: log.resource,
    message: log.message,
    metadata: log.metadata,
    logType: log.logType,
    imageKey: log.imageKey,
    thumbKey: log.thumbKey,
    expiresAt: (log.receivedAt ?? log.createdAt) + retentionMs,
  }));
}

/** The notice of an event's text logs (none for an event of photo logs only: tails stream text logs). */
function noticeOf({ event, batchId }: AcceptedBatch): LogsBatchStored | null {
  let count = 0;
  let fromTime = Number.POSITIVE_INFINITY;
  let toTime = Number.NEGATIVE_INFINITY;
  for (const log of event.logs) {
    if (log.logType !== 'text') continue;
    count++;
    if (log.createdAt < fromTime) fromTime = log.createdAt;
    if (log.createdAt > toTime) toTime = log.createdAt;
  }
  return count === 0 ? null : { serverId: event.serverId, batchId, count, fromTime, toTime };
}

/**
 * Removes objects of deleted photo logs. The log rows are already gone, so a failure here only leaves
 * unreachable objects (no URL can be signed for them); it is logged, not retried, so it never blocks the pipeline.
 */
export async function deleteObjects(deps: Pick<StoreBatchDeps, 'objects' | 'log'>, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  try {
    await deps.objects.delete(keys);
  } catch (error) {
    deps.log.error({ err: error, count: keys.length }, 'logs: failed to delete photo objects of deleted logs');
  }
}
