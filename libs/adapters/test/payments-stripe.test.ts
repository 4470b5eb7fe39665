/**
 * The Stripe adapter (the real `stripe` client) against the local Stripe-compatible test server, through
 * STRIPE_API_BASE's host/port/protocol: the Payments contract, plus what only this adapter shows.
 */
import { describe, expect, it } from 'vitest';
import { paymentsContract } from '@skald/ports/contract/payments.contract.ts';
import type { ContractSubscription, ContractWebhook } from '@skald/ports/contract/payments.contract.ts';
import { WebhookVerificationError } from '@skald/ports';
import { loadConfig } from '@skald/config';
import { createPaymentsFromConfig, paymentsConfig } from '../src/from-config.ts';
import { createPayments } from '../src/payments/index.ts';
import { startStripeTestServer } from './stripe-test-server.ts';
import type { StripeTestServer, TestSubscription, TestWebhookEvent } from './stripe-test-server.ts';

const PRICES = { starter: 'price_starter_test', pro: 'price_pro_test' } as const;

function toTest(sub: ContractSubscription): TestSubscription {
  return {
    id: sub.id,
    customerId: sub.customerId,
    status: sub.status,
    priceId: PRICES[sub.tier as keyof typeof PRICES] ?? `price_${sub.tier}`,
    serverId: sub.serverId,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    ...(sub.currentPeriodEnd === null ? {} : { currentPeriodEnd: Math.floor(sub.currentPeriodEnd / 1000) }),
  };
}

function toTestEvent(event: ContractWebhook): TestWebhookEvent {
  return 'subscription' in event ? { type: event.type, subscription: toTest(event.subscription) } : event;
}

paymentsContract('stripe (local Stripe-compatible server)', async () => {
  const server = await startStripeTestServer();
  const adapter = (await createPayments({ kind: 'stripe', secretKey: server.secretKey, webhookSecret: server.webhookSecret, prices: PRICES, apiBase: server.url, maxNetworkRetries: 0 }))!;
  const posted = (path: string) => server.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.params);
  return {
    adapter,
    prices: PRICES,
    customers: async () => posted('/v1/customers').map((p) => ({ serverId: p['metadata[serverId]'] ?? null, name: p['name'] ?? null })),
    checkouts: async () =>
      posted('/v1/checkout/sessions').map((p) => ({
        mode: p['mode'] ?? null,
        price: p['line_items[0][price]'] ?? null,
        quantity: p['line_items[0][quantity]'] ?? null,
        customer: p['customer'] ?? null,
        clientReferenceId: p['client_reference_id'] ?? null,
        metadataServerId: p['metadata[serverId]'] ?? null,
        subscriptionMetadataServerId: p['subscription_data[metadata][serverId]'] ?? null,
        successUrl: p['success_url'] ?? null,
        cancelUrl: p['cancel_url'] ?? null,
      })),
    portals: async () => posted('/v1/billing_portal/sessions').map((p) => ({ customer: p['customer'] ?? null, returnUrl: p['return_url'] ?? null })),
    putSubscription: async (sub) => server.putSubscription(toTest(sub)),
    signedWebhook: (event, options = {}) =>
      server.signedWebhook(toTestEvent(event), {
        ...(options.id ? { id: options.id } : {}),
        ...(options.timestamp ? { timestamp: options.timestamp } : {}),
        ...(options.wrongSecret ? { secret: 'whsec_forged' } : {}),
      }),
    cleanup: () => server.close(),
  };
});

describe('Stripe adapter specifics', () => {
  async function withServer<T>(fn: (server: StripeTestServer) => Promise<T>): Promise<T> {
    const server = await startStripeTestServer();
    try {
      return await fn(server);
    } finally {
      await server.close();
    }
  }

  it('sends the secret key as the bearer token to the STRIPE_API_BASE host', () =>
    withServer(async (server) => {
      const adapter = (await createPayments({ kind: 'stripe', secretKey: server.secretKey, prices: PRICES, apiBase: server.url, maxNetworkRetries: 0 }))!;
      await adapter.createPortalSession({ customerId: 'cus_1', returnUrl: 'https://skald.example/billing' });
      expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${server.secretKey}`);
    }));

  it('a wrong secret key fails the call', () =>
    withServer(async (server) => {
      const adapter = (await createPayments({ kind: 'stripe', secretKey: 'sk_test_wrong', prices: PRICES, apiBase: server.url, maxNetworkRetries: 0 }))!;
      await expect(adapter.createPortalSession({ customerId: 'cus_1', returnUrl: 'https://skald.example/billing' })).rejects.toThrow();
    }));

  it('without a webhook secret, webhooks are disabled and refused', () =>
    withServer(async (server) => {
      const adapter = (await createPayments({ kind: 'stripe', secretKey: server.secretKey, prices: PRICES, apiBase: server.url }))!;
      expect(adapter.webhooksEnabled).toBe(false);
      const event = server.signedWebhook({ type: 'invoice.paid', customerId: 'c', subscriptionId: 's' });
      expect(() => adapter.parseWebhook(event.body, event.signature)).toThrow(WebhookVerificationError);
    }));

  it('without Stripe configured there is no adapter', async () => {
    expect(await createPayments({ kind: 'none' })).toBeNull();
  });
});

describe('payments from configuration', () => {
  it('STRIPE_* variables: the key enables it; prices per tier, the API base and the tolerance reach the adapter', async () => {
    const server = await startStripeTestServer();
    try {
      const config = loadConfig({
        STRIPE_SECRET_KEY: server.secretKey,
        STRIPE_WEBHOOK_SECRET: server.webhookSecret,
        STRIPE_API_BASE: server.url,
        STRIPE_PRICE_STARTER: 'price_s',
        STRIPE_PRICE_LEGEND: 'price_l',
        STRIPE_WEBHOOK_TOLERANCE_SECONDS: '60',
      });
      expect(paymentsConfig(config)).toEqual({
        kind: 'stripe',
        secretKey: server.secretKey,
        webhookSecret: server.webhookSecret,
        apiBase: server.url,
        webhookToleranceSeconds: 60,
        prices: { starter: 'price_s', legend: 'price_l' },
      });
      const payments = (await createPaymentsFromConfig(config))!;
      expect(payments.priceOf('legend')).toBe('price_l');
      expect(payments.priceOf('pro')).toBeNull();
      await payments.createPortalSession({ customerId: 'cus_cfg', returnUrl: 'https://skald.example/billing' });
      expect(server.requests.at(-1)!.params['customer']).toBe('cus_cfg');
      // 60 s tolerance: a signature 2 minutes old is refused.
      const old = server.signedWebhook({ type: 'invoice.paid', customerId: 'c', subscriptionId: 's' }, { timestamp: Math.floor(Date.now() / 1000) - 120 });
      expect(() => payments.parseWebhook(old.body, old.signature)).toThrow(WebhookVerificationError);
    } finally {
      await server.close();
    }
  });

  it('without STRIPE_SECRET_KEY there are no payments; a bad STRIPE_API_BASE stops start-up naming it', async () => {
    expect(paymentsConfig(loadConfig({}))).toEqual({ kind: 'none' });
    expect(await createPaymentsFromConfig(loadConfig({ STRIPE_PRICE_PRO: 'price_p' }))).toBeNull();
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
  });
});
