/** Delivering Stripe-signed webhooks to the billing service under test, and reading what it published. */
import type { StripeTestServer, TestSubscription, TestWebhookEvent, SignOptions } from '@skald/adapters/stripe-test-server';
import type { Harness } from './harness.ts';

/** As Stripe sends it: `application/json; charset=utf-8`, the Stripe-Signature header, the signed bytes. */
export async function deliver(h: Harness, stripe: StripeTestServer, event: TestWebhookEvent, options: SignOptions = {}) {
  const signed = stripe.signedWebhook(event, options);
  const res = await h.inject({
    method: 'POST',
    url: '/billing/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signed.signature },
    payload: signed.body,
  });
  return Object.assign(res, { eventId: signed.id });
}

/** The identity facts billing published for a server, oldest first: ['tier:pro', 'suspended:true', …]. */
export function publishedFacts(h: Harness, serverId: string): string[] {
  const facts: string[] = [];
  for (const message of h.published) {
    const payload = message.payload as { type?: string; data?: { serverId?: string; tier?: string; suspended?: boolean } };
    if (payload.data?.serverId !== serverId) continue;
    if (payload.type === 'server.tier-changed') facts.push(`tier:${payload.data.tier}`);
    if (payload.type === 'server.suspension-changed') facts.push(`suspended:${payload.data.suspended}`);
  }
  return facts;
}

export function subscription(overrides: Partial<TestSubscription> & { id: string }): TestSubscription {
  return { customerId: 'cus_1', status: 'active', priceId: 'price_pro', serverId: 'srv-1', cancelAtPeriodEnd: false, ...overrides };
}
