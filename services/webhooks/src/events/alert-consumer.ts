/**
 * Consumer of `logs.batch-accepted` for alert rules, with its OWN consumer group (beside the webhooks'
 * delivery group), so each accepted batch is evaluated once across replicas, as it is accepted: a log
 * counts even when the log store indexes it late. The batches one read brought are evaluated in one call
 * and committed together (onBatch).
 */
import { LogsBatchAcceptedEvent, onBatch, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import type { AlertEvaluator } from '../domain/alerts/alert-evaluator.ts';

export const ALERTS_CONSUMER_GROUP = 'webhooks-alerts';

export async function startAlertConsumer(bus: EventBus, evaluator: AlertEvaluator): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: ALERTS_CONSUMER_GROUP,
    handlers: [
      onBatch(LogsBatchAcceptedEvent, async (items) =>
        // A message handed out again (after a failed handler or a crashed consumer) makes the evaluator read
        // the batches every replica counted, so it is not counted twice.
        evaluator.onBatches(
          items.map(({ data }) => data),
          { redelivered: items.some(({ context }) => context.message.attempt > 1) },
        ),
      ),
    ],
    maxAttempts: 5,
  });
}
