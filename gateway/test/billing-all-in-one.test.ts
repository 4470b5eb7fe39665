/**
 * Billing in the all-in-one process, configured with STRIPE_* variables and pointed at the local
 * Stripe-compatible test server through STRIPE_API_BASE: checkout through /api lands on the test server's
 * checkout URL, a webhook signed over the raw body passes the gateway untouched and its tier reaches
 * ingestion's quota, and a body changed after signing is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeTestServer } from '@skald/adapters/stripe-test-server';
import type { StripeTestServer } from '@skald/adapters/stripe-test-server';
import { waitFor } from '@skald/testing';
import { bearer, startAllInOne } from './support/all-in-one.ts';
import type { AllInOne, SignedUp } from './support/all-in-one.ts';

let stripe: StripeTestServer;
let aio: AllInOne;
let owner: SignedUp;
let server: { id: string; api_key: string };

beforeAll(async () => {
  stripe = await startStripeTestServer();
  aio = await startAllInOne({
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      STRIPE_PRICE_STARTER: 'price_starter',
      PUBLIC_URL: 'https://skald.example',
    },
  });
  owner = await aio.signUp('billing_owner');
  server = await aio.createServer(owner.token, 'Billing AIO');
  await waitFor(
    async () => (await aio.inject({ method: 'GET', url: `/api/tiers/current-tier/${server.id}`, headers: bearer(owner.token) })).statusCode === 200,
    'billing knows the server',
  );
});

afterAll(async () => {
  await aio?.close();
  await stripe?.close();
});

const postLogs = (count: number) =>
  aio.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': server.api_key }, payload: Array.from({ length: count }, () => ({ message: 'q' })) });

describe('billing in the all-in-one', () => {
  it('GET /api/tiers is public and lists 8 tiers; the OpenAPI document has the billing routes', async () => {
    expect((await aio.inject({ method: 'GET', url: '/api/tiers' })).json()).toHaveLength(8);
    const paths = Object.keys((await aio.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: object }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/tiers', '/api/tiers/current-tier/{serverId}', '/api/billing/create-checkout-session', '/api/billing/create-portal-session', '/api/billing/webhook']),
    );
  });

  it('the staff tier and suspension calls are billing routes under /api: anonymous 401, a plain user 403, nothing changed', async () => {
    const paths = Object.keys((await aio.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: object }>().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/admin/servers/{id}/tier', '/api/admin/servers/{id}/suspend']));
    expect((await aio.inject({ method: 'PUT', url: `/api/admin/servers/${server.id}/tier`, payload: { tier: 'legend' } })).statusCode).toBe(401);
    expect((await aio.inject({ method: 'PUT', url: `/api/admin/servers/${server.id}/tier`, headers: bearer(owner.token), payload: { tier: 'legend' } })).statusCode).toBe(403);
    expect((await aio.inject({ method: 'PUT', url: `/api/admin/servers/${server.id}/suspend`, headers: bearer(owner.token), payload: { suspended: true } })).statusCode).toBe(403);
    expect((await aio.inject({ method: 'GET', url: `/api/tiers/current-tier/${server.id}`, headers: bearer(owner.token) })).json().tierKey).not.toBe('legend');
  });

  it('checkout lands on the test server; the signed webhook passes the gateway raw; ingestion follows', async () => {
    const checkout = await aio.inject({ method: 'POST', url: '/api/billing/create-checkout-session', headers: bearer(owner.token), payload: { serverId: server.id, tier: 'starter' } });
    expect(checkout.statusCode).toBe(200);
    expect(checkout.json().url).toMatch(new RegExp(`^${stripe.url}/checkout/`));
    const sent = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!.params;
    expect(sent).toMatchObject({ success_url: 'https://skald.example/billing?success=true', cancel_url: 'https://skald.example/billing?canceled=true', client_reference_id: server.id });

    expect((await postLogs(1000)).statusCode).toBe(201);
    expect((await postLogs(1)).statusCode).toBe(429);

    const customerId = sent['customer']!;
    stripe.putSubscription({ id: 'sub_aio', customerId, status: 'active', priceId: 'price_starter', serverId: server.id });
    const signed = stripe.signedWebhook({ type: 'checkout.session.completed', serverId: server.id, customerId, subscriptionId: 'sub_aio' });
    const headers = { 'content-type': 'application/json', 'stripe-signature': signed.signature };
    const changed = Buffer.from(signed.body.toString('utf8').replace('"complete"', '"open"'), 'utf8');
    expect((await aio.inject({ method: 'POST', url: '/api/billing/webhook', headers, payload: changed })).statusCode).toBe(400);
    const ok = await aio.inject({ method: 'POST', url: '/api/billing/webhook', headers, payload: signed.body });
    expect(ok.statusCode).toBe(200);

    const current = await aio.inject({ method: 'GET', url: `/api/tiers/current-tier/${server.id}`, headers: bearer(owner.token) });
    expect(current.json()).toEqual({ tierKey: 'starter', stripeSubscriptionId: 'sub_aio', subscriptionStatus: 'active', is_cancelling: false });
    await waitFor(async () => (await postLogs(1)).statusCode === 201, "ingestion's starter quota");

    const portal = await aio.inject({ method: 'POST', url: '/api/billing/create-portal-session', headers: bearer(owner.token), payload: { serverId: server.id } });
    expect(portal.statusCode).toBe(200);
    expect(portal.json().url).toMatch(new RegExp(`^${stripe.url}/portal/`));
  });
});
