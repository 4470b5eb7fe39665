import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL } from '@skald/testing';
import type { StripeTestServer } from '@skald/adapters/stripe-test-server';
import { createSubscriptionRepository } from '../src/domain/subscriptions.ts';
import { createHarness, postAs, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { stripeFixture } from './support/stripe.ts';

const S = 'srv-1';
const OTHER = 'srv-2';
const CHECKOUT = '/billing/create-checkout-session';
const PORTAL = '/billing/create-portal-session';
let h: Harness;
let stripe: StripeTestServer;

async function seed(harness: Harness): Promise<void> {
  await seedServer(harness, { serverId: S, ownerId: 'owner-1', name: 'Alpha RP', tier: 'starter' }, { 'admin-1': 'admin', 'user-1': 'user' });
  await seedServer(harness, { serverId: OTHER, ownerId: 'stranger', tier: 'free' });
}

describe('with Stripe configured (the local Stripe-compatible server)', () => {
  beforeEach(async () => {
    const fixture = await stripeFixture();
    stripe = fixture.server;
    h = await createHarness({ payments: fixture.payments });
    await seed(h);
  });
  afterEach(async () => {
    await h.close();
    await stripe.close();
  });

  const checkouts = () => stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');

  it('owner: checkout for a higher tier answers the provider URL; price, metadata, client_reference_id, URLs and customer reach Stripe', async () => {
    const res = await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'pro' });
    expect(res.statusCode).toBe(200);
    expect(res.json().url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_`));
    const customer = stripe.requests.find((r) => r.path === '/v1/customers')!;
    expect(customer.params).toMatchObject({ name: 'Alpha RP', 'metadata[serverId]': S });
    const p = checkouts().at(-1)!.params;
    expect(p).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_pro',
      'metadata[serverId]': S,
      client_reference_id: S,
      success_url: `${TEST_PUBLIC_URL}/billing?success=true`,
      cancel_url: `${TEST_PUBLIC_URL}/billing?canceled=true`,
    });
    expect(p['customer']).toMatch(/^cus_test_/);
    // A second checkout reuses the server's customer.
    await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'legend' });
    expect(stripe.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
    expect(checkouts().at(-1)!.params['customer']).toBe(p['customer']);
  });

  it('role matrix: admin and user 403, another tenant 404, anonymous 401', async () => {
    expect((await postAs(h, CHECKOUT, 'admin-1', { serverId: S, tier: 'pro' })).statusCode).toBe(403);
    expect((await postAs(h, CHECKOUT, 'user-1', { serverId: S, tier: 'pro' })).statusCode).toBe(403);
    expect((await postAs(h, CHECKOUT, 'owner-1', { serverId: OTHER, tier: 'pro' })).statusCode).toBe(404);
    expect((await postAs(h, CHECKOUT, null, { serverId: S, tier: 'pro' })).statusCode).toBe(401);
    expect((await postAs(h, PORTAL, 'admin-1', { serverId: S })).statusCode).toBe(403);
    expect((await postAs(h, PORTAL, 'user-1', { serverId: S })).statusCode).toBe(403);
    expect((await postAs(h, PORTAL, 'owner-1', { serverId: OTHER })).statusCode).toBe(404);
    expect((await postAs(h, PORTAL, null, { serverId: S })).statusCode).toBe(401);
    expect(checkouts()).toHaveLength(0);
  });

  it('refuses the current tier, lower tiers, unknown tiers and a paid tier without a price', async () => {
    const starter = await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'starter' });
    expect(starter.statusCode).toBe(409);
    expect(starter.json().error).toBe('Only a plan higher than the current one can be bought.');
    expect((await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'free' })).statusCode).toBe(409);
    expect((await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'gold' })).statusCode).toBe(400);
    const lite = await postAs(h, CHECKOUT, 'stranger', { serverId: OTHER, tier: 'lite' });
    expect(lite.statusCode).toBe(400);
    expect(lite.json().error).toBe('This plan cannot be bought on this installation.');
    expect(checkouts()).toHaveLength(0);
  });

  it('with an active subscription, checkout is refused (plan changes go through the portal)', async () => {
    const subs = await createSubscriptionRepository(h.deps.docs);
    await subs.put(S, { customerId: 'cus_a', subscriptionId: 'sub_a', status: 'trialing', tier: 'starter' });
    const res = await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'legend' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain('already has an active subscription');
    await subs.put(S, { status: 'canceled' });
    expect((await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'legend' })).statusCode).toBe(200);
  });

  it('portal: 409 without a customer; with one, the provider URL for that customer returning to /billing', async () => {
    const none = await postAs(h, PORTAL, 'owner-1', { serverId: S });
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('This server has no subscription to manage.');
    const subs = await createSubscriptionRepository(h.deps.docs);
    await subs.put(S, { customerId: 'cus_portal' });
    const res = await postAs(h, PORTAL, 'owner-1', { serverId: S });
    expect(res.statusCode).toBe(200);
    expect(res.json().url).toMatch(new RegExp(`^${stripe.url}/portal/`));
    expect(stripe.requests.at(-1)!.params).toMatchObject({ customer: 'cus_portal', return_url: `${TEST_PUBLIC_URL}/billing` });
  });

  it('a provider failure answers 502', async () => {
    await stripe.close();
    const res = await postAs(h, CHECKOUT, 'owner-1', { serverId: S, tier: 'pro' });
    expect(res.statusCode).toBe(502);
    stripe = (await stripeFixture()).server;
  });
});

describe('without Stripe configured', () => {
  beforeEach(async () => {
    h = await createHarness({ payments: null });
    await seed(h);
  });
  afterEach(async () => {
    await h.close();
  });

  it('checkout and portal answer 503 with the text; the plans still show', async () => {
    for (const [url, body] of [
      [CHECKOUT, { serverId: S, tier: 'pro' }],
      [PORTAL, { serverId: S }],
    ] as const) {
      const res = await postAs(h, url, 'owner-1', body);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'Payments are not configured on this installation.', message: 'Payments are not configured on this installation.' });
    }
    expect((await h.inject({ method: 'GET', url: '/tiers' })).json()).toHaveLength(8);
  });

  it('the role guard still comes first', async () => {
    expect((await postAs(h, CHECKOUT, 'user-1', { serverId: S, tier: 'pro' })).statusCode).toBe(403);
    expect((await postAs(h, CHECKOUT, 'owner-1', { serverId: OTHER, tier: 'pro' })).statusCode).toBe(404);
  });
});
