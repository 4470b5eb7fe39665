// Helpers of the webhooks walkthrough (issue 12): a local webhook receiver whose answer the walkthrough
// switches, and what it takes to give a fresh server a paid tier on an all-in-one of its own: Stripe's API
// answering one subscription (the billing service fetches it back) and a webhook event signed the Stripe way
// (t=<seconds>,v1=<HMAC-SHA256 of "<t>.<body>">), so billing publishes the tier as it does in production.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const STRIPE_E2E = { secretKey: 'sk_test_e2e_webhooks', webhookSecret: 'whsec_e2e_webhooks_0123456789', price: 'price_e2e_starter' } as const;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

export interface LocalReceiver {
  readonly url: string;
  /** Bodies received so far (parsed JSON). */
  readonly bodies: Record<string, unknown>[];
  status: number;
  close(): Promise<void>;
}

export async function startLocalReceiver(): Promise<LocalReceiver> {
  const receiver = { bodies: [] as Record<string, unknown>[], status: 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>);
      res.writeHead(receiver.status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await listen(server);
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/api/webhooks/e2e/receiver`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

function subscription(serverId: string): Record<string, unknown> {
  return {
    id: 'sub_e2e_webhooks',
    object: 'subscription',
    customer: 'cus_e2e_webhooks',
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    metadata: { serverId },
    items: { object: 'list', data: [{ id: 'si_e2e', object: 'subscription_item', price: { id: STRIPE_E2E.price, object: 'price' }, quantity: 1, current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400 }] },
  };
}

/** Stripe's API as far as billing asks it here: GET /v1/subscriptions/{id} answers the active subscription of `serverId`. */
export async function startStripeApi(): Promise<{ url: string; serve(serverId: string): void; close(): Promise<void> }> {
  let serverId: string | null = null;
  const server = createServer((req, res) => {
    const found = req.method === 'GET' && req.url?.startsWith('/v1/subscriptions/sub_e2e_webhooks') && serverId !== null;
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json', 'request-id': 'req_e2e' });
    res.end(JSON.stringify(found ? subscription(serverId!) : { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } }));
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    serve(id) {
      serverId = id;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A `customer.subscription.updated` event for the server's subscription, with its Stripe-Signature header. */
export function signedSubscriptionEvent(serverId: string): { body: string; signature: string } {
  const created = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id: `evt_e2e_${created}`, object: 'event', type: 'customer.subscription.updated', created, livemode: false, data: { object: subscription(serverId) } });
  const v1 = createHmac('sha256', STRIPE_E2E.webhookSecret).update(`${created}.${body}`).digest('hex');
  return { body, signature: `t=${created},v1=${v1}` };
}
