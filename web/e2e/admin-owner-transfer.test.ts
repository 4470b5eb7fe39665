// The owner transfer in the staff area and its dialogs, in headless Chromium against the real all-in-one server:
//  - a staff admin gives a member the owner role on the admin server page's Users tab: the spec's toast
//    'Succesfully changed user role', the member listed first as owner without a role selector, the previous
//    owner an admin; the new owner runs the owner's screens, the previous owner no longer does. A refused
//    change shows the server's sentence and the toast 'Failed to change the users role';
//  - the default site role has one name: /auth/me says `user` and the admin Users page shows `user` for the
//    same account; at 375 px, in light and dark, a row of that page stays one line tall with its actions reachable.
// The Users tab after the transfer is checked in light and dark, desktop and 375 px (screenshots in
// test-output/e2e/admin-owner-transfer/, axe in each view).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { MeAnswer } from '@skald/contracts/api';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAt, createServer, signIn, signUp, waitFor, type WalkthroughApi } from './api.ts';
import { buildWeb, REPO_ROOT, startAllInOne, type RunningServer } from './server.ts';
import { seedSession } from './session.ts';
import { DESKTOP, hasChromium, launchChromium, MOBILE, ViewCheck, VIEWS } from './walk.ts';

const PASSWORD = 'Correct-horse-battery-9';
const stamp = Date.now().toString(36);
const owner = { username: `ot_owner_${stamp}`, password: PASSWORD };
const heir = { username: `ot_heir_${stamp}`, password: PASSWORD };
const leaver = { username: `ot_leaver_${stamp}`, password: PASSWORD };
const staff = { username: `ot_staff_${stamp}`, password: PASSWORD };
const emailOf = (account: { username: string }) => `${account.username}@example.com`;

let server: RunningServer;
let api: WalkthroughApi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let staffToken: string;
let serverId: string;
const ids: Record<string, string> = {};
const walk = new ViewCheck('admin-owner-transfer');

function cli(...args: string[]): Promise<void> {
  return new Promise((done, fail) =>
    execFile(process.execPath, [join(REPO_ROOT, 'gateway', 'src', 'cli.ts'), ...args], { env: { ...process.env, DATA_DIR: server.dataDir, TARGET: 'all' } }, (error) => (error ? fail(error) : done())),
  );
}

async function me(token: string): Promise<MeAnswer> {
  return api.ok<MeAnswer>('GET', '/auth/me', { token });
}

const rowOf = (account: { username: string }) => page.locator(`[data-testid="admin-member-row"][data-user="${emailOf(account)}"]`);

async function openUsersTab(): Promise<void> {
  await page.goto(`/admin/servers/${serverId}`);
  await page.getByRole('tab', { name: 'Users', exact: true }).click();
  await page.getByTestId('admin-member-row').first().waitFor();
}

