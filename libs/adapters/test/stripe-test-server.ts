/**
 * A local Stripe-compatible HTTP server (node:http) for tests and local runs: the Stripe adapter is pointed
 * at it with STRIPE_API_BASE, so the real `stripe` client code runs. It records every API request (method,
 * path, form parameters, headers) and answers the calls Skald makes in Stripe's API shapes:
 *   POST /v1/customers, POST /v1/checkout/sessions, POST /v1/billing_portal/sessions,
 *   GET /v1/subscriptions/{id} (subscriptions put there by the test with `putSubscription`).
 * The checkout and portal URLs it answers point back at itself (GET /checkout/{id}, /portal/{id}: a small
 * HTML page), so a browser test can land on them. `signedWebhook` builds Stripe-shaped events signed as
 * Stripe signs them (stripe.webhooks.generateTestHeaderString).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface RecordedStripeRequest {
  readonly method: string;
  readonly path: string;
  /** Form parameters as sent, bracket keys flat: `line_items[0][price]`, `metadata[serverId]`. */
  readonly params: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
}

/** A subscription as the test wants Stripe to hold it. */
export interface TestSubscription {
  readonly id: string;
  readonly customerId: string;
  readonly status: string;
  readonly priceId: string;
  readonly serverId: string | null;
  readonly cancelAtPeriodEnd?: boolean;
  /** Epoch seconds. */
  readonly currentPeriodEnd?: number;
}

export type TestWebhookEvent =
  | { readonly type: 'checkout.session.completed'; readonly serverId: string; readonly customerId: string; readonly subscriptionId: string }
  | { readonly type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted'; readonly subscription: TestSubscription }
  | { readonly type: 'invoice.paid' | 'invoice.payment_failed'; readonly customerId: string; readonly subscriptionId: string }
  | { readonly type: string; readonly object?: Record<string, unknown> };

export interface SignOptions {
  readonly id?: string;
  /** Event `created` (epoch seconds); default now. */
  readonly created?: number;
  /** Signature timestamp (epoch seconds); default now. */
  readonly timestamp?: number;
  /** Default the server's webhook secret. */
  readonly secret?: string;
}

export interface StripeTestServer {
  /** http://127.0.0.1:<port>, the value for STRIPE_API_BASE. */
  readonly url: string;
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly requests: readonly RecordedStripeRequest[];
  putSubscription(subscription: TestSubscription): void;
  /** The Stripe-shaped subscription object (as GET /v1/subscriptions/{id} answers it). */
  subscriptionObject(subscription: TestSubscription): Record<string, unknown>;
  signedWebhook(event: TestWebhookEvent, options?: SignOptions): { body: Buffer; signature: string; id: string };
  close(): Promise<void>;
}

let eventSeq = 0;

function flatten(body: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) params[key] = value;
  return params;
}

