/**
 * The local Stripe-compatible test server (stripe-test-server.ts) as its own process, for a run of Skald
 * that a test or a developer drives from outside (the browser walkthrough, web/e2e/stripe.ts; a local
 * all-in-one with STRIPE_API_BASE pointed at it):
 *
 *   node libs/adapters/test/stripe-test-server-process.ts
 *
 * It prints one JSON line `{url, secretKey, webhookSecret}` once listening, then answers JSON lines on
 * stdin, one JSON line each on stdout with the request's `id`:
 *   {id, op: 'put', subscription}   -> {id, ok: true}                 (putSubscription)
 *   {id, op: 'sign', event}         -> {id, body, signature, eventId}  (signedWebhook; body as UTF-8 text)
 *   {id, op: 'requests'}            -> {id, requests}                 (the recorded API requests)
 * It stops when stdin closes.
 */
import { createInterface } from 'node:readline';
import { startStripeTestServer } from './stripe-test-server.ts';
import type { TestSubscription, TestWebhookEvent } from './stripe-test-server.ts';

type Command =
  | { readonly id: number; readonly op: 'put'; readonly subscription: TestSubscription }
  | { readonly id: number; readonly op: 'sign'; readonly event: TestWebhookEvent }
  | { readonly id: number; readonly op: 'requests' };

const server = await startStripeTestServer();
const reply = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};
reply({ url: server.url, secretKey: server.secretKey, webhookSecret: server.webhookSecret });

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let command: Command;
  try {
    command = JSON.parse(line) as Command;
  } catch {
    reply({ error: `not JSON: ${line.slice(0, 200)}` });
    return;
  }
  switch (command.op) {
    case 'put':
      server.putSubscription(command.subscription);
      reply({ id: command.id, ok: true });
      return;
    case 'sign': {
      const signed = server.signedWebhook(command.event);
      reply({ id: command.id, body: signed.body.toString('utf8'), signature: signed.signature, eventId: signed.id });
      return;
    }
    case 'requests':
      reply({ id: command.id, requests: server.requests.map(({ method, path, params }) => ({ method, path, params })) });
      return;
    default:
      reply({ error: `unknown op in ${line.slice(0, 200)}` });
  }
});
lines.on('close', () => void server.close());
