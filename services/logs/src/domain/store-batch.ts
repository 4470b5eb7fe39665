/**
 * Storing a `logs.batch-accepted` event: idempotent insert (ids come from ingestion, so a redelivered
 * message inserts nothing new), retention expiry from the server's tier, the live tails of every logs
 * replica told (a `logs.batch-stored` notice on the bus, after the commit), then the photo-log limit.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogsBatchAccepted } from '@skald/contracts';
import type { LogRecord, LogStore, ObjectStore } from '@skald/ports';
import { DAY_MS } from './days.ts';
import { tierOfServer } from './server-directory.ts';
import type { ServerDirectory } from './server-directory.ts';
import type { LogsBatchStored } from '@skald/contracts';

export interface StoreBatchDeps {
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
  readonly directory: ServerDirectory;
  readonly log: FastifyBaseLogger;
  /** Publishes the `logs.batch-stored` notice the live tails wait for (every replica's, bus-feed.ts). */
  readonly notifyStored: (notice: LogsBatchStored) => Promise<void>;
}

export interface StoreBatchResult {
  readonly inserted: number;
  /** Photo logs removed to respect the tier's maxPhotoLogs. */
  readonly photosEvicted: number;
}

/** `batchId`: the accepted event's envelope id, which the notice names. */
export async function storeAcceptedBatch(deps: StoreBatchDeps, event: LogsBatchAccepted, batchId: string): Promise<StoreBatchResult> {
  const tier = await tierOfServer(deps.directory, event.serverId);
  const retentionMs = tier.retentionDays * DAY_MS;
  const records: LogRecord[] = event.logs.map((log) => ({
    id: log.id,
    serverId: event.serverId,
    createdAt: log.createdAt,
    level: log.level,
    type: log.type,
    resource: log.resource,
    message: log.message,
    metadata: log.metadata,
    logType: log.logType,
    imageKey: log.imageKey,
    thumbKey: log.thumbKey,
    expiresAt: log.createdAt + retentionMs,
  }));
  const { inserted } = await deps.logStore.insertBatch(records);
  // Also on a redelivery (inserted 0): the first delivery may have crashed between its insert and its
  // notice, and tails drop ids they already sent (RecentIds). A failed notice fails the handler, so the
  // batch is delivered again and the notice retried (the insert is idempotent).
  const text = records.filter((record) => record.logType === 'text');
  if (text.length > 0) {
    let fromTime = text[0]!.createdAt;
    let toTime = fromTime;
    for (const record of text) {
      if (record.createdAt < fromTime) fromTime = record.createdAt;
      if (record.createdAt > toTime) toTime = record.createdAt;
    }
    await deps.notifyStored({ serverId: event.serverId, batchId, count: text.length, fromTime, toTime });
  }

  let photosEvicted = 0;
  // Also on a redelivery (inserted 0): a crash between insert and eviction must not leave the server over its limit.
  if (records.some((r) => r.logType === 'photo')) {
    const evicted = await deps.logStore.deleteOldest(event.serverId, 'photo', tier.maxPhotoLogs);
    photosEvicted = evicted.deletedCount;
    await deleteObjects(deps, evicted.objectKeys);
  }
  return { inserted, photosEvicted };
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
