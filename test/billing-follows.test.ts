/**
 * Billing's tier and suspension reach ingestion within seconds: the billing and ingestion
 * services built by their real factories on ONE shared bus and counters (createTestDeps({ shareWith })),
 * billing over the real Stripe adapter pointed at the local Stripe-compatible test server. A signed
 * webhook moves ingestion's 429 threshold, and an unpaid subscription makes ingestion answer 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayments } from '@skald/adapters';
import { startStripeTestServer } from '@skald/adapters/stripe-test-server';
import type { StripeTestServer, TestWebhookEvent } from '@skald/adapters/stripe-test-server';
import { createBillingServiceWith } from '@skald/billing-service/testing';
import { createIngestionService } from '@skald/ingestion-service';
import { buildTestService, createTestDeps, waitFor } from '@skald/testing';
import type { TestService } from '@skald/testing';

const S = 'srv-follow';
const KEY = 'sk_follow_key_0123456789abcdef';
let stripe: StripeTestServer;
let ingestion: TestService;
let billing: TestService;

const post = (count: number) =>
  ingestion.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': KEY }, payload: Array.from({ length: count }, () => ({ message: 'q' })) });

async function webhook(event: TestWebhookEvent): Promise<void> {
  const signed = stripe.signedWebhook(event);
  const res = await billing.inject({
    method: 'POST',
    url: '/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
    payload: signed.body,
  });
  expect(res.statusCode).toBe(200);
}

/** Milliseconds until `check` holds (at most 5 s). */
async function within(check: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  await waitFor(check, what, 5_000);
  return Date.now() - started;
}

beforeAll(async () => {
  stripe = await startStripeTestServer();
  ingestion = await buildTestService(createIngestionService, { service: 'ingestion' });
  const billingDeps = await createTestDeps({ service: 'billing', shareWith: ingestion.deps });
  const payments = await createPayments({
    kind: 'stripe',
    secretKey: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    apiBase: stripe.url,
    prices: { starter: 'price_starter' },
    maxNetworkRetries: 0,
  });
  billing = await buildTestService((deps) => createBillingServiceWith(deps, { payments }), { deps: billingDeps });
  await ingestion.identity.server({ serverId: S, ownerId: 'owner-f', apiKey: KEY });
  await waitFor(async () => (await post(0)).statusCode !== 401, 'ingestion knows the key');
});

afterAll(async () => {
  await billing?.close();
  await billing?.deps.cleanup();
  await ingestion?.close();
  await stripe?.close();
});

describe('billing → ingestion over one bus', () => {
  it("a paid subscription moves ingestion's 429 threshold within seconds", async () => {
    expect((await post(1000)).statusCode).toBe(201);
    expect((await post(1)).statusCode).toBe(429);
    stripe.putSubscription({ id: 'sub_f', customerId: 'cus_f', status: 'active', priceId: 'price_starter', serverId: S });
    await webhook({ type: 'checkout.session.completed', serverId: S, customerId: 'cus_f', subscriptionId: 'sub_f' });
    const ms = await within(async () => (await post(1)).statusCode === 201, 'the starter quota at ingestion');
    expect(ms).toBeLessThan(5_000);
    // Starter: 15,000 per hour. 1,001 used; 13,999 more fit, then 429 again.
    for (let i = 0; i < 13; i++) expect((await post(1000)).statusCode).toBe(201);
    expect((await post(998)).statusCode).toBe(201);
    expect((await post(2)).statusCode).toBe(429);
    expect((await post(1)).statusCode).toBe(201);
  });

  it('an unpaid subscription suspends the server at ingestion (403) within seconds; paid again lifts it', async () => {
    stripe.putSubscription({ id: 'sub_f', customerId: 'cus_f', status: 'unpaid', priceId: 'price_starter', serverId: S });
    await webhook({ type: 'invoice.payment_failed', customerId: 'cus_f', subscriptionId: 'sub_f' });
    await within(async () => (await post(0)).statusCode === 403, 'the suspension at ingestion');
    const refused = await post(1);
    expect(refused.statusCode).toBe(403);
    stripe.putSubscription({ id: 'sub_f', customerId: 'cus_f', status: 'active', priceId: 'price_starter', serverId: S });
    await webhook({ type: 'invoice.paid', customerId: 'cus_f', subscriptionId: 'sub_f' });
    await within(async () => (await post(0)).statusCode !== 403, 'the end of the suspension at ingestion');
  });
});
