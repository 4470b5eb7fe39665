/**
 * Stripe webhooks: each event id is applied once, and the result does not depend on the order
 * events arrive in. Every subscription-related event (checkout completed, subscription created / updated /
 * deleted, invoice paid / failed) is only a trigger: the subscription is fetched from Stripe as it is NOW
 * and that state is applied; only when Stripe does not know it does the event's own snapshot count, and
 * then never over a newer one (event `created` against the stored state's time).
 *
 * Idempotency: collection `webhook_events` (_id = Stripe event id). An event is claimed (inserted as
 * 'processing') before it is applied and marked 'done' after; a duplicate of a done event is acknowledged
 * without effect; a duplicate arriving while the first is still processing answers 409 (Stripe retries
 * later); a failed application releases the claim and answers 500, so Stripe's retry applies it.
 */
import { DuplicateKeyError } from '@skald/ports';
import type { BaseDocument, Collection, DocumentStore, PaymentEvent, Payments } from '@skald/ports';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingState } from './billing-state.ts';
import type { SubscriptionRepository } from './subscriptions.ts';

interface WebhookEventDocument extends BaseDocument {
  readonly type: string;
  readonly state: 'processing' | 'done';
  readonly created: number;
  readonly receivedAt: number;
}

/** How long a 'processing' claim may stand before another delivery of the event takes it over. */
export const STALE_CLAIM_MS = 2 * 60_000;

export type WebhookOutcome = 'applied' | 'duplicate' | 'in-progress';

export interface WebhookProcessor {
  handle(event: PaymentEvent): Promise<WebhookOutcome>;
}

export async function createWebhookProcessor(deps: {
  docs: DocumentStore;
  payments: Payments;
  subscriptions: SubscriptionRepository;
  state: BillingState;
  log: FastifyBaseLogger;
  now: () => number;
}): Promise<WebhookProcessor> {
  const events: Collection<WebhookEventDocument> = await deps.docs.collection<WebhookEventDocument>('webhook_events');

  async function serverOf(ids: { serverId?: string | null; subscriptionId?: string | null; customerId?: string | null }): Promise<string | null> {
    if (ids.serverId) return ids.serverId;
    if (ids.subscriptionId) {
      const bySub = await deps.subscriptions.bySubscription(ids.subscriptionId);
      if (bySub) return bySub._id;
    }
    if (ids.customerId) {
      const byCustomer = await deps.subscriptions.byCustomer(ids.customerId);
      if (byCustomer) return byCustomer._id;
    }
    return null;
  }

  /** Fetches the subscription as Stripe holds it now and applies it (falling back to the event's snapshot). */
  async function sync(event: PaymentEvent, subscriptionId: string, hint: { serverId?: string | null; customerId?: string | null }): Promise<void> {
    const fetched = await deps.payments.retrieveSubscription(subscriptionId);
    const snapshot = fetched ?? (event.kind === 'subscription' ? event.subscription : null);
    if (!snapshot) {
      deps.log.warn({ eventId: event.id, subscriptionId }, 'billing webhook: subscription unknown to the provider, nothing applied');
      return;
    }
    const serverId = await serverOf({ serverId: snapshot.serverId ?? hint.serverId ?? null, subscriptionId, customerId: snapshot.customerId ?? hint.customerId ?? null });
    if (!serverId) {
      deps.log.warn({ eventId: event.id, subscriptionId }, 'billing webhook: no server for the subscription, nothing applied');
      return;
    }
    await deps.state.applySubscription(serverId, snapshot, { eventCreated: event.created, fetched: fetched !== null });
  }

  async function apply(event: PaymentEvent): Promise<void> {
    switch (event.kind) {
      case 'checkout-completed': {
        if (!event.serverId) return;
        if (event.customerId) await deps.subscriptions.put(event.serverId, { customerId: event.customerId });
        if (event.subscriptionId) await sync(event, event.subscriptionId, { serverId: event.serverId, customerId: event.customerId });
        return;
      }
      case 'subscription':
        await sync(event, event.subscription.id, { serverId: event.subscription.serverId, customerId: event.subscription.customerId });
        return;
      case 'invoice':
        if (event.subscriptionId) await sync(event, event.subscriptionId, { customerId: event.customerId });
        return;
      case 'ignored':
        return;
    }
  }

  const processor: WebhookProcessor = {
    async handle(event) {
      try {
        await events.insertOne({ _id: event.id, type: event.type, state: 'processing', created: event.created, receivedAt: deps.now() });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        const existing = await events.findOne({ _id: event.id });
        if (existing?.state === 'done') return 'duplicate';
        // A claim left by a process that died while applying it: released after STALE_CLAIM_MS.
        if (existing && deps.now() - existing.receivedAt > STALE_CLAIM_MS) {
          await events.deleteOne({ _id: event.id, state: 'processing' });
          return processor.handle(event);
        }
        return 'in-progress';
      }
      try {
        await deps.state.serial(() => apply(event));
      } catch (error) {
        await events.deleteOne({ _id: event.id }).catch(() => undefined);
        throw error;
      }
      await events.updateOne({ _id: event.id }, { $set: { state: 'done' } });
      return 'applied';
    },
  };
  return processor;
}
