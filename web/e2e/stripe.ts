// The local Stripe-compatible test server for the walkthrough, run as its own process
// (libs/adapters/test/stripe-test-server-process.ts: the web project imports only the contracts, so it is
// driven over stdin/stdout instead of imported). The all-in-one under test points STRIPE_API_BASE at it:
// checkout lands on its pages, and the webhooks the walkthrough sends are signed with its secret.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TIERS } from '@skald/contracts';
import { expect } from 'vitest';
import { waitFor, type WalkthroughApi } from './api.ts';
import { REPO_ROOT } from './server.ts';

export interface StripeSubscription {
  id: string;
  customerId: string;
  status: string;
  priceId: string;
  serverId: string | null;
  cancelAtPeriodEnd?: boolean;
}

export type StripeEvent =
  | { type: 'checkout.session.completed'; serverId: string; customerId: string; subscriptionId: string }
  | { type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted'; subscription: StripeSubscription }
  | { type: 'invoice.paid' | 'invoice.payment_failed'; customerId: string; subscriptionId: string };

export interface StripeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
}

export interface StripeTestProcess {
  url: string;
  secretKey: string;
  webhookSecret: string;
  putSubscription(subscription: StripeSubscription): Promise<void>;
  /** A Stripe-shaped event and its Stripe-Signature header, signed as Stripe signs them. */
  sign(event: StripeEvent): Promise<{ body: string; signature: string }>;
  requests(): Promise<StripeRequest[]>;
  stop(): Promise<void>;
}

export async function startStripeTestProcess(): Promise<StripeTestProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'libs', 'adapters', 'test', 'stripe-test-server-process.ts')], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const waiting = new Map<number, (value: Record<string, unknown>) => void>();
  let first: ((value: Record<string, unknown>) => void) | null = null;
  const started = new Promise<Record<string, unknown>>((resolve, reject) => {
    first = resolve;
    child.once('exit', (code) => reject(new Error(`the Stripe test server exited with ${code}: ${errors.slice(-2000)}`)));
  });
  lines.on('line', (line) => {
    const value = JSON.parse(line) as Record<string, unknown>;
    if (first) {
      first(value);
      first = null;
      return;
    }
    const id = typeof value.id === 'number' ? value.id : -1;
    waiting.get(id)?.(value);
    waiting.delete(id);
  });
  const hello = await started;
  let seq = 0;
  const ask = (command: Record<string, unknown>): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve);
      child.stdin!.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  return {
    url: String(hello.url),
    secretKey: String(hello.secretKey),
    webhookSecret: String(hello.webhookSecret),
    async putSubscription(subscription) {
      await ask({ op: 'put', subscription });
    },
    async sign(event) {
      const answer = await ask({ op: 'sign', event });
      return { body: String(answer.body), signature: String(answer.signature) };
    },
    async requests() {
      return (await ask({ op: 'requests' })).requests as StripeRequest[];
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The STRIPE_* settings of an all-in-one billing through this test server: each paid tier's price is `price_<tier>`. */
export function stripeSettings(stripe: StripeTestProcess): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    ...Object.fromEntries(TIERS.filter((t) => t.price > 0).map((t) => [`STRIPE_PRICE_${t.key.toUpperCase()}`, `price_${t.key}`])),
  };
}

/**
 * Puts a server on a paid tier the way production does, without the screens: billing's checkout for the
 * owner, then the subscription Stripe would hold and its signed `customer.subscription.updated` webhook.
 * The caller waits for the service it walks (webhooks, backups) to see the tier.
 */
export async function subscribeServer(api: WalkthroughApi, stripe: StripeTestProcess, { token, serverId, tier }: { token: string; serverId: string; tier: string }): Promise<void> {
  await waitFor(async () => (await api.call('GET', `/tiers/current-tier/${serverId}`, { token })).status === 200, 'billing to know the server');
  await api.ok('POST', '/billing/create-checkout-session', { token, body: { serverId, tier } });
  const checkout = (await stripe.requests()).find((r) => r.path === '/v1/checkout/sessions' && r.params['metadata[serverId]'] === serverId);
  expect(checkout, `a checkout session for ${serverId}`).toBeDefined();
  const subscription = { id: `sub_${tier}_${serverId}`, customerId: checkout!.params['customer']!, status: 'active', priceId: `price_${tier}`, serverId };
  await stripe.putSubscription(subscription);
  const signed = await stripe.sign({ type: 'customer.subscription.updated', subscription });
  const hook = await fetch(`${api.baseUrl}/api/billing/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signed.signature }, body: signed.body });
  expect(hook.status, `POST /api/billing/webhook answered ${hook.status}: ${await hook.clone().text()}`).toBe(200);
}
