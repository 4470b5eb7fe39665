// The /billing screen (docs/spec/part-2.txt sections 2, 4, 8): plan cards, the current plan, Upgrade and Manage
// Subscription for the owner, the cancelling notice, the payment-return banners, the 10 s refresh and every
// message as the spec writes it. The fake answers are typed with the billing contract.
import type { ApiTier, CurrentTier, ServerRole, SessionUrl, TierList } from '@skald/contracts/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import BillingPage, { BILLING_TEXT } from '../src/features/billing/BillingPage.tsx';
import { CURRENT_TIER_POLL_MS, PAYMENTS_NOT_CONFIGURED, paymentRedirect, planAction } from '../src/features/billing/billingApi.ts';
import { meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

const KEYS = ['free', 'lite', 'starter', 'explorer', 'voyager', 'pioneer', 'pro', 'legend'] as const;
const LABELS = ['Free', 'Lite', 'Starter', 'Explorer', 'Voyager', 'Pioneer', 'Pro', 'Legend'];

function tier(index: number): ApiTier {
  return {
    key: KEYS[index]!,
    label: LABELS[index]!,
    price: index === 0 ? 0 : index * 5 - 0.01,
    limit: 1000 * (index + 1),
    retentionDays: 7 * (index + 1),
    maxPhotoLogs: 10 * (index + 1),
    maxServerUsers: index + 2,
    maxExportsPerMonth: 5 * (index + 1),
    maxWebhooks: index,
    maxBackups: index,
    maxAlertRules: index,
    maxCases: index + 3,
  };
}
const TIERS: TierList = KEYS.map((_, i) => tier(i));

function currentTier(over: Partial<CurrentTier> = {}): CurrentTier {
  return { tierKey: 'free', stripeSubscriptionId: null, subscriptionStatus: null, is_cancelling: false, ...over };
}
const ACTIVE = currentTier({ tierKey: 'starter', stripeSubscriptionId: 'sub_1', subscriptionStatus: 'active' });

// setup.ts restores every spy after each test, so each test gets its own.
let redirect: MockInstance<(url: string) => void>;
beforeEach(() => {
  redirect = vi.spyOn(paymentRedirect, 'to').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
});

function billingApi({ current = currentTier(), role = 'owner' as ServerRole, extra = {} as Parameters<typeof mockApi>[0] } = {}) {
  return mockApi({
    'GET /auth/me': () => json(meAnswer({ serverRole: role })),
    'GET /tiers': () => json(TIERS),
    'GET /tiers/current-tier/s1': () => json(current),
    ...extra,
  });
}

function AddressProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="address">{pathname + search}</div>;
}

function renderBilling(path = '/billing') {
  return renderScreen(
    <>
      <BillingPage />
      <AddressProbe />
    </>,
    { path, route: '/billing', session: SIGNED_IN },
  );
}

function card(key: string): HTMLElement {
  return screen.getAllByTestId('plan-card').find((c) => c.dataset['tier'] === key)!;
}

function upgradeTiers(): string[] {
  return screen.getAllByRole('button', { name: /^Upgrade to / }).map((b) => b.getAttribute('aria-label')!.replace('Upgrade to ', ''));
}

/** The page is settled once the current plan is marked and the role is known. */
async function settled(label = 'Free') {
  await waitFor(() => expect(within(card(label.toLowerCase())).getByText('Current Plan')).toBeTruthy());
}

const posts = (seen: Request[], path: string) => seen.filter((r) => r.method === 'POST' && r.url.endsWith(path));
const gets = (seen: Request[], path: string) => seen.filter((r) => r.method === 'GET' && new URL(r.url).pathname.endsWith(path));

