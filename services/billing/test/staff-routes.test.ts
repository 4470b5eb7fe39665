/**
 * PUT /admin/servers/{id}/tier and /suspend: the staff side of the tier and suspension facts billing owns.
 * Role matrix, refusals that change nothing, the events and audit entries, and how a staff change and
 * Stripe's later events settle (docs/BILLING.md, "Staff changes").
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StripeTestServer } from '@skald/adapters/stripe-test-server';
import type { SiteRole } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { createHarness, getAs, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { stripeFixture } from './support/stripe.ts';
import { deliver, publishedFacts, subscription } from './support/webhooks.ts';

const S = 'srv-1';
let h: Harness;
let stripe: StripeTestServer;

const STAFF: Readonly<Record<SiteRole, string>> = { user: 'plain-1', moderator: 'mod-1', admin: 'admin-staff-1', superadmin: 'super-1' };

function put(path: string, role: SiteRole | null, payload: unknown) {
  const request = { method: 'PUT' as const, url: path, payload: payload as object };
  return role === null ? h.inject(request) : h.injectAs({ id: STAFF[role], role }, request);
}
const setTier = (role: SiteRole | null, tier: unknown, server = S) => put(`/admin/servers/${server}/tier`, role, { tier });
const suspend = (role: SiteRole | null, suspended: unknown, server = S) => put(`/admin/servers/${server}/suspend`, role, { suspended });

const current = async () => (await getAs(h, `/tiers/current-tier/${S}`, 'owner-1')).json();
const facts = () => publishedFacts(h, S);
// A fixed wait, kept on purpose: the checks after it prove nothing more happened (no further entry or
// change), and the in-memory bus gives no later signal that every handler has run.
const settle = async () => new Promise((resolve) => setTimeout(resolve, 150));

interface AuditData {
  actorId: string;
  actorEmail: string;
  serverId: string | null;
  action: string;
  details: Record<string, unknown>;
}
function audits(): AuditData[] {
  return h.published
    .map((m) => m.payload as { type?: string; data?: AuditData })
    .filter((p) => p.type === 'audit.recorded')
    .map((p) => p.data!);
}

beforeEach(async () => {
  const fixture = await stripeFixture();
  stripe = fixture.server;
  h = await createHarness({ payments: fixture.payments });
  for (const [role, id] of Object.entries(STAFF)) await h.identity.user(id, role as SiteRole);
  // The users are published first: once billing's read model holds the server, it holds their e-mails.
  await seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'free' });
});
afterEach(async () => {
  await h.close();
  await stripe.close();
});

describe('PUT /admin/servers/{id}/tier', () => {
  it('anonymous 401; staff and moderator 403; nothing published', async () => {
    expect((await setTier(null, 'pro')).statusCode).toBe(401);
    for (const role of ['user', 'moderator'] as const) {
      const res = await setTier(role, 'pro');
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('You do not have permission to do this.');
    }
    // The role is checked before the body: a refused caller gets 403 even with a bad body.
    expect((await setTier('moderator', 'gold')).statusCode).toBe(403);
    await settle();
    expect(facts()).toEqual([]);
    expect((await current()).tierKey).toBe('free');
  });

  it.each(['admin', 'superadmin'] as const)('%s sets the tier: server.tier-changed, the audit entry with the staff member, the answer', async (role) => {
    const res = await setTier(role, 'pro');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: S, tier: 'pro', is_suspended: false });
    await expect.poll(facts).toEqual(['tier:pro']);
    expect((await current()).tierKey).toBe('pro');
    await waitFor(async () => audits().length === 1, 'the audit entry');
    expect(audits()[0]).toMatchObject({
      actorId: STAFF[role],
      actorEmail: `${STAFF[role]}@skald.test`,
      serverId: S,
      action: 'staff.tier-changed',
      details: { from: 'free', to: 'pro', by: 'staff' },
    });
  });

  it('setting the tier the server has publishes nothing and answers the state', async () => {
    const res = await setTier('admin', 'free');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: S, tier: 'free', is_suspended: false });
    await settle();
    expect(facts()).toEqual([]);
    expect(audits()).toEqual([]);
  });

  it('an unknown tier 400, an unknown server 404, a body without tier 400; nothing changes', async () => {
    const bad = await setTier('admin', 'gold');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Unknown tier.');
    const unknown = await setTier('admin', 'pro', 'no-such-server');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Server not found.');
    expect((await put(`/admin/servers/${S}/tier`, 'admin', {})).statusCode).toBe(400);
    expect((await put(`/admin/servers/${S}/tier`, 'admin', { tier: 'pro', extra: 1 })).statusCode).toBe(400);
    await settle();
    expect(facts()).toEqual([]);
    expect(audits()).toEqual([]);
  });
});

describe('PUT /admin/servers/{id}/suspend', () => {
  it('anonymous 401; user, moderator and admin 403; nothing published', async () => {
    expect((await suspend(null, true)).statusCode).toBe(401);
    for (const role of ['user', 'moderator', 'admin'] as const) expect((await suspend(role, true)).statusCode).toBe(403);
    await settle();
    expect(facts()).toEqual([]);
  });

  it('superadmin suspends and lifts: server.suspension-changed both ways, each audited', async () => {
    const on = await suspend('superadmin', true);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ id: S, tier: 'free', is_suspended: true });
    await expect.poll(facts).toEqual(['suspended:true']);
    // The same state again is no change.
    expect((await suspend('superadmin', true)).json()).toEqual({ id: S, tier: 'free', is_suspended: true });
    const off = await suspend('superadmin', false);
    expect(off.json()).toEqual({ id: S, tier: 'free', is_suspended: false });
    await expect.poll(facts).toEqual(['suspended:true', 'suspended:false']);
    await waitFor(async () => audits().length === 2, 'two audit entries');
    expect(audits().map((a) => [a.action, a.details, a.actorId])).toEqual([
      ['staff.suspension-changed', { from: false, to: true, by: 'staff' }, STAFF.superadmin],
      ['staff.suspension-changed', { from: true, to: false, by: 'staff' }, STAFF.superadmin],
    ]);
  });

  it('an unknown server 404; a non-boolean 400', async () => {
    expect((await suspend('superadmin', true, 'no-such-server')).statusCode).toBe(404);
    expect((await suspend('superadmin', 'yes')).statusCode).toBe(400);
    await settle();
    expect(facts()).toEqual([]);
  });
});

describe('staff changes and Stripe', () => {
  it('a staff tier holds through renewals and dunning, and yields when Stripe asks for another tier', async () => {
    stripe.putSubscription(subscription({ id: 'sub_1', priceId: 'price_starter' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_1' });
    expect((await setTier('admin', 'legend')).json().tier).toBe('legend');
    // Renewal (same price) and a failed payment under grace: the staff tier stays.
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_1' });
    stripe.putSubscription(subscription({ id: 'sub_1', priceId: 'price_starter', status: 'past_due' }));
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_1' });
    stripe.putSubscription(subscription({ id: 'sub_1', priceId: 'price_starter' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_1' });
    expect((await current()).tierKey).toBe('legend');
    await settle();
    await expect.poll(facts).toEqual(['tier:starter', 'tier:legend']);
    // The owner changes the plan in the portal: Stripe's new tier wins.
    stripe.putSubscription(subscription({ id: 'sub_1', priceId: 'price_explorer' }));
    await deliver(h, stripe, { type: 'customer.subscription.updated', subscription: subscription({ id: 'sub_1', priceId: 'price_explorer' }) });
    expect((await current()).tierKey).toBe('explorer');
    // And the override is gone: a later renewal keeps Stripe's tier.
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_1' });
    await expect.poll(facts).toEqual(['tier:starter', 'tier:legend', 'tier:explorer']);
  });

  it('a staff tier on a server without a subscription yields to its first paid subscription', async () => {
    await setTier('admin', 'pioneer');
    stripe.putSubscription(subscription({ id: 'sub_2', priceId: 'price_starter' }));
    await deliver(h, stripe, { type: 'checkout.session.completed', serverId: S, customerId: 'cus_1', subscriptionId: 'sub_2' });
    expect((await current()).tierKey).toBe('starter');
  });

  it('a staff suspension is not lifted by a payment; only staff lift it', async () => {
    stripe.putSubscription(subscription({ id: 'sub_3' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_3' });
    await suspend('superadmin', true);
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_3' });
    stripe.putSubscription(subscription({ id: 'sub_3', status: 'unpaid' }));
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_3' });
    stripe.putSubscription(subscription({ id: 'sub_3' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_3' });
    await settle();
    await expect.poll(facts).toEqual(['tier:pro', 'suspended:true']);
    expect((await suspend('superadmin', false)).json().is_suspended).toBe(false);
    await expect.poll(facts).toEqual(['tier:pro', 'suspended:true', 'suspended:false']);
  });

  it('staff lifting a non-payment suspension holds until the subscription is paid again; a new unpaid suspends again', async () => {
    stripe.putSubscription(subscription({ id: 'sub_4', status: 'unpaid' }));
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_4' });
    await expect.poll(facts).toEqual(['suspended:true']);
    await suspend('superadmin', false);
    // Still unpaid: further events do not suspend again.
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_4' });
    await settle();
    await expect.poll(facts).toEqual(['suspended:true', 'suspended:false']);
    stripe.putSubscription(subscription({ id: 'sub_4' }));
    await deliver(h, stripe, { type: 'invoice.paid', customerId: 'cus_1', subscriptionId: 'sub_4' });
    stripe.putSubscription(subscription({ id: 'sub_4', status: 'unpaid' }));
    await deliver(h, stripe, { type: 'invoice.payment_failed', customerId: 'cus_1', subscriptionId: 'sub_4' });
    await expect.poll(facts).toEqual(['suspended:true', 'suspended:false', 'tier:pro', 'suspended:true']);
  });
});
