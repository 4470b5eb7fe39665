/** Bus consumer of `logs.batch-accepted`: validates, stores, and sends anything malformed to the dead-letter topic. */
import { TOPICS, LOGS_BATCH_ACCEPTED_TYPE, explainLogsBatchAccepted, isLogsBatchAccepted } from '@skald/contracts';
import { PoisonMessageError } from '@skald/ports';
import type { BusMessage, EventBus, Subscription } from '@skald/ports';
import { storeAcceptedBatch } from './store-batch.ts';
import type { StoreBatchDeps } from './store-batch.ts';

export const LOGS_CONSUMER_GROUP = 'logs-store';

export function batchHandler(deps: StoreBatchDeps): (message: BusMessage) => Promise<void> {
  return async (message) => {
    const eventType = message.headers['event-type'];
    if (eventType !== undefined && eventType !== LOGS_BATCH_ACCEPTED_TYPE) {
      // An unknown event (e.g. a future version) must not be silently dropped: park it for an operator.
      throw new PoisonMessageError(`unsupported event type ${eventType}`);
    }
    if (!isLogsBatchAccepted(message.payload)) {
      throw new PoisonMessageError(`invalid logs.batch-accepted: ${explainLogsBatchAccepted(message.payload) ?? 'invalid payload'}`);
    }
    await storeAcceptedBatch(deps, message.payload);
  };
}

export async function startBatchConsumer(bus: EventBus, deps: StoreBatchDeps): Promise<Subscription> {
  return bus.subscribe({ group: LOGS_CONSUMER_GROUP, topics: [TOPICS.logsIngested], handler: batchHandler(deps), maxAttempts: 5 });
}
