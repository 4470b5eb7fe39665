// The Alerts screen in headless Chromium against the real all-in-one server: an owner on the Starter tier
// (set with the operator command) with one webhook to a local receiver creates a threshold rule on the
// screen, sees it listed as OK, edits it, sends a test (the receiver gets it), fires it with a matching
// log and reads its history, then deletes it. A member with the role user who opens /alerts lands on
// /dashboard. Moved to the Free tier, the server's usage answer says maxAlertRules 0 and the sidebar locks
// Alerts. The screen is checked in light and dark, desktop and 375 px (screenshots in
// test-output/e2e/alerts/, axe in each view).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { AlertList, ServerUsage } from '@skald/contracts/api';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, apiAt, type CreatedServer, createServer, signIn, signUp, waitFor, type WalkthroughApi } from './api.ts';
import { buildWeb, REPO_ROOT, startAllInOne, type RunningServer } from './server.ts';
import { seedSession } from './session.ts';
import { DESKTOP, hasChromium, launchChromium, ViewCheck, VIEWS } from './walk.ts';
import { startLocalReceiver, type LocalReceiver } from './webhooks.ts';

const PASSWORD = 'Correct-horse-battery-9';
const stamp = Date.now().toString(36);
const owner = { username: `al_owner_${stamp}`, password: PASSWORD };
const member = { username: `al_member_${stamp}`, password: PASSWORD };

let server: RunningServer;
let api: WalkthroughApi;
let receiver: LocalReceiver;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let ownerToken: string;
let created: CreatedServer;
const pageErrors: string[] = [];
const walk = new ViewCheck('alerts');

function cli(...args: string[]): Promise<void> {
  return new Promise((done, fail) =>
    execFile(process.execPath, [join(REPO_ROOT, 'gateway', 'src', 'cli.ts'), ...args], { env: { ...process.env, DATA_DIR: server.dataDir, TARGET: 'all' } }, (error) => (error ? fail(error) : done())),
  );
}

const alertsOf = () => api.ok<AlertList>('GET', `/alerts?serverId=${created.id}`, { token: ownerToken });
const row = () => page.getByTestId('alert-row');

