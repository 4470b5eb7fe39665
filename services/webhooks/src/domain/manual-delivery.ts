/**
 * The two deliveries a person starts from the screen, sent at once (the answer says how it went):
 *  - test: one sample log in the webhook's platform format; a failure is recorded as an attempt and its
 *    payload dead-lettered, so it shows in the queue and can be replayed once the receiver is fixed;
 *  - replay: a dead letter's stored payload again, with its original delivery id (receivers dedupe on it;
 *    generic webhooks get a fresh timestamp and signature); success removes the dead letter, failure keeps
 *    it with the new error.
 * Both go through the same outbound guard as every delivery.
 */
import { randomUUID } from 'node:crypto';
import type { OutboundGuard } from '@skald/service-kit';
import { PLATFORM_FORMATS } from './platforms/index.ts';
import { GONE_REASON, sendDelivery } from './send.ts';
import type { SendOutcome, SendSettings } from './send.ts';
import type { DeadLetter, Webhook, WebhookStore } from './webhook-store.ts';

export interface ManualDeliveryDeps {
  readonly store: WebhookStore;
  readonly guard: OutboundGuard;
  readonly settings: SendSettings;
  readonly now: () => number;
}

export type ManualResult = { readonly ok: true; readonly statusCode: number } | { readonly ok: false; readonly error: string };

function describe(outcome: SendOutcome): string {
  switch (outcome.kind) {
    case 'throttled':
      return `The receiver answered HTTP ${outcome.statusCode} (rate limited); try again in ${Math.ceil(outcome.retryAfterMs / 1000)} s.`;
    case 'gone':
    case 'failed':
    case 'refused':
      return outcome.error;
    case 'delivered':
      return '';
  }
}

async function record(deps: ManualDeliveryDeps, webhook: Webhook, outcome: SendOutcome): Promise<void> {
  const at = deps.now();
  if (outcome.kind === 'delivered') await deps.store.recordAttempt(webhook.id, { ok: true, statusCode: outcome.statusCode, at });
  else {
    const statusCode = outcome.kind === 'refused' ? null : outcome.statusCode;
    await deps.store.recordAttempt(webhook.id, { ok: false, statusCode, at, ...(outcome.kind === 'gone' ? { disable: GONE_REASON } : {}) });
  }
}

export async function sendTest(deps: ManualDeliveryDeps, webhook: Webhook, serverName: string): Promise<ManualResult> {
  const deliveryId = `msg_test_${randomUUID().replace(/-/g, '')}`;
  const sample = {
    id: `test-${randomUUID()}`,
    createdAt: deps.now(),
    level: 'info' as const,
    type: 'Test',
    resource: 'skald',
    message: 'This is a test message from Skald. If you can read it, the webhook works.',
    metadata: null,
    logType: 'text' as const,
  };
  const payload = JSON.stringify(PLATFORM_FORMATS[webhook.platform].build([sample], { deliveryId, serverName, webhookId: webhook.id }));
  const outcome = await sendDelivery(deps.guard, webhook, deliveryId, payload, deps.settings, deps.now);
  await record(deps, webhook, outcome);
  if (outcome.kind === 'delivered') return { ok: true, statusCode: outcome.statusCode };
  const error = describe(outcome);
  await deps.store.addDeadLetter(webhook, deliveryId, payload, error, deps.now());
  return { ok: false, error };
}

export async function replayDeadLetter(deps: ManualDeliveryDeps, webhook: Webhook, deadLetter: DeadLetter): Promise<ManualResult> {
  const outcome = await sendDelivery(deps.guard, webhook, deadLetter.deliveryId, deadLetter.payload, deps.settings, deps.now);
  await record(deps, webhook, outcome);
  if (outcome.kind === 'delivered') {
    await deps.store.removeDeadLetter(webhook.serverId, webhook.id, deadLetter.id);
    return { ok: true, statusCode: outcome.statusCode };
  }
  const error = describe(outcome);
  await deps.store.updateDeadLetter(deadLetter.id, error, deps.now());
  return { ok: false, error };
}
