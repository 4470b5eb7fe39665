import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPayments } from '@skald/adapters';
import { TOPICS } from '@skald/contracts';
import type { StripeTestServer } from '@skald/adapters/stripe-test-server';
import { desiredState } from '../src/domain/subscription-state.ts';
import { createHarness, getAs, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { stripeFixture } from './support/stripe.ts';
import { deliver, publishedFacts, subscription } from './support/webhooks.ts';

const S = 'srv-1';
let h: Harness;
let stripe: StripeTestServer;
const clock = { now: Date.now() };

const current = async () => (await getAs(h, `/tiers/current-tier/${S}`, 'owner-1')).json();
const facts = () => publishedFacts(h, S);
// A fixed wait, kept on purpose: the checks after it prove nothing more happened (no second change),
// and the in-memory bus gives no later signal that every handler has run.
const settle = async () => new Promise((resolve) => setTimeout(resolve, 150));

beforeEach(async () => {
  clock.now = Date.now();
  const fixture = await stripeFixture();
  stripe = fixture.server;
  h = await createHarness({ payments: fixture.payments, now: () => clock.now, periodEndEveryMs: 100 });
  await seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'free' }, { 'user-1': 'user' });
});
afterEach(async () => {
  await h.close();
  await stripe.close();
});

describe('POST /billing/webhook: verification on the raw body', () => {
  it('refuses a forged signature, a stale timestamp, a body changed after signing and a missing header; nothing applied', async () => {
    stripe.putSubscription(subscription({ id: 'sub_1' }));
    const event = { type: 'customer.subscription.updated' as const, subscription: subscription({ id: 'sub_1' }) };
    const forged = await deliver(h, stripe, event, { secret: 'whsec_forged' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('Invalid webhook signature.');
    expect((await deliver(h, stripe, event, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).statusCode).toBe(400);

    const signed = stripe.signedWebhook(event);
    const changed = Buffer.from(signed.body.toString('utf8').replace('"price_pro"', '"price_legend"'), 'utf8');
    const tampered = await h.inject({
      method: 'POST',
      url: '/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      payload: changed,
    });
    expect(tampered.statusCode).toBe(400);
    // Same bytes, whitespace added: re-serialised JSON would verify, the raw body must not.
    const spaced = Buffer.from(signed.body.toString('utf8').replace('{', '{ '), 'utf8');
    expect(
      (await h.inject({ method: 'POST', url: '/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature }, payload: spaced }))
        .statusCode,
    ).toBe(400);
    expect((await h.inject({ method: 'POST', url: '/billing/webhook', headers: { 'content-type': 'application/json' }, payload: signed.body })).statusCode).toBe(400);
    await settle();
    expect(facts()).toEqual([]);
    expect((await current()).tierKey).toBe('free');
    // The untouched delivery is applied.
    const ok = await h.inject({ method: 'POST', url: '/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature }, payload: signed.body });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true });
    expect(await current()).toEqual({ tierKey: 'pro', stripeSubscriptionId: 'sub_1', subscriptionStatus: 'active', is_cancelling: false });
  });

  it('without a webhook secret the route answers 503', async () => {
    const payments = await createPayments({ kind: 'stripe', secretKey: stripe.secretKey, apiBase: stripe.url, prices: {} });
    const bare = await createHarness({ payments });
    try {
      const signed = stripe.signedWebhook({ type: 'invoice.paid', customerId: 'c', subscriptionId: 's' });
      const res = await bare.inject({ method: 'POST', url: '/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature }, payload: signed.body });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('Payments are not configured on this installation.');
    } finally {
      await bare.close();
    }
  });
});

describe('POST /billing/webhook: state', () => {
  it('checkout completed: the paid tier, the subscription and the customer; server.tier-changed published', async () => {
    stripe.putSubscription(subscription({ id: 'sub_c', customerId: 'cus_c', priceId: 'price_starter' }));
    const res = await deliver(h, stripe, { type: 'checkout.session.completed', serverId: S, customerId: 'cus_c', subscriptionId: 'sub_c' });
    expect(res.statusCode).toBe(200);
    expect(await current()).toEqual({ tierKey: 'starter', stripeSubscriptionId: 'sub_c', subscriptionStatus: 'active', is_cancelling: false });
    expect(facts()).toEqual(['tier:starter']);
    // The portal now has a customer.
    expect((await h.injectAs({ id: 'owner-1' }, { method: 'POST', url: '/billing/create-portal-session', payload: { serverId: S } })).statusCode).toBe(200);
  });

  it('the same event twice is applied once', async () => {
    stripe.putSubscription(subscription({ id: 'sub_d' }));
    const first = await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_d' }, { id: 'evt_same' });
    expect(first.statusCode).toBe(200);
    expect((await current()).tierKey).toBe('pro');
    // Stripe now holds another state: applying evt_same again would fetch it and revert to free.
    stripe.putSubscription(subscription({ id: 'sub_d', status: 'canceled' }));
    const again = await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_d' }, { id: 'evt_same' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true });
    expect(await current()).toMatchObject({ tierKey: 'pro', subscriptionStatus: 'active' });
    expect(facts()).toEqual(['tier:pro']);
  });

  it('out of order: subscription updated before checkout completed, an old "created" after the update: ends active on the paid tier', async () => {
    const t = Math.floor(Date.now() / 1000);
    stripe.putSubscription(subscription({ id: 'sub_o', priceId: 'price_voyager' }));
    await deliver(h, stripe, { type: 'customer.subscription.updated', subscription: subscription({ id: 'sub_o', priceId: 'price_voyager' }) }, { created: t });
    await deliver(h, stripe, { type: 'customer.subscription.created', subscription: subscription({ id: 'sub_o', status: 'incomplete', priceId: 'price_voyager' }) }, { created: t - 10 });
    await deliver(h, stripe, { type: 'checkout.session.completed', serverId: S, customerId: 'cus_1', subscriptionId: 'sub_o' }, { created: t - 5 });
    expect(await current()).toEqual({ tierKey: 'voyager', stripeSubscriptionId: 'sub_o', subscriptionStatus: 'active', is_cancelling: false });
    expect(facts()).toEqual(['tier:voyager']);
  });

  it('out of order without the provider knowing the subscription: the newest event snapshot wins', async () => {
    const t = Math.floor(Date.now() / 1000);
    await deliver(h, stripe, { type: 'customer.subscription.updated', subscription: subscription({ id: 'sub_x', priceId: 'price_explorer' }) }, { created: t });
    await deliver(h, stripe, { type: 'customer.subscription.created', subscription: subscription({ id: 'sub_x', status: 'incomplete', priceId: 'price_explorer' }) }, { created: t - 30 });
    expect(await current()).toMatchObject({ tierKey: 'explorer', subscriptionStatus: 'active' });
  });

  it('cancellation keeps the tier until the period ends (is_cancelling), then Stripe ends it: free', async () => {
    const end = Math.floor(Date.now() / 1000) + 3600;
    stripe.putSubscription(subscription({ id: 'sub_k', cancelAtPeriodEnd: true, currentPeriodEnd: end }));
    await deliver(h, stripe, { type: 'customer.subscription.updated', subscription: subscription({ id: 'sub_k', cancelAtPeriodEnd: true, currentPeriodEnd: end }) });
    expect(await current()).toEqual({ tierKey: 'pro', stripeSubscriptionId: 'sub_k', subscriptionStatus: 'active', is_cancelling: true });
    stripe.putSubscription(subscription({ id: 'sub_k', status: 'canceled', currentPeriodEnd: end }));
    await deliver(h, stripe, { type: 'customer.subscription.deleted', subscription: subscription({ id: 'sub_k', status: 'canceled', currentPeriodEnd: end }) });
    expect(await current()).toEqual({ tierKey: 'free', stripeSubscriptionId: 'sub_k', subscriptionStatus: 'canceled', is_cancelling: false });
    expect(facts()).toEqual(['tier:pro', 'tier:free']);
  });

  it('cancellation: the period-end sweep reverts to free once the period ended, should the deleted event never come', async () => {
    const end = Math.floor(clock.now / 1000) + 3600;
    stripe.putSubscription(subscription({ id: 'sub_s', priceId: 'price_legend', cancelAtPeriodEnd: true, currentPeriodEnd: end }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_s' });
    expect(await current()).toMatchObject({ tierKey: 'legend', is_cancelling: true });
    await settle();
    expect((await current()).tierKey).toBe('legend');
    clock.now = end * 1000 + 1000;
    await expect.poll(async () => (await current()).tierKey, { timeout: 15_000 }).toBe('free');
    expect(await current()).toMatchObject({ subscriptionStatus: 'canceled', is_cancelling: false });
    expect(facts()).toEqual(['tier:legend', 'tier:free']);
  });

  it('unpaid suspends (tier kept); past_due is grace; paid again lifts the suspension', async () => {
    stripe.putSubscription(subscription({ id: 'sub_u' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_u' });
    stripe.putSubscription(subscription({ id: 'sub_u', status: 'past_due' }));
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_u' });
    expect(await current()).toMatchObject({ tierKey: 'pro', subscriptionStatus: 'past_due' });
    expect(facts()).toEqual(['tier:pro']);
    stripe.putSubscription(subscription({ id: 'sub_u', status: 'unpaid' }));
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_u' });
    expect(facts()).toEqual(['tier:pro', 'suspended:true']);
    stripe.putSubscription(subscription({ id: 'sub_u', status: 'active' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_u' });
    expect(facts()).toEqual(['tier:pro', 'suspended:true', 'suspended:false']);
  });

  it('an event for a server nobody knows is acknowledged without effect; other event types are acknowledged', async () => {
    expect((await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_nobody', subscriptionId: 'sub_nobody' })).statusCode).toBe(200);
    expect((await deliver(h, stripe, { type: 'charge.refunded', object: { id: 'ch_1' } })).statusCode).toBe(200);
    expect(facts()).toEqual([]);
  });
});

describe('state rules', () => {
  it('maps every status as docs/BILLING.md says', async () => {
    expect(desiredState({ status: 'active', tier: 'pro' })).toEqual({ tier: 'pro', suspendedForPayment: false });
    expect(desiredState({ status: 'trialing', tier: 'lite' })).toEqual({ tier: 'lite', suspendedForPayment: false });
    expect(desiredState({ status: 'active', tier: null })).toEqual({ tier: null, suspendedForPayment: false });
    expect(desiredState({ status: 'past_due', tier: 'pro' })).toEqual({ tier: null, suspendedForPayment: null });
    expect(desiredState({ status: 'unpaid', tier: 'pro' })).toEqual({ tier: null, suspendedForPayment: true });
    expect(desiredState({ status: 'canceled', tier: 'pro' })).toEqual({ tier: 'free', suspendedForPayment: false });
    expect(desiredState({ status: 'paused', tier: 'pro' })).toEqual({ tier: 'free', suspendedForPayment: false });
    expect(desiredState({ status: 'incomplete', tier: 'pro' })).toEqual({ tier: null, suspendedForPayment: null });
    expect(desiredState({ status: 'incomplete_expired', tier: 'pro' })).toEqual({ tier: null, suspendedForPayment: null });
  });
});

describe("billing's own facts on skald.billing.v1", () => {
  const subscriptionFacts = () =>
    h.published
      .filter((m) => m.topic === TOPICS.billing)
      .map((m) => m.payload as { type: string; data: { serverId: string; subscriptionId: string; status: string; paidTier: string | null; cancelAtPeriodEnd: boolean; currentPeriodEnd: string | null } })
      .filter((p) => p.type === 'billing.subscription-changed' && p.data.serverId === S)
      .map((p) => p.data);

  it('billing.subscription-changed: the stored subscription, keyed by server, once per change (not for a redelivery or an unchanged renewal)', async () => {
    const end = Math.floor(Date.now() / 1000) + 3600;
    stripe.putSubscription(subscription({ id: 'sub_f', priceId: 'price_starter', currentPeriodEnd: end }));
    await deliver(h, stripe, { type: 'checkout.session.completed', serverId: S, customerId: 'cus_1', subscriptionId: 'sub_f' });
    await expect.poll(subscriptionFacts).toEqual([
      { serverId: S, subscriptionId: 'sub_f', status: 'active', paidTier: 'starter', cancelAtPeriodEnd: false, currentPeriodEnd: new Date(end * 1000).toISOString() },
    ]);
    const key = h.published.find((m) => m.topic === TOPICS.billing)!.key;
    expect(key).toBe(S);
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_f' });
    stripe.putSubscription(subscription({ id: 'sub_f', priceId: 'price_starter', currentPeriodEnd: end, cancelAtPeriodEnd: true }));
    await deliver(h, stripe, { type: 'customer.subscription.updated', subscription: subscription({ id: 'sub_f', priceId: 'price_starter', currentPeriodEnd: end, cancelAtPeriodEnd: true }) });
    await settle();
    expect(subscriptionFacts().map((f) => [f.status, f.cancelAtPeriodEnd])).toEqual([
      ['active', false],
      ['active', true],
    ]);
    expect(facts()).toEqual(['tier:starter']);
  });
});