describe('Subscription plans: which card offers what (docs/spec/part-2.txt section 4)', () => {
  it('without a selected server asks for one and calls nothing about tiers', async () => {
    const seen = billingApi();
    renderScreen(<BillingPage />, { path: '/billing', session: { ...SIGNED_IN, serverId: null, serverName: null } });
    expect(await screen.findByText('Please select a server to view subscription details.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Subscription Plans');
    expect(seen.filter((r) => r.url.includes('/tiers'))).toHaveLength(0);
  });

  it('shows the 8 plans in order with price and limits; on free the owner may upgrade to every higher tier', async () => {
    billingApi();
    renderBilling();
    expect(screen.getByText('Loading subscription plans...')).toBeTruthy();
    await settled();
    const cards = screen.getAllByTestId('plan-card');
    expect(cards.map((c) => c.dataset['tier'])).toEqual([...KEYS]);
    expect(card('free').getAttribute('aria-current')).toBe('true');
    expect(card('free').className).toContain('plan-current');
    expect(card('lite').getAttribute('aria-current')).toBeNull();
    expect(within(card('free')).getByText('€0.00 / month')).toBeTruthy();
    const starter = within(card('starter'));
    expect(starter.getByText('€9.99 / month')).toBeTruthy();
    for (const line of ['3,000 logs per hour', '21 days retention', '30 photo logs', '4 server users', '15 exports per month', '2 webhooks', '2 database backups', '2 alert rules', '5 evidence cases']) {
      expect(starter.getByText(line)).toBeTruthy();
    }
    const lite = within(card('lite'));
    for (const line of ['1 webhook', '1 database backup', '1 alert rule', '4 evidence cases']) expect(lite.getByText(line)).toBeTruthy();
    expect(upgradeTiers()).toEqual(LABELS.slice(1));
    expect(screen.queryByRole('button', { name: 'Manage Subscription' })).toBeNull();
    expect(screen.getByTestId('current-summary').textContent).toBe('Current plan: Free');
    // One h1, then each plan an h2.
    expect(Array.from(document.querySelectorAll('h1, h2, h3')).map((h) => h.tagName)).toEqual(['H1', ...KEYS.map(() => 'H2')]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Subscription Plans – Alpha');
  });

  it('on a middle tier without a subscription: lower tiers show nothing, the current shows Current Plan, higher ones Upgrade', async () => {
    billingApi({ current: currentTier({ tierKey: 'explorer' }) });
    renderBilling();
    await settled('Explorer');
    expect(upgradeTiers()).toEqual(['Voyager', 'Pioneer', 'Pro', 'Legend']);
    for (const key of ['free', 'lite', 'starter']) {
      expect(within(card(key)).queryByRole('button')).toBeNull();
      expect(within(card(key)).queryByText('Current Plan')).toBeNull();
    }
    expect(screen.getAllByText('Current Plan')).toHaveLength(1);
  });

  it('with an active or trialing subscription no card offers Upgrade and the owner gets Manage Subscription', async () => {
    for (const status of ['active', 'trialing']) {
      billingApi({ current: { ...ACTIVE, subscriptionStatus: status } });
      const view = renderBilling();
      await settled('Starter');
      await screen.findByRole('button', { name: 'Manage Subscription' });
      expect(screen.queryAllByRole('button', { name: /^Upgrade to / })).toHaveLength(0);
      expect(screen.getByTestId('current-summary').textContent).toBe(`Current plan: Starter · Subscription status: ${status}`);
      view.unmount();
    }
  });

  it('a subscription that is not active (past_due) offers Upgrade for higher tiers again, and Manage to fix the payment', async () => {
    billingApi({ current: { ...ACTIVE, subscriptionStatus: 'past_due' } });
    renderBilling();
    await settled('Starter');
    await waitFor(() => expect(upgradeTiers()).toEqual(['Explorer', 'Voyager', 'Pioneer', 'Pro', 'Legend']));
    expect(screen.getByRole('button', { name: 'Manage Subscription' })).toBeTruthy();
  });

  it('a cancelling subscription shows the notice that the server reverts to the free plan at period end', async () => {
    billingApi({ current: { ...ACTIVE, is_cancelling: true } });
    renderBilling();
    await settled('Starter');
    expect(screen.getByTestId('cancelling-notice').textContent).toContain(BILLING_TEXT.cancelling);
    expect(BILLING_TEXT.cancelling).toContain('reverts to the free plan');
  });

  it('no cancelling notice otherwise', async () => {
    billingApi({ current: ACTIVE });
    renderBilling();
    await settled('Starter');
    expect(screen.queryByTestId('cancelling-notice')).toBeNull();
  });

  it('planAction: before the current tier is known nothing is offered; an unknown current tier offers no Upgrade', () => {
    expect(planAction(TIERS, 'pro', undefined)).toBe('none');
    expect(planAction(TIERS, 'pro', currentTier({ tierKey: 'legend' }))).toBe('none');
    expect(planAction(TIERS, 'legend', currentTier({ tierKey: 'pro' }))).toBe('upgrade');
    expect(planAction(TIERS, 'legend', currentTier({ tierKey: 'pro', stripeSubscriptionId: 'sub', subscriptionStatus: 'trialing' }))).toBe('none');
    expect(planAction(TIERS, 'legend', currentTier({ tierKey: 'pro', stripeSubscriptionId: null, subscriptionStatus: 'active' }))).toBe('upgrade');
  });
});

describe('Subscription plans: roles (docs/spec/part-2.txt section 6; checkout and portal are owner only)', () => {
  it.each(['admin', 'user'] as const)('a server %s sees the plans and the current one, with no Upgrade or Manage', async (role) => {
    billingApi({ role, current: { ...ACTIVE, subscriptionStatus: 'past_due' } });
    renderBilling();
    await settled('Starter');
    expect(await screen.findByText(BILLING_TEXT.ownerOnly)).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^Upgrade/ })).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Manage Subscription' })).toBeNull();
  });

  it('the owner sees no owner-only note', async () => {
    billingApi();
    renderBilling();
    await settled();
    await screen.findByRole('button', { name: 'Upgrade to Lite' });
    expect(screen.queryByText(BILLING_TEXT.ownerOnly)).toBeNull();
  });
});

