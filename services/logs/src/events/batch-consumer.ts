/**
 * Bus consumer of `logs.batch-accepted` (envelope and validation by the contracts' event framework:
 * a malformed message or an unknown version of the event becomes a PoisonMessageError, so the bus
 * dead-letters it at once and moves on to the next message).
 */
import { LogsBatchAcceptedEvent, on, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import { storeAcceptedBatch } from '../domain/store-batch.ts';
import type { StoreBatchDeps } from '../domain/store-batch.ts';

export const LOGS_CONSUMER_GROUP = 'logs-store';

export async function startBatchConsumer(bus: EventBus, deps: StoreBatchDeps, options: { retryDelayMs?: number } = {}): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: LOGS_CONSUMER_GROUP,
    handlers: [on(LogsBatchAcceptedEvent, async (data) => void (await storeAcceptedBatch(deps, data)))],
    maxAttempts: 5,
    ...options,
  });
}
