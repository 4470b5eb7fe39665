/**
 * Billing's own facts, on TOPICS.billing (a history topic), keyed by server id. A server's tier
 * and suspension are NOT here: they are identity facts (server.tier-changed / server.suspension-changed on
 * TOPICS.identity, ordered after server.created); this topic says what the server's subscription is, for
 * readers that need the payment side (the audit trail's "subscription changed" entries, an admin view).
 *
 * `billing.subscription-changed` v1 is a "set the full value" fact: the server's subscription as billing
 * stores it after a Stripe event or the period-end sweep, published only when it changed, so replaying the
 * topic in order ends in each server's current subscription. No payment data, no customer id.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { TOPICS } from '../topics.ts';
import { defineEvent } from './framework.ts';

export const BillingSubscriptionChangedSchema = Type.Object(
  {
    serverId: Type.String({ minLength: 1, maxLength: 64 }),
    /** Stripe's subscription id (sub_…). */
    subscriptionId: Type.String({ minLength: 1, maxLength: 255 }),
    /** Stripe's status: active, trialing, past_due, unpaid, canceled, paused, incomplete, incomplete_expired. */
    status: Type.String({ minLength: 1, maxLength: 32 }),
    /** The tier the subscription pays for (from its price), or null when its price is none of the configured ones. */
    paidTier: Type.Union([Type.String({ minLength: 1, maxLength: 32 }), Type.Null()]),
    /** Set to end at the period end (the server keeps the tier until then). */
    cancelAtPeriodEnd: Type.Boolean(),
    /** ISO 8601 end of the current period, or null. */
    currentPeriodEnd: Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type BillingSubscriptionChanged = Static<typeof BillingSubscriptionChangedSchema>;

export const BillingSubscriptionChangedEvent = defineEvent({
  name: 'billing.subscription-changed',
  version: 1,
  topic: TOPICS.billing,
  schema: BillingSubscriptionChangedSchema,
});