function nested(params: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const match = key.startsWith(`${prefix}[`) && /^[^[]+\[([^\]]+)\]$/.exec(key);
    if (match) out[match[1]!] = value;
  }
  return out;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeTestServer(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<StripeTestServer> {
  const secretKey = options.secretKey ?? 'sk_test_skald_local';
  const webhookSecret = options.webhookSecret ?? 'whsec_skald_local_test_secret';
  const requests: RecordedStripeRequest[] = [];
  const subscriptions = new Map<string, TestSubscription>();
  let seq = 0;
  let base = '';
  const stripe = new Stripe(secretKey);

  const subscriptionObject = (s: TestSubscription): Record<string, unknown> => ({
    id: s.id,
    object: 'subscription',
    customer: s.customerId,
    status: s.status,
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    metadata: s.serverId ? { serverId: s.serverId } : {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${s.id}`,
          object: 'subscription_item',
          price: { id: s.priceId, object: 'price', recurring: { interval: 'month' } },
          quantity: 1,
          current_period_end: s.currentPeriodEnd ?? Math.floor(Date.now() / 1000) + 30 * 86400,
        },
      ],
    },
  });

  const send = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++seq}` });
    response.end(JSON.stringify(body));
  };
  const notFound = (response: ServerResponse, what: string): void =>
    send(response, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const body = await readBody(request);
      if (!url.pathname.startsWith('/v1/')) {
        // The hosted pages the answered URLs lead to (a browser test lands here).
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(`<!doctype html><html><head><title>Stripe test page</title></head><body><h1>Stripe test ${url.pathname}</h1></body></html>`);
        return;
      }
      const params = { ...flatten(url.search.slice(1)), ...flatten(body) };
      requests.push({ method: request.method ?? 'GET', path: url.pathname, params, headers: request.headers });
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        send(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
        return;
      }
      const id = ++seq;
      if (request.method === 'POST' && url.pathname === '/v1/customers') {
        send(response, 200, { id: `cus_test_${id}`, object: 'customer', name: params['name'] ?? null, email: params['email'] ?? null, metadata: nested(params, 'metadata') });
        return;
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const sessionId = `cs_test_${id}`;
        send(response, 200, {
          id: sessionId,
          object: 'checkout.session',
          mode: params['mode'] ?? 'payment',
          customer: params['customer'] ?? null,
          client_reference_id: params['client_reference_id'] ?? null,
          metadata: nested(params, 'metadata'),
          success_url: params['success_url'] ?? null,
          cancel_url: params['cancel_url'] ?? null,
          status: 'open',
          url: `${base}/checkout/${sessionId}`,
        });
        return;
      }
      if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        const sessionId = `bps_test_${id}`;
        send(response, 200, {
          id: sessionId,
          object: 'billing_portal.session',
          customer: params['customer'] ?? null,
          return_url: params['return_url'] ?? null,
          url: `${base}/portal/${sessionId}`,
        });
        return;
      }
      const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && sub) {
        const found = subscriptions.get(decodeURIComponent(sub[1]!));
        if (found) send(response, 200, subscriptionObject(found));
        else notFound(response, `subscription: '${sub[1]}'`);
        return;
      }
      notFound(response, `route ${request.method} ${url.pathname}`);
    })().catch((error: unknown) => send(response, 500, { error: { type: 'api_error', message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const eventObject = (event: TestWebhookEvent): Record<string, unknown> => {
    if ('subscription' in event && typeof event.subscription === 'object') return subscriptionObject(event.subscription);
    if (event.type === 'checkout.session.completed' && 'serverId' in event) {
      return {
        id: `cs_test_done_${++seq}`,
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: event.serverId,
        metadata: { serverId: event.serverId },
        customer: event.customerId,
        subscription: event.subscriptionId,
        status: 'complete',
        payment_status: 'paid',
      };
    }
    if ((event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') && 'customerId' in event) {
      return {
        id: `in_test_${++seq}`,
        object: 'invoice',
        customer: event.customerId,
        parent: { type: 'subscription_details', subscription_details: { subscription: event.subscriptionId, metadata: {} } },
        status: event.type === 'invoice.paid' ? 'paid' : 'open',
      };
    }
    return 'object' in event && event.object ? event.object : {};
  };

  return {
    url: base,
    secretKey,
    webhookSecret,
    requests,
    putSubscription(subscription) {
      subscriptions.set(subscription.id, subscription);
    },
    subscriptionObject,
    signedWebhook(event, signOptions = {}) {
      const id = signOptions.id ?? `evt_test_${Date.now()}_${++eventSeq}`;
      const now = Math.floor(Date.now() / 1000);
      const payload = JSON.stringify({
        id,
        object: 'event',
        api_version: '2025-10-29.clover',
        created: signOptions.created ?? now,
        livemode: false,
        pending_webhooks: 1,
        type: event.type,
        data: { object: eventObject(event) },
      });
      const signature = stripe.webhooks.generateTestHeaderString({
        payload,
        secret: signOptions.secret ?? webhookSecret,
        timestamp: signOptions.timestamp ?? now,
      });
      return { body: Buffer.from(payload, 'utf8'), signature, id };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
