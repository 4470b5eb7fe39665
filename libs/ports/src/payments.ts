/** Payments port (billing service). Adapters: Stripe and a local fake for all-in-one. */

export interface CheckoutRequest {
  readonly serverId: string;
  readonly tier: string;
  readonly customerEmail: string;
  readonly successUrl: string;
  readonly cancelUrl: string;
}

export interface Payments {
  createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }>;
  createPortalSession(request: { readonly customerId: string; readonly returnUrl: string }): Promise<{ url: string }>;
}
