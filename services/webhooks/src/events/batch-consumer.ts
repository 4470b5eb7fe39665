/**
 * Consumer of `logs.batch-accepted` with the webhooks service's OWN consumer group (the logs service stores
 * the same events under its group; this one never reads the logs store). The offset is committed only once
 * every delivery job of the batch is in the queue, so a crash before that hands the batch out again, and
 * the deterministic delivery ids keep that from doubling deliveries. The events one read of the bus
 * brought are routed in one handler call (each server's filters read once) and committed together (onBatch); if one fails, the bus routes
 * them again one by one, which those same ids make harmless.
 */
import { LogsBatchAcceptedEvent, onBatch, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import { routeBatches } from '../domain/route-batch.ts';
import type { RouteBatchDeps } from '../domain/route-batch.ts';

export const WEBHOOKS_CONSUMER_GROUP = 'webhooks-delivery';

export async function startBatchConsumer(bus: EventBus, deps: RouteBatchDeps): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: WEBHOOKS_CONSUMER_GROUP,
    handlers: [
      onBatch(LogsBatchAcceptedEvent, async (items) => {
        await routeBatches(deps, items.map(({ data }) => data));
      }),
    ],
    maxAttempts: 5,
  });
}