describe.skipIf(!hasChromium)('staff hand a server over; the default site role has one name (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    buildWeb();
    server = await startAllInOne();
    api = apiAt(server.baseUrl);
    browser = await launchChromium();
    const ownerToken = await signUp(api, owner);
    for (const account of [heir, leaver, staff]) await signUp(api, account);
    for (const account of [owner, heir, leaver, staff]) ids[account.username] = (await me(await signIn(api, account))).user.id;
    serverId = (await createServer(api, ownerToken, `Owner Transfer ${stamp}`)).id;
    // Starter: room for the owner and two members.
    await cli('servers:tier', serverId, 'starter');
    for (const account of [heir, leaver]) {
      await waitFor(async () => (await api.call('POST', '/manage/add-user', { token: ownerToken, body: { serverId, email: emailOf(account), role: 'user' } })).status === 201, `${account.username} to join`);
    }
    await cli('users:promote', staff.username, 'admin');
    staffToken = await signIn(api, staff);
    await waitFor(async () => (await api.call('GET', `/admin/servers/${serverId}/users`, { token: staffToken })).status === 200, 'the admin area to know the staff admin');
    await waitFor(
      async () => ((await api.call('GET', `/admin/servers/${serverId}/users`, { token: staffToken })).body['users'] as unknown[] | undefined)?.length === 3,
      'the admin area to list the three members',
    );
    context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await seedSession(page, { token: staffToken, serverId: null, serverName: null });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('the admin Users tab gives a member the owner role: toast, new owner first, previous owner admin', async () => {
    await openUsersTab();
    expect(await rowOf(owner).getByRole('combobox').count()).toBe(0);
    const select = rowOf(heir).getByRole('combobox', { name: `Role of ${emailOf(heir)}` });
    expect(await select.locator('option').allInnerTexts()).toEqual(['user', 'admin', 'owner']);
    await select.selectOption('owner');
    await page.getByText('Succesfully changed user role', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('admin-member-row').first().getAttribute('data-user')).toBe(emailOf(heir));
    expect(await rowOf(heir).getByRole('combobox').count()).toBe(0);
    expect(await rowOf(heir).innerText()).toContain('owner');
    expect(await rowOf(owner).getByRole('combobox', { name: `Role of ${emailOf(owner)}` }).inputValue()).toBe('admin');

    // Auth's answer at once: the heir owns the server and runs its owner screens; the previous owner is an admin.
    const heirToken = await signIn(api, heir);
    expect((await me(heirToken)).servers.find((s) => s.id === serverId)?.role).toBe('owner');
    expect((await api.call('GET', `/manage/server/${serverId}/users`, { token: heirToken })).status).toBe(200);
    const ownerToken = await signIn(api, owner);
    expect((await me(ownerToken)).servers.find((s) => s.id === serverId)?.role).toBe('admin');
    expect((await api.call('GET', `/manage/server/${serverId}/users`, { token: ownerToken })).status).toBe(403);
    // The admin area's own list follows: a reload shows the same.
    await waitFor(async () => {
      const users = (await api.call('GET', `/admin/servers/${serverId}/users`, { token: staffToken })).body['users'] as { id: string; role: string }[];
      return users[0]?.id === ids[heir.username] && users.find((u) => u.id === ids[owner.username])?.role === 'admin';
    }, 'the admin area to list the new owner');
    await walk.views(page, 'users-tab-after-transfer', async () => {
      await openUsersTab();
      await rowOf(heir).getByText('owner', { exact: true }).waitFor();
    });
  });

  it("a refused change shows the server's sentence and the spec's toast", async () => {
    await openUsersTab();
    // The member leaves (the new owner removes them) after the page listed them.
    await api.ok('DELETE', `/manage/server/${serverId}/users/${ids[leaver.username]}`, { token: await signIn(api, heir) });
    await rowOf(leaver).getByRole('combobox', { name: `Role of ${emailOf(leaver)}` }).selectOption('owner');
    await page.getByText('That user is not a member of this server.', { exact: true }).waitFor();
    await page.getByText('Failed to change the users role', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('admin-member-row').first().getAttribute('data-user')).toBe(emailOf(heir));
  });

  it('the default site role has one name: /auth/me and the admin Users page both say user', async () => {
    await cli('users:promote', staff.username, 'superadmin');
    const superToken = await signIn(api, staff);
    await waitFor(async () => (await api.call('GET', '/admin/users', { token: superToken })).status === 200, 'the admin area to know the superadmin');
    await seedSession(page, { token: superToken, serverId: null, serverName: null });
    expect((await me(await signIn(api, leaver))).user.role).toBe('user');
    await page.goto('/admin/users');
    const row = page.locator(`[data-testid="admin-user-row"][data-user="${emailOf(leaver)}"]`);
    await row.waitFor();
    expect(await row.getByRole('combobox', { name: `Role of ${emailOf(leaver)}` }).inputValue()).toBe('user');
    expect(await row.locator('td').nth(2).innerText()).toBe('user');

    // At 375 px, in light and dark, each row keeps to one line (the table scrolls sideways instead) and the row's
    // actions stay reachable: scrolled into view, the role selector (disabled here: the account has no 2FA) takes
    // the pointer and the Disable button can be clicked (trial runs: nothing changes).
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize(MOBILE);
      await page.evaluate((t) => window.localStorage.setItem('theme', t), theme);
      await page.reload();
      await page.locator(`.skald-${theme}`).first().waitFor();
      await row.waitFor();
      const height = (await row.boundingBox())?.height ?? Infinity;
      expect(height, `admin Users row height at 375 px (${theme})`).toBeLessThanOrEqual(80);
      await row.getByRole('combobox', { name: `Role of ${emailOf(leaver)}` }).hover({ trial: true });
      await row.getByRole('button', { name: `Disable ${emailOf(leaver)}` }).click({ trial: true });
    }
    await page.setViewportSize(DESKTOP);
    await page.evaluate(() => window.localStorage.setItem('theme', 'light'));
  });

  it('no accessibility violations in the checked views', () => {
    expect(walk.failing().join('\n\n')).toBe('');
    expect(walk.a11y).toHaveLength(VIEWS.length);
  });
});