describe('Subscription plans: checkout and portal', () => {
  it('Upgrade posts {serverId, tier} and goes to the answered checkout URL; it is a keyboard-reachable button', async () => {
    const seen = billingApi({ extra: { 'POST /billing/create-checkout-session': () => json({ url: 'https://checkout.test/c/cs_1' } satisfies SessionUrl) } });
    renderBilling();
    const button = await screen.findByRole('button', { name: 'Upgrade to Pro' });
    expect(button.tagName).toBe('BUTTON');
    expect(button.getAttribute('tabindex')).not.toBe('-1');
    fireEvent.click(button);
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.test/c/cs_1'));
    const [post] = posts(seen, '/billing/create-checkout-session');
    expect(await post!.json()).toEqual({ serverId: 's1', tier: 'pro' });
    expect(post!.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('Manage Subscription posts {serverId} and goes to the answered portal URL', async () => {
    const seen = billingApi({ current: ACTIVE, extra: { 'POST /billing/create-portal-session': () => json({ url: 'https://billing.test/p/bps_1' } satisfies SessionUrl) } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://billing.test/p/bps_1'));
    expect(await posts(seen, '/billing/create-portal-session')[0]!.json()).toEqual({ serverId: 's1' });
  });

  it("a failed checkout toasts 'Failed to start payment process.' and stays", async () => {
    billingApi({ extra: { 'POST /billing/create-checkout-session': () => json({ error: 'Internal Server Error' }, { status: 500 }) } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Lite' }));
    expect(await screen.findByText('Failed to start payment process.')).toBeTruthy();
    expect(redirect).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('plan-card')).toHaveLength(8);
  });

  it("a failed portal call toasts 'Failed to open subscription management.'", async () => {
    billingApi({ current: ACTIVE, extra: { 'POST /billing/create-portal-session': () => json({ error: 'Not Found' }, { status: 404 }) } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByText('Failed to open subscription management.')).toBeTruthy();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('without Stripe (503) the page says payments are not configured, and the plans still show', async () => {
    const notConfigured = () => json({ error: PAYMENTS_NOT_CONFIGURED, message: PAYMENTS_NOT_CONFIGURED }, { status: 503 });
    billingApi({ current: { ...ACTIVE, subscriptionStatus: 'past_due' }, extra: { 'POST /billing/create-checkout-session': notConfigured, 'POST /billing/create-portal-session': notConfigured } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Legend' }));
    const alert = await screen.findByTestId('payments-off');
    expect(alert.textContent).toContain('Payments are not configured on this installation.');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(screen.queryByText('Failed to start payment process.')).toBeNull();
    expect(screen.getAllByTestId('plan-card')).toHaveLength(8);
    fireEvent.click(screen.getByRole('button', { name: 'Manage Subscription' }));
    await waitFor(() => expect(screen.getAllByText(PAYMENTS_NOT_CONFIGURED)).toHaveLength(1));
    expect(screen.queryByText('Failed to open subscription management.')).toBeNull();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('an answered address that is not http(s) is not followed', async () => {
    billingApi({ extra: { 'POST /billing/create-checkout-session': () => json({ url: 'javascript:alert(1)' } satisfies SessionUrl) } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Lite' }));
    expect(await screen.findByText('Failed to start payment process.')).toBeTruthy();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('once the checkout answered, every action stays disabled while the browser leaves', async () => {
    billingApi({ extra: { 'POST /billing/create-checkout-session': () => json({ url: 'https://checkout.test/c/cs_2' } satisfies SessionUrl) } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Lite' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledTimes(1));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Upgrade to Pro' }) as HTMLButtonElement).disabled).toBe(true));
  });

  it('the not-configured text is recognised in the message field too', async () => {
    billingApi({ extra: { 'POST /billing/create-checkout-session': () => json({ error: 'Service Unavailable', message: PAYMENTS_NOT_CONFIGURED }, { status: 503 }) } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Lite' }));
    expect(await screen.findByTestId('payments-off')).toBeTruthy();
  });

  it('a 503 for another reason (the service is down) is the ordinary failure toast', async () => {
    billingApi({ extra: { 'POST /billing/create-checkout-session': () => json({ error: 'Service Unavailable' }, { status: 503 }) } });
    renderBilling();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Lite' }));
    expect(await screen.findByText('Failed to start payment process.')).toBeTruthy();
    expect(screen.queryByTestId('payments-off')).toBeNull();
  });
});

describe('Subscription plans: return from payment, refresh and load failures', () => {
  it('?success=true shows the green message, leaves the address and refreshes the current tier', async () => {
    // The first answer predates the webhook; the refresh the success triggers answers the new plan.
    const answers = [currentTier(), currentTier({ tierKey: 'pro', stripeSubscriptionId: 'sub_9', subscriptionStatus: 'active' })];
    const seen = billingApi({ extra: { 'GET /tiers/current-tier/s1': () => json(answers.length > 1 ? answers.shift() : answers[0]) } });
    renderBilling('/billing?success=true');
    expect(await screen.findByText('Payment succesful! Your subscription has been upgraded.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('/billing'));
    await settled('Pro');
    expect(gets(seen, '/tiers/current-tier/s1')).toHaveLength(2);
    const alert = screen.getByText(BILLING_TEXT.success).closest('.ant-alert')!;
    expect(alert.className).toContain('ant-alert-success');
    // The banner closes from the keyboard-reachable close button.
    fireEvent.click(within(alert as HTMLElement).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText(BILLING_TEXT.success)).toBeNull());
  });

  it('?canceled=true shows the red message and leaves the address; other parameters stay', async () => {
    billingApi();
    renderBilling('/billing?canceled=true&keep=1');
    const text = await screen.findByText('Payment cancelled. No charges were made.');
    expect(text.closest('.ant-alert')!.className).toContain('ant-alert-error');
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('/billing?keep=1'));
    expect(screen.queryByText(BILLING_TEXT.success)).toBeNull();
  });

  it('no banner without the return parameters', async () => {
    billingApi();
    renderBilling();
    await settled();
    expect(screen.queryByText(BILLING_TEXT.success)).toBeNull();
    expect(screen.queryByText(BILLING_TEXT.canceled)).toBeNull();
  });

  it('the current tier refreshes every 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let current = currentTier();
    const seen = billingApi({ extra: { 'GET /tiers/current-tier/s1': () => json(current) } });
    renderBilling();
    await settled();
    const before = gets(seen, '/tiers/current-tier/s1').length;
    current = currentTier({ tierKey: 'voyager' });
    expect(CURRENT_TIER_POLL_MS).toBe(10_000);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CURRENT_TIER_POLL_MS + 100);
    });
    await waitFor(() => expect(gets(seen, '/tiers/current-tier/s1').length).toBeGreaterThan(before));
    await settled('Voyager');
  });

  it("the plans failing to load show 'Failed to load subscription plans.'", async () => {
    billingApi({ extra: { 'GET /tiers': () => json({ error: 'boom' }, { status: 500 }) } });
    renderBilling();
    expect(await screen.findByText('Failed to load subscription plans.')).toBeTruthy();
    expect(screen.queryAllByTestId('plan-card')).toHaveLength(0);
  });

  it("the current tier failing shows 'Failed to load current tier.' while the plans still show, without Upgrade", async () => {
    billingApi({ extra: { 'GET /tiers/current-tier/s1': () => json({ error: 'boom' }, { status: 500 }) } });
    renderBilling();
    expect(await screen.findByText('Failed to load current tier.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('plan-card')).toHaveLength(8));
    expect(screen.queryByText('Current Plan')).toBeNull();
    expect(screen.queryAllByRole('button', { name: /^Upgrade/ })).toHaveLength(0);
  });
});
