/**
 * The Payments port on the official `stripe` client. STRIPE_API_BASE (apiBase) points the client at another
 * Stripe-compatible host (stripe-mock, the local test server): same client code, same requests.
 */
import Stripe from 'stripe';
import { TIER_KEYS } from '@skald/contracts';
import type { TierKey } from '@skald/contracts';
import { WebhookVerificationError } from '@skald/ports';
import type { CheckoutRequest, PaymentEvent, PaymentSubscription, Payments } from '@skald/ports';

export interface StripePaymentsConfig {
  readonly secretKey: string;
  readonly webhookSecret?: string;
  /** Price id per paid tier (STRIPE_PRICE_<TIER>); a tier without one cannot be bought. */
  readonly prices: Readonly<Partial<Record<TierKey, string>>>;
  /** e.g. http://127.0.0.1:12111; default Stripe's own API. */
  readonly apiBase?: string;
  /** Webhook timestamp tolerance in seconds; default 300 (Stripe's). */
  readonly webhookToleranceSeconds?: number;
  /** Network retries of the client; default 2. */
  readonly maxNetworkRetries?: number;
}

type StripeClient = InstanceType<typeof Stripe>;

function hostOptions(apiBase: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

const idOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') return (value as { id: string }).id;
  return null;
};

export class StripePayments implements Payments {
  private readonly stripe: StripeClient;
  private readonly tierByPrice = new Map<string, TierKey>();
  private readonly config: StripePaymentsConfig;
  readonly webhooksEnabled: boolean;

  constructor(config: StripePaymentsConfig) {
    this.config = config;
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: config.maxNetworkRetries ?? 2,
      timeout: 20_000,
      appInfo: { name: 'Skald' },
      ...hostOptions(config.apiBase),
    });
    for (const tier of TIER_KEYS) {
      const price = config.prices[tier];
      if (price) this.tierByPrice.set(price, tier);
    }
    this.webhooksEnabled = Boolean(config.webhookSecret);
  }

  priceOf(tier: string): string | null {
    if (tier === 'free') return null;
    return (TIER_KEYS as readonly string[]).includes(tier) ? (this.config.prices[tier as TierKey] ?? null) : null;
  }

  async createCustomer(request: { readonly serverId: string; readonly name: string }): Promise<{ customerId: string }> {
    const customer = await this.stripe.customers.create(
      { name: request.name, metadata: { serverId: request.serverId } },
      { idempotencyKey: `skald-customer-${request.serverId}` },
    );
    return { customerId: customer.id };
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }> {
    const price = this.priceOf(request.tier);
    if (!price) throw new Error(`no price configured for tier ${request.tier}`);
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: request.customerId,
      client_reference_id: request.serverId,
      line_items: [{ price, quantity: 1 }],
      metadata: { serverId: request.serverId, tier: request.tier },
      subscription_data: { metadata: { serverId: request.serverId, tier: request.tier } },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
    if (!session.url) throw new Error('the checkout session has no url');
    return { id: session.id, url: session.url };
  }

  async createPortalSession(request: { readonly customerId: string; readonly returnUrl: string }): Promise<{ url: string }> {
    const session = await this.stripe.billingPortal.sessions.create({ customer: request.customerId, return_url: request.returnUrl });
    return { url: session.url };
  }

  async retrieveSubscription(subscriptionId: string): Promise<PaymentSubscription | null> {
    try {
      return this.subscriptionOf(await this.stripe.subscriptions.retrieve(subscriptionId));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return null;
      throw error;
    }
  }

  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
    const secret = this.config.webhookSecret;
    if (!secret) throw new WebhookVerificationError('no webhook secret configured');
    if (!signatureHeader) throw new WebhookVerificationError('missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, this.config.webhookToleranceSeconds ?? 300);
    } catch (error) {
      throw new WebhookVerificationError((error as Error).message);
    }
    const base = { id: event.id, type: event.type, created: event.created };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        return {
          ...base,
          kind: 'checkout-completed',
          serverId: session.metadata?.['serverId'] ?? session.client_reference_id ?? null,
          customerId: idOf(session.customer),
          subscriptionId: idOf(session.subscription),
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return { ...base, kind: 'subscription', subscription: this.subscriptionOf(event.data.object) };
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object as Stripe.Invoice & { subscription?: unknown };
        const subscriptionId =
          idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription) ?? null;
        return { ...base, kind: 'invoice', paid: event.type === 'invoice.paid', customerId: idOf(invoice.customer), subscriptionId };
      }
      default:
        return { ...base, kind: 'ignored' };
    }
  }

  private subscriptionOf(sub: Stripe.Subscription): PaymentSubscription {
    const item = sub.items?.data?.[0];
    const priceId = item?.price?.id ?? null;
    const periodEnd = item?.current_period_end ?? (sub as { current_period_end?: number }).current_period_end ?? null;
    return {
      id: sub.id,
      customerId: idOf(sub.customer),
      status: sub.status,
      tier: priceId ? (this.tierByPrice.get(priceId) ?? null) : null,
      serverId: sub.metadata?.['serverId'] ?? null,
      cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end) || (sub.cancel_at !== null && sub.cancel_at !== undefined),
      currentPeriodEnd: typeof periodEnd === 'number' ? periodEnd * 1000 : null,
    };
  }
}