describe.skipIf(!hasChromium)('the Alerts screen (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    buildWeb();
    receiver = await startLocalReceiver();
    server = await startAllInOne({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    api = apiAt(server.baseUrl);
    browser = await launchChromium();
    ownerToken = await signUp(api, owner);
    await signUp(api, member);
    created = await createServer(api, ownerToken, `Alerts ${stamp}`);
    // Starter: two webhooks, three alert rules, room for a member.
    await cli('servers:tier', created.id, 'starter');
    await waitFor(async () => (await api.call('GET', `/alerts?serverId=${created.id}`, { token: ownerToken })).body['limit'] === 3, 'the webhooks service to see the Starter tier');
    await api.ok('POST', '/webhooks', { token: ownerToken, body: { serverId: created.id, url: receiver.url, platform: 'discord', chat_id: null, event_type: null, log_level: null, resource: null } });
    await addMember(api, ownerToken, created.id, `${member.username}@example.com`, 'user');
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await seedSession(page, { token: ownerToken, serverId: created.id, serverName: created.name });
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('the sidebar lists Alerts under Integrations, right after Webhooks; the empty screen says 0 / 3', async () => {
    await page.goto('/alerts');
    await page.getByText('0 / 3 alert rules used').waitFor();
    const nav = page.getByRole('navigation', { name: 'Server navigation' });
    const links = await nav.getByRole('link').allInnerTexts();
    expect(links.indexOf('Alerts')).toBe(links.indexOf('Webhooks') + 1);
    await page.getByText('No alert rules yet.').waitFor();
  });

  it('creates a threshold rule with a filter and the webhook, listed with state OK', async () => {
    const form = page.getByRole('form', { name: 'Add alert rule' });
    await form.getByLabel('Name').fill('Errors spike');
    await form.getByLabel('Threshold (logs)').fill('3');
    await form.getByLabel('Window (seconds)').fill('120');
    await form.getByLabel('Log level').selectOption('error');
    await form.getByLabel('Message contains').fill('boom');
    await form.getByLabel('http://127.0.0.1:', { exact: false }).check();
    await form.getByRole('button', { name: 'Add alert rule' }).click();
    await page.getByText('Alert rule added ✅').waitFor();
    await page.getByText('1 / 3 alert rules used').waitFor();
    await row().getByText('Errors spike').waitFor();
    expect(await row().getByTestId('alert-state').innerText()).toBe('OK');
    const text = await row().innerText();
    expect(text).toContain('At least 3 matching logs in 120 s');
    expect(text).toContain('level error · message contains "boom"');
    expect(text).not.toContain('/api/webhooks/e2e/receiver');
    const [saved] = (await alertsOf()).alerts;
    expect(saved).toMatchObject({ name: 'Errors spike', kind: 'threshold', threshold: 3, windowSeconds: 120, filter: { level: 'error', search: 'boom' }, state: 'ok', enabled: true });
    expect(saved!.webhookIds).toHaveLength(1);
  });

  it("a refused edit shows the server's sentence in the form; a good one saves", async () => {
    await row().getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Save' });
    await form.getByLabel('Window (seconds)').fill('5');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Update failed ❌').waitFor();
    await form.getByText(/^The window must be between \d+ and 86400 seconds\.$/).waitFor();
    await form.getByLabel('Window (seconds)').fill('600');
    await form.getByLabel('Threshold (logs)').fill('1');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Alert rule updated ✅').waitFor();
    await row().getByText('At least 1 matching log in 600 s').waitFor();
    expect((await alertsOf()).alerts[0]).toMatchObject({ threshold: 1, windowSeconds: 600 });
  });

  it('sends a test to the rule’s webhook: the receiver gets it and the screen says so', async () => {
    const before = receiver.bodies.length;
    await row().getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test sent 🚀').waitFor();
    expect(receiver.bodies.length).toBeGreaterThan(before);
    expect(JSON.stringify(receiver.bodies.at(-1))).toContain('[Test] Errors spike');
  });

  it('a matching log fires the rule: the list shows Firing and the history the event with its sample', async () => {
    const res = await fetch(`${server.baseUrl}/api/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': created.api_key }, body: JSON.stringify({ message: 'boom at the docks', level: 'error' }) });
    expect(res.status, await res.text()).toBe(201);
    await waitFor(async () => (await alertsOf()).alerts[0]?.state === 'firing', 'the rule to fire');
    await page.reload();
    await row().getByText('Firing').waitFor();
    await row().getByRole('button', { name: 'Show history' }).click();
    const event = page.getByTestId('alert-event').first();
    await event.getByText('Fired').waitFor();
    expect(await event.innerText()).toContain('boom at the docks');
    await walk.views(page, 'alerts-history', async () => {
      await page.goto('/alerts');
      await row().getByRole('button', { name: 'Show history' }).click();
      await page.getByTestId('alert-event').first().waitFor();
    });
  });

  it('the edit form in each view', async () => {
    await walk.views(page, 'alerts-edit', async () => {
      await page.goto('/alerts');
      await row().getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('form', { name: 'Save' }).waitFor();
    });
  });

  it('deletes the rule after a confirmation', async () => {
    await page.goto('/alerts');
    await row().getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Delete this alert rule and its history?').waitFor();
    await row().getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByText('Alert rule deleted ✅').waitFor();
    await page.getByText('0 / 3 alert rules used').waitFor();
    expect((await alertsOf()).alerts).toEqual([]);
  });

  it('a member with the role user who opens /alerts lands on /dashboard, with no Alerts entry in the sidebar', async () => {
    const memberContext = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    try {
      const memberPage = await memberContext.newPage();
      memberPage.setDefaultTimeout(20_000);
      await seedSession(memberPage, { token: await signIn(api, member), serverId: created.id, serverName: created.name });
      await memberPage.goto('/alerts');
      await memberPage.waitForURL('**/dashboard');
      await memberPage.getByRole('navigation', { name: 'Server navigation' }).getByRole('link', { name: 'Dashboard' }).waitFor();
      expect(await memberPage.getByRole('navigation', { name: 'Server navigation' }).getByRole('link', { name: 'Alerts' }).count()).toBe(0);
    } finally {
      await memberContext.close();
    }
  });

  it("on a tier without alert rules the sidebar locks Alerts, from the usage answer's maxAlertRules", async () => {
    const usage = () => api.ok<ServerUsage>('GET', `/server/usage/${created.id}`, { token: ownerToken });
    expect(await usage()).toMatchObject({ maxWebhooks: 2, maxAlertRules: 3 });
    await cli('servers:tier', created.id, 'free');
    await waitFor(async () => (await usage()).maxAlertRules === 0, 'the logs service to see the Free tier');
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Server navigation' });
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    await nav.locator('[aria-disabled="true"]', { hasText: 'Alerts' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Alerts' }).count()).toBe(0);
  });

  it('no page errors and no accessibility violations in the checked views', () => {
    expect(pageErrors).toEqual([]);
    expect(walk.failing().join('\n\n')).toBe('');
    expect(walk.a11y).toHaveLength(VIEWS.length * 2);
  });
});
