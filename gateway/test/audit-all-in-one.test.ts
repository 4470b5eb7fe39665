/**
 * The audit trail in the all-in-one: every state-changing action the services in main offer
 * (auth: server created and renamed, API key reset, user added, role changed, user removed; logs: colours
 * saved, logs deleted, export made; billing: checkout started, subscription, tier and suspension changes
 * from Stripe) becomes exactly one entry of GET /api/server/{id}/audit-logs, with the acting user, and no
 * entry holds a secret. Billing runs against the local Stripe-compatible test server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeTestServer } from '@skald/adapters/stripe-test-server';
import type { StripeTestServer, TestWebhookEvent } from '@skald/adapters/stripe-test-server';
import type { AuditLogPage } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { TEST_PASSWORD, bearer, startAllInOne } from './support/all-in-one.ts';
import type { AllInOne, SignedUp } from './support/all-in-one.ts';

let stripe: StripeTestServer;
let aio: AllInOne;
let owner: SignedUp;
let member: SignedUp;

beforeAll(async () => {
  stripe = await startStripeTestServer();
  aio = await startAllInOne({
    logLevel: 'warn',
    env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_BASE: stripe.url, STRIPE_PRICE_STARTER: 'price_starter' },
  });
  owner = await aio.signUp('audit_owner');
  member = await aio.signUp('audit_member');
});

afterAll(async () => {
  await aio?.close();
  await stripe?.close();
});

async function ok(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object): Promise<Record<string, unknown>> {
  const res = await aio.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.headers['content-type']?.startsWith('application/json') ? (res.json() as Record<string, unknown>) : {};
}

async function webhook(event: TestWebhookEvent): Promise<void> {
  const signed = stripe.signedWebhook(event);
  const res = await aio.inject({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature }, payload: signed.body });
  expect(res.statusCode).toBe(200);
}

const until = (url: string, token: string, what: string) => waitFor(async () => (await aio.inject({ method: 'GET', url, headers: bearer(token) })).statusCode === 200, what);

describe('the audit trail in the all-in-one', () => {
  it('records each action once, with its user, and no secret', async () => {
    const server = await aio.createServer(owner.token, 'Audit AIO');
    const id = server.id;
    await until(`/api/settings/levels?serverId=${id}`, owner.token, 'logs knows the server');
    await until(`/api/tiers/current-tier/${id}`, owner.token, 'billing knows the server');
    await until(`/api/server/${id}/audit-logs`, owner.token, 'admin knows the server');

    await ok('PATCH', '/api/settings/server-name', owner.token, { serverId: id, newName: 'Audit AIO renamed' });
    const reset = await ok('POST', `/api/settings/api-key/reset?serverId=${id}`, owner.token);
    await ok('POST', '/api/manage/add-user', owner.token, { serverId: id, email: `${member.username}@example.test`, role: 'user' });
    await ok('PATCH', `/api/manage/server/${id}/users/${member.userId}`, owner.token, { role: 'admin' });
    await until(`/api/exports/status?serverId=${id}`, member.token, 'logs knows the new admin');
    await ok('PUT', `/api/settings/colors?serverId=${id}`, member.token, { info: { bg_color: '#112233', text_color: '#ffffff' } });
    await ok('DELETE', `/api/logs/cleanup?serverId=${id}&days=0`, owner.token);
    const checkout = await ok('POST', '/api/billing/create-checkout-session', owner.token, { serverId: id, tier: 'starter' });
    expect(String(checkout['url'])).toMatch(/^http/);
    const customerId = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!.params['customer']!;
    stripe.putSubscription({ id: 'sub_audit', customerId, status: 'active', priceId: 'price_starter', serverId: id });
    await webhook({ type: 'checkout.session.completed', serverId: id, customerId, subscriptionId: 'sub_audit' });
    // The same event delivered again changes nothing and records nothing.
    await webhook({ type: 'checkout.session.completed', serverId: id, customerId, subscriptionId: 'sub_audit' });
    stripe.putSubscription({ id: 'sub_audit', customerId, status: 'unpaid', priceId: 'price_starter', serverId: id });
    await webhook({ type: 'invoice.payment_failed', customerId, subscriptionId: 'sub_audit' });
    await until(`/api/exports/status?serverId=${id}`, owner.token, 'exports status');
    const csv = await aio.inject({ method: 'GET', url: `/api/exports/logs?serverId=${id}`, headers: bearer(owner.token) });
    expect(csv.statusCode).toBe(200);
    await ok('DELETE', `/api/manage/server/${id}/users/${member.userId}`, owner.token);

    const expected: [string, string][] = [
      ['server.created', owner.userId],
      ['server.renamed', owner.userId],
      ['apikey.rotated', owner.userId],
      ['membership.added', owner.userId],
      ['membership.role-changed', owner.userId],
      ['logs.colors-saved', member.userId],
      ['logs.deleted', owner.userId],
      ['billing.checkout-started', owner.userId],
      ['billing.subscription-changed', 'system'],
      ['server.tier-changed', 'system'],
      ['billing.subscription-changed', 'system'],
      ['server.suspension-changed', 'system'],
      ['export.made', owner.userId],
      ['membership.removed', owner.userId],
    ];
    let page: AuditLogPage = { logs: [], users: [], total: 0 };
    await waitFor(
      async () => {
        page = (await aio.inject({ method: 'GET', url: `/api/server/${id}/audit-logs?pageSize=100`, headers: bearer(owner.token) })).json<AuditLogPage>();
        return page.total >= expected.length && page.logs.some((l) => l.action === 'membership.removed');
      },
      'every entry in the trail',
      10_000,
    );
    // A fixed wait, kept on purpose: once every expected entry is there it proves no extra one follows; no later event signals that.
    await new Promise((resolve) => setTimeout(resolve, 200));
    page = (await aio.inject({ method: 'GET', url: `/api/server/${id}/audit-logs?pageSize=100`, headers: bearer(owner.token) })).json<AuditLogPage>();
    const chronological = [...page.logs].reverse();
    expect(chronological.map((l) => [l.action, l.user_id])).toEqual(expected);
    const byAction = (action: string) => chronological.find((l) => l.action === action)!;
    expect(byAction('server.created').user_email).toBe(`${owner.username}@example.test`);
    expect(byAction('logs.colors-saved').user_email).toBe(`${member.username}@example.test`);
    expect(byAction('server.tier-changed').details).toEqual({ from: 'free', to: 'starter' });
    expect(byAction('export.made').details).toEqual({ type: 'logs', format: 'csv' });
    expect(page.users.map((u) => u.id).sort()).toEqual([owner.userId, member.userId, 'system'].sort());

    const text = JSON.stringify(page);
    for (const secret of [server.api_key, String(reset['apiKey']), TEST_PASSWORD, owner.token, member.token, stripe.webhookSecret, stripe.secretKey]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text).not.toContain(secret);
    }
  });
});
