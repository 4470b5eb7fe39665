/** The billing service over the real Stripe adapter pointed at the local Stripe-compatible test server. */
import { createPayments } from '@skald/adapters';
import { startStripeTestServer } from '@skald/adapters/stripe-test-server';
import type { StripeTestServer } from '@skald/adapters/stripe-test-server';
import type { TierKey } from '@skald/contracts';
import type { Payments } from '@skald/ports';

/** Prices for every paid tier except 'lite' (a paid tier without a price). */
export const PRICES: Partial<Record<TierKey, string>> = {
  starter: 'price_starter',
  explorer: 'price_explorer',
  voyager: 'price_voyager',
  pioneer: 'price_pioneer',
  pro: 'price_pro',
  legend: 'price_legend',
};

export async function stripeFixture(options: { toleranceSeconds?: number } = {}): Promise<{ server: StripeTestServer; payments: Payments }> {
  const server = await startStripeTestServer();
  const payments = await createPayments({
    kind: 'stripe',
    secretKey: server.secretKey,
    webhookSecret: server.webhookSecret,
    apiBase: server.url,
    prices: PRICES,
    maxNetworkRetries: 0,
    ...(options.toleranceSeconds ? { webhookToleranceSeconds: options.toleranceSeconds } : {}),
  });
  return { server, payments: payments! };
}
