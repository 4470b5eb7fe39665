/**
 * Billing's audit entries: checkout started names the owner; what Stripe or the period end
 * changes (subscription status, tier, suspension) names the system actor; a redelivered event adds none.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRecorded } from '@skald/contracts';
import type { StripeTestServer } from '@skald/adapters/stripe-test-server';
import { createHarness, postAs, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { stripeFixture } from './support/stripe.ts';
import { deliver, subscription } from './support/webhooks.ts';

const S = 'srv-1';
let h: Harness;
let stripe: StripeTestServer;
const clock = { now: Date.now() };

function entries(): [string, string, string, unknown][] {
  return h.published
    .filter((m) => m.topic === 'skald.audit.v1')
    .map((m) => (m.payload as { data: AuditRecorded }).data)
    .filter((e) => e.serverId === S)
    .map((e) => [e.action, e.actorId, e.actorEmail, e.details]);
}
// A fixed wait, kept on purpose: after the awaited entries it proves no further entry follows, and the
// in-memory bus gives no later signal that every handler has run (no idle event to wait for).
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

beforeEach(async () => {
  clock.now = Date.now();
  const fixture = await stripeFixture();
  stripe = fixture.server;
  h = await createHarness({ payments: fixture.payments, now: () => clock.now, periodEndEveryMs: 100 });
  await h.identity.user('owner-1');
  await seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'free' });
});
afterEach(async () => {
  await h.close();
  await stripe.close();
});

describe("billing's audit entries", () => {
  it('checkout started: one entry with the owner and the tier; a refused checkout none', async () => {
    expect((await postAs(h, '/billing/create-checkout-session', 'owner-1', { serverId: S, tier: 'lite' })).statusCode).toBe(400);
    expect((await postAs(h, '/billing/create-checkout-session', 'owner-1', { serverId: S, tier: 'pro' })).statusCode).toBe(200);
    await settle();
    expect(entries()).toEqual([['billing.checkout-started', 'owner-1', 'owner-1@skald.test', { tier: 'pro' }]]);
  });

  it("Stripe's changes and the period end are entries of the system actor, once each", async () => {
    const end = Math.floor(clock.now / 1000) + 3600;
    stripe.putSubscription(subscription({ id: 'sub_a', priceId: 'price_legend', cancelAtPeriodEnd: true, currentPeriodEnd: end }));
    const paid = await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_a' });
    expect(paid.statusCode).toBe(200);
    // Another event with the same state: nothing changed, nothing recorded.
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_a' });
    clock.now = end * 1000 + 1000;
    await expect.poll(() => entries().length, { timeout: 15_000 }).toBe(4);
    await settle();
    expect(entries()).toEqual([
      ['billing.subscription-changed', 'system', 'system', { status: 'active', tier: 'legend', cancelAtPeriodEnd: true }],
      ['server.tier-changed', 'system', 'system', { from: 'free', to: 'legend' }],
      ['billing.subscription-changed', 'system', 'system', { status: 'canceled', tier: 'legend', cancelAtPeriodEnd: false }],
      ['server.tier-changed', 'system', 'system', { from: 'legend', to: 'free' }],
    ]);
  });

  it('an unpaid subscription suspends: one suspension entry, none for the unchanged tier', async () => {
    stripe.putSubscription(subscription({ id: 'sub_u' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_u' });
    stripe.putSubscription(subscription({ id: 'sub_u', status: 'unpaid' }));
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_u' });
    await settle();
    expect(entries().map(([action, actor, , details]) => [action, actor, details])).toEqual([
      ['billing.subscription-changed', 'system', { status: 'active', tier: 'pro', cancelAtPeriodEnd: false }],
      ['server.tier-changed', 'system', { from: 'free', to: 'pro' }],
      ['billing.subscription-changed', 'system', { status: 'unpaid', tier: 'pro', cancelAtPeriodEnd: false }],
      ['server.suspension-changed', 'system', { suspended: true, reason: 'payment' }],
    ]);
  });
});
