/**
 * Bus consumer of `logs.batch-accepted` (envelope and validation by the contracts' event framework:
 * a malformed message or an unknown version of the event becomes a PoisonMessageError, so the bus
 * dead-letters it at once and moves on to the next message).
 */
import { LogsBatchAcceptedEvent, on, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import { storeAcceptedBatch } from '../domain/store-batch.ts';
import type { StoreBatchDeps } from '../domain/store-batch.ts';
import type { ServerCounts } from '../domain/server-counts.ts';

export const LOGS_CONSUMER_GROUP = 'logs-store';

/** Stores each batch; a batch that changed the server's stored logs marks it for its next counts fact. */
export async function startBatchConsumer(
  bus: EventBus,
  deps: StoreBatchDeps & { readonly counts: Pick<ServerCounts, 'mark'> },
  options: { retryDelayMs?: number } = {},
): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: LOGS_CONSUMER_GROUP,
    handlers: [
      on(LogsBatchAcceptedEvent, async (data, { envelope }) => {
        const stored = await storeAcceptedBatch(deps, data, envelope.id);
        // Which replica stored what (debug level: off by default, costs nothing then).
        deps.log.debug({ serverId: data.serverId, batchId: envelope.id, inserted: stored.inserted }, 'logs: stored a batch');
        if (stored.inserted > 0 || stored.photosEvicted > 0) await deps.counts.mark(data.serverId);
      }),
    ],
    maxAttempts: 5,
    ...options,
  });
}
