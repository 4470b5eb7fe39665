/**
 * Payments port (billing service). The one real adapter is Stripe (libs/adapters/src/payments),
 * pointed at Stripe itself or at any Stripe-compatible host (stripe-mock, the local test server of
 * libs/adapters/test). Without Stripe configured there is no adapter and billing answers 503 for checkout
 * and portal. The domain sees Skald's words (server id, tier key), never Stripe's objects: the adapter maps
 * prices to tiers and Stripe events to PaymentEvent.
 */

export interface CheckoutRequest {
  readonly serverId: string;
  /** A tier key with a configured price (see `priceOf`). */
  readonly tier: string;
  /** The server's payment customer (createCustomer). */
  readonly customerId: string;
  readonly successUrl: string;
  readonly cancelUrl: string;
}

/** A subscription as the payment provider holds it now. */
export interface PaymentSubscription {
  readonly id: string;
  readonly customerId: string | null;
  /** The provider's status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  readonly status: string;
  /** The tier its price belongs to, or null for a price no tier has. */
  readonly tier: string | null;
  /** From the subscription's metadata (set at checkout), or null. */
  readonly serverId: string | null;
  readonly cancelAtPeriodEnd: boolean;
  /** Epoch ms when the current period ends, or null. */
  readonly currentPeriodEnd: number | null;
}

interface PaymentEventBase {
  /** The provider's event id (evt_…): each is applied once. */
  readonly id: string;
  /** The provider's event type, e.g. 'customer.subscription.updated'. */
  readonly type: string;
  /** Epoch seconds when the provider created the event. */
  readonly created: number;
}

export type PaymentEvent = PaymentEventBase &
  (
    | { readonly kind: 'checkout-completed'; readonly serverId: string | null; readonly customerId: string | null; readonly subscriptionId: string | null }
    | { readonly kind: 'subscription'; readonly subscription: PaymentSubscription }
    | { readonly kind: 'invoice'; readonly paid: boolean; readonly customerId: string | null; readonly subscriptionId: string | null }
    | { readonly kind: 'ignored' }
  );

/** A webhook whose signature, timestamp or body does not verify. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface Payments {
  /** The configured price of a tier, or null (free, or a paid tier nobody set a price for: it cannot be bought). */
  priceOf(tier: string): string | null;
  /** True when a webhook secret is configured (POST /billing/webhook answers 503 otherwise). */
  readonly webhooksEnabled: boolean;
  /** A customer for the server (its id in the customer's metadata). */
  createCustomer(request: { readonly serverId: string; readonly name: string }): Promise<{ customerId: string }>;
  /** A hosted checkout page for a monthly subscription; the server id in metadata and client_reference_id. */
  createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  createPortalSession(request: { readonly customerId: string; readonly returnUrl: string }): Promise<{ url: string }>;
  /** The subscription as the provider holds it now, or null when it does not know the id. */
  retrieveSubscription(subscriptionId: string): Promise<PaymentSubscription | null>;
  /**
   * Verifies a webhook on its RAW body (signature with the webhook secret, timestamp within the tolerance)
   * and maps it. Throws WebhookVerificationError when it does not verify.
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
}
