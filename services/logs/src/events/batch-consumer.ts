/**
 * Bus consumer of `logs.batch-accepted` (envelope and validation by the contracts' event framework:
 * a malformed message or an unknown version of the event becomes a PoisonMessageError, so the bus
 * dead-letters it at once and moves on to the next message). The events one read of the bus brought
 * are stored together (onBatch: one transaction, one commit of the group's offset); a message that
 * fails them is stored alone on the bus's one-by-one path.
 */
import { LogsBatchAcceptedEvent, onBatch, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import { storeAcceptedBatches } from '../domain/store-batch.ts';
import type { StoreBatchDeps } from '../domain/store-batch.ts';
import type { ServerCounts } from '../domain/server-counts.ts';

export const LOGS_CONSUMER_GROUP = 'logs-store';

/** Stores the batches; each server whose stored logs they changed is marked for its next counts fact. */
export async function startBatchConsumer(
  bus: EventBus,
  deps: StoreBatchDeps & { readonly counts: Pick<ServerCounts, 'mark'> },
  options: { retryDelayMs?: number } = {},
): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: LOGS_CONSUMER_GROUP,
    handlers: [
      onBatch(LogsBatchAcceptedEvent, async (items) => {
        const batches = items.map(({ data, context }) => ({ event: data, batchId: context.envelope.id }));
        const stored = await storeAcceptedBatches(deps, batches);
        // Which replica stored what (debug level: off by default, costs nothing then).
        deps.log.debug({ batchIds: batches.map((batch) => batch.batchId), inserted: stored.inserted }, 'logs: stored batches');
        for (const serverId of stored.changedServers) await deps.counts.mark(serverId);
      }),
    ],
    maxAttempts: 5,
    ...options,
  });
}
