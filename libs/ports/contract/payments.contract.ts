/**
 * Behaviour every Payments adapter must show. The harness is the provider's side: what it
 * received (customers, checkout and portal sessions), subscriptions it holds, and webhooks signed as the
 * provider signs them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../src/payments.ts';
import type { Payments, PaymentSubscription } from '../src/payments.ts';

export interface RecordedCheckout {
  readonly mode: string | null;
  readonly price: string | null;
  readonly quantity: string | null;
  readonly customer: string | null;
  readonly clientReferenceId: string | null;
  readonly metadataServerId: string | null;
  readonly subscriptionMetadataServerId: string | null;
  readonly successUrl: string | null;
  readonly cancelUrl: string | null;
}

export type ContractSubscription = Omit<PaymentSubscription, 'tier' | 'customerId'> & { readonly tier: string; readonly customerId: string };

export type ContractWebhook =
  | { readonly type: 'checkout.session.completed'; readonly serverId: string; readonly customerId: string; readonly subscriptionId: string }
  | { readonly type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted'; readonly subscription: ContractSubscription }
  | { readonly type: 'invoice.paid' | 'invoice.payment_failed'; readonly customerId: string; readonly subscriptionId: string }
  | { readonly type: 'charge.refunded' };

export interface PaymentsHarness {
  /** Configured with a price for 'starter' and 'pro' only, and a webhook secret. */
  readonly adapter: Payments;
  readonly prices: { readonly starter: string; readonly pro: string };
  customers(): Promise<{ serverId: string | null; name: string | null }[]>;
  checkouts(): Promise<RecordedCheckout[]>;
  portals(): Promise<{ customer: string | null; returnUrl: string | null }[]>;
  putSubscription(subscription: ContractSubscription): Promise<void>;
  signedWebhook(event: ContractWebhook, options?: { id?: string; timestamp?: number; wrongSecret?: boolean }): { body: Buffer; signature: string; id: string };
  cleanup(): Promise<void>;
}

