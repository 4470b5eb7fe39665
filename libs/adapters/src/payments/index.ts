/**
 * Payments factory: the Stripe adapter, or null when Stripe is not configured (billing then answers 503).
 * `stripe` is imported only when chosen, so processes without it never load the client.
 */
import type { Payments } from '@skald/ports';
import type { StripePaymentsConfig } from './stripe-payments.ts';

export type PaymentsConfig = { kind: 'none' } | ({ kind: 'stripe' } & StripePaymentsConfig);

export async function createPayments(config: PaymentsConfig): Promise<Payments | null> {
  if (config.kind === 'none') return null;
  const { StripePayments } = await import('./stripe-payments.ts');
  return new StripePayments(config);
}

export type { StripePaymentsConfig };
// Type only: a value re-export would load `stripe` for every importer of @skald/adapters.
export type { StripePayments } from './stripe-payments.ts';