export function paymentsContract(name: string, makeHarness: () => Promise<PaymentsHarness>): void {
  describe(`Payments contract: ${name}`, () => {
    let h: PaymentsHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.cleanup();
    });

    it('prices: configured paid tiers only (free, an unpriced paid tier and unknown keys have none)', () => {
      expect(h.adapter.priceOf('starter')).toBe(h.prices.starter);
      expect(h.adapter.priceOf('pro')).toBe(h.prices.pro);
      expect(h.adapter.priceOf('free')).toBeNull();
      expect(h.adapter.priceOf('lite')).toBeNull();
      expect(h.adapter.priceOf('gold')).toBeNull();
      expect(h.adapter.webhooksEnabled).toBe(true);
    });

    it('creates a customer carrying the server id', async () => {
      const { customerId } = await h.adapter.createCustomer({ serverId: 'srv-c1', name: 'My server' });
      expect(customerId).toMatch(/\S/);
      expect(await h.customers()).toContainEqual({ serverId: 'srv-c1', name: 'My server' });
    });

    it('checkout: a monthly subscription for the tier price, server id in metadata and client_reference_id, both return URLs, the customer', async () => {
      const { url, id } = await h.adapter.createCheckoutSession({
        serverId: 'srv-k1',
        tier: 'pro',
        customerId: 'cus_k1',
        successUrl: 'https://skald.example/billing?success=true',
        cancelUrl: 'https://skald.example/billing?canceled=true',
      });
      expect(url).toMatch(/^https?:\/\//);
      expect(id).toMatch(/\S/);
      const last = (await h.checkouts()).at(-1);
      expect(last).toEqual({
        mode: 'subscription',
        price: h.prices.pro,
        quantity: '1',
        customer: 'cus_k1',
        clientReferenceId: 'srv-k1',
        metadataServerId: 'srv-k1',
        subscriptionMetadataServerId: 'srv-k1',
        successUrl: 'https://skald.example/billing?success=true',
        cancelUrl: 'https://skald.example/billing?canceled=true',
      });
    });

    it('checkout of a tier without a price is refused before reaching the provider', async () => {
      const before = (await h.checkouts()).length;
      await expect(
        h.adapter.createCheckoutSession({ serverId: 's', tier: 'lite', customerId: 'cus_x', successUrl: 'https://a/b', cancelUrl: 'https://a/c' }),
      ).rejects.toThrow();
      expect((await h.checkouts()).length).toBe(before);
    });

    it('portal: a session for the customer returning to the given URL', async () => {
      const { url } = await h.adapter.createPortalSession({ customerId: 'cus_p1', returnUrl: 'https://skald.example/billing' });
      expect(url).toMatch(/^https?:\/\//);
      expect((await h.portals()).at(-1)).toEqual({ customer: 'cus_p1', returnUrl: 'https://skald.example/billing' });
    });

    it('retrieves a subscription as the provider holds it now, null for an unknown id', async () => {
      const sub: ContractSubscription = {
        id: 'sub_r1',
        customerId: 'cus_r1',
        status: 'active',
        tier: 'starter',
        serverId: 'srv-r1',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: Date.parse('2030-01-01T00:00:00Z'),
      };
      await h.putSubscription(sub);
      expect(await h.adapter.retrieveSubscription('sub_r1')).toEqual(sub);
      expect(await h.adapter.retrieveSubscription('sub_missing')).toBeNull();
    });

    it('webhooks: maps checkout, subscription and invoice events; other types are ignored', () => {
      const checkout = h.signedWebhook({ type: 'checkout.session.completed', serverId: 'srv-w', customerId: 'cus_w', subscriptionId: 'sub_w' });
      expect(h.adapter.parseWebhook(checkout.body, checkout.signature)).toMatchObject({
        id: checkout.id,
        type: 'checkout.session.completed',
        kind: 'checkout-completed',
        serverId: 'srv-w',
        customerId: 'cus_w',
        subscriptionId: 'sub_w',
      });
      const subscription: ContractSubscription = {
        id: 'sub_w',
        customerId: 'cus_w',
        status: 'past_due',
        tier: 'pro',
        serverId: 'srv-w',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: Date.parse('2030-02-01T00:00:00Z'),
      };
      const updated = h.signedWebhook({ type: 'customer.subscription.updated', subscription });
      expect(h.adapter.parseWebhook(updated.body, updated.signature)).toMatchObject({ kind: 'subscription', subscription });
      const failed = h.signedWebhook({ type: 'invoice.payment_failed', customerId: 'cus_w', subscriptionId: 'sub_w' });
      expect(h.adapter.parseWebhook(failed.body, failed.signature)).toMatchObject({ kind: 'invoice', paid: false, customerId: 'cus_w', subscriptionId: 'sub_w' });
      const paid = h.signedWebhook({ type: 'invoice.paid', customerId: 'cus_w', subscriptionId: 'sub_w' });
      expect(h.adapter.parseWebhook(paid.body, paid.signature)).toMatchObject({ kind: 'invoice', paid: true });
      const other = h.signedWebhook({ type: 'charge.refunded' });
      expect(h.adapter.parseWebhook(other.body, other.signature)).toMatchObject({ kind: 'ignored', type: 'charge.refunded' });
    });

    it('webhooks: a forged signature, a stale timestamp, a body changed after signing and a missing header are refused', () => {
      const event: ContractWebhook = { type: 'invoice.paid', customerId: 'cus_f', subscriptionId: 'sub_f' };
      const forged = h.signedWebhook(event, { wrongSecret: true });
      expect(() => h.adapter.parseWebhook(forged.body, forged.signature)).toThrow(WebhookVerificationError);
      const stale = h.signedWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(() => h.adapter.parseWebhook(stale.body, stale.signature)).toThrow(WebhookVerificationError);
      const good = h.signedWebhook(event);
      const changed = Buffer.from(good.body.toString('utf8').replace('cus_f', 'cus_g'), 'utf8');
      expect(() => h.adapter.parseWebhook(changed, good.signature)).toThrow(WebhookVerificationError);
      expect(() => h.adapter.parseWebhook(good.body, undefined)).toThrow(WebhookVerificationError);
      // The untouched original still verifies: the refusals above are about the changes.
      expect(h.adapter.parseWebhook(good.body, good.signature).id).toBe(good.id);
    });
  });
}
