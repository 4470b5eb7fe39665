// The forms' error sentences, in headless Chromium against the real all-in-one server:
//  - every form is submitted with each invalid field and the walkthrough reads what the screen shows: the
//    sentence a person reads (the spec's texts where it has them, the one formatter's otherwise), whether
//    the browser's own check or the server caught it, and never a validator's wording;
//  - members who open a screen above their server role by its address land on /dashboard (role user:
//    Webhooks, Audit Logs, Export Logs, Settings, Users, DB Backups, Subscriptions; role admin: the owner's
//    Users, DB Backups and Subscriptions), in light and dark, desktop and 375 px.
// A few error views are screenshotted to test-output/e2e/form-errors/ and checked with axe in the four views.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAt, createServer, signIn, signUp, waitFor, type WalkthroughApi } from './api.ts';
import { buildWeb, REPO_ROOT, startAllInOne, type RunningServer } from './server.ts';
import { seedSession } from './session.ts';
import { DESKTOP, hasChromium, launchChromium, POLL, ViewCheck } from './walk.ts';

/** A validator's own wording (Ajv's messages and the old 'field is required' form): never on a screen. */
const RAW_VALIDATOR = /must NOT|must be equal to constant|must match pattern|is required$/;
const PASSWORD = 'Correct-horse-battery-9';
const stamp = Date.now().toString(36);
const owner = { username: `fe_owner_${stamp}`, password: PASSWORD };
const admin = { username: `fe_admin_${stamp}`, password: PASSWORD };
const member = { username: `fe_user_${stamp}`, password: PASSWORD };

let server: RunningServer;
let api: WalkthroughApi;
let browser: Browser;
let ownerToken: string;
let serverId: string;
const walk = new ViewCheck('form-errors');

/** Everything a screen shows as a message: form-field errors, alerts and toasts, one entry per line. */
async function shownMessages(page: Page): Promise<string[]> {
  const texts = await page.locator('.ant-form-item-explain-error, [role="alert"], .ant-message-notice-content').allInnerTexts();
  return texts.flatMap((text) => text.split('\n')).map((line) => line.trim()).filter((line) => line !== '');
}

/**
 * Does `prepare` (filling the field under test), then `act` (a submit), then waits for `sentence` to show and
 * checks that nothing shown is a validator's wording. The sentence must not be on the screen before
 * `prepare`, so an earlier toast cannot answer for it (checked before it: a form may show a field's sentence
 * as soon as the field changes, before the submit).
 */
async function expectSentence(page: Page, act: () => Promise<unknown>, sentence: string, prepare?: () => Promise<unknown>): Promise<void> {
  const shown = page.getByText(sentence, { exact: true });
  await shown.first().waitFor({ state: 'hidden' });
  await prepare?.();
  await act();
  await shown.first().waitFor();
  const messages = await shownMessages(page);
  expect(messages.filter((line) => RAW_VALIDATOR.test(line)), `shown after "${sentence}": ${JSON.stringify(messages)}`).toEqual([]);
}

async function newPage(session?: { token: string; serverId: string | null; serverName: string | null }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  if (session) await seedSession(page, session);
  return { context, page };
}

function cli(...args: string[]): Promise<void> {
  return new Promise((done, fail) =>
    execFile(process.execPath, [join(REPO_ROOT, 'gateway', 'src', 'cli.ts'), ...args], { env: { ...process.env, DATA_DIR: server.dataDir, TARGET: 'all' } }, (error) => (error ? fail(error) : done())),
  );
}

describe.skipIf(!hasChromium)('form errors and screen access (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    buildWeb();
    // 127.0.0.1 may be a webhook destination here (the edit walk needs one saved webhook); 10.0.0.0/8 stays refused.
    server = await startAllInOne({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    api = apiAt(server.baseUrl);
    browser = await launchChromium();
    ownerToken = await signUp(api, owner);
    await signUp(api, admin);
    await signUp(api, member);
    serverId = (await createServer(api, ownerToken, `Form Errors ${stamp}`)).id;
    // Starter: webhooks and backups, and room for two members.
    await cli('servers:tier', serverId, 'starter');
    await waitFor(async () => (await api.call('GET', `/webhooks?serverId=${serverId}`, { token: ownerToken })).body['limit'] === 2, 'the webhooks service to see the Starter tier');
    for (const [account, role] of [[admin, 'admin'], [member, 'user']] as const) {
      await waitFor(async () => (await api.call('POST', '/manage/add-user', { token: ownerToken, body: { serverId, email: `${account.username}@example.com`, role } })).status === 201, `${account.username} to join as ${role}`);
    }
    await api.ok('POST', '/webhooks', { token: ownerToken, body: { serverId, url: 'http://127.0.0.1:9/hook', platform: 'discord' } });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('register, login, forgot and reset password show a sentence for each invalid field', { timeout: 300_000 }, async () => {
    const { context, page } = await newPage();
    await page.goto('/register');
    const register = page.getByRole('button', { name: 'Register' });
    const fill = async (email: string, username: string, password: string) => {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill(password);
    };
    // Empty fields: the form's own check, in the sentences the server uses for a missing field.
    await expectSentence(page, () => register.click(), 'Please enter an e-mail address.');
    for (const sentence of ['Please enter your username.', 'Please enter your password.']) await page.getByText(sentence, { exact: true }).waitFor();
    await walk.views(page, 'register-empty', async () => {
      await page.reload();
      await register.click();
      await page.getByText('Please enter your password.', { exact: true }).waitFor();
    });
    // Each field the server refuses.
    const cases: [string, string, string, string][] = [
      ['ab', 'ab@example.com', PASSWORD, 'Username must be at least 3 characters.'],
      ['x'.repeat(33), 'long@example.com', PASSWORD, 'Username must be at most 32 characters.'],
      ['bad name!', 'bad@example.com', PASSWORD, 'Username may only contain letters, digits, dots (.), dashes (-) and underscores (_).'],
      [`fe_new_${stamp}`, 'new@example.com', 'short', 'Password must be at least 8 characters.'],
      [`fe_new_${stamp}`, 'not-an-address@nowhere', PASSWORD, 'Enter a valid e-mail address.'],
      [owner.username, 'other@example.com', PASSWORD, 'That username is already taken.'],
    ];
    for (const [username, email, password, sentence] of cases) {
      await fill(email, username, password);
      await expectSentence(page, () => register.click(), sentence);
    }
    await walk.views(page, 'register-refused', async () => {
      await page.reload();
      await fill('e@example.com', 'ab', PASSWORD);
      await register.click();
      await page.getByText('Username must be at least 3 characters.', { exact: true }).waitFor();
    });

    await page.goto('/login');
    const login = page.getByRole('button', { name: 'Login' });
    await expectSentence(page, () => login.click(), 'Please enter your username.');
    await page.getByText('Please enter your password.', { exact: true }).waitFor();
    await expectSentence(page, () => login.click(), 'Username must be at most 254 characters.', async () => {
      await page.getByLabel('Username').fill('x'.repeat(255));
      await page.getByLabel('Password').fill(PASSWORD);
    });

    await page.goto('/forgot-password');
    const send = page.getByRole('button', { name: 'Send reset link' });
    await expectSentence(page, () => send.click(), 'Please enter an e-mail address.');
    await expectSentence(page, () => send.click(), 'E-mail address must be at most 254 characters.', () => page.getByLabel('Email').fill(`${'x'.repeat(250)}@example.com`));

    await page.goto('/reset-password/not-a-real-token');
    const change = page.getByRole('button', { name: 'Change Password' });
    await expectSentence(page, () => change.click(), 'Please enter your password.');
    await expectSentence(page, () => change.click(), 'Password must be at least 8 characters.', () => page.getByLabel('New password').fill('short'));
    await context.close();
  });

  it('user settings, 2FA, create server and server settings show a sentence for each invalid field', { timeout: 300_000 }, async () => {
    const { context, page } = await newPage({ token: ownerToken, serverId, serverName: null });
    await page.goto('/user-settings');
    const username = page.getByLabel('Username');
    await username.waitFor();
    await expectSentence(page, () => page.getByRole('button', { name: 'Change Username' }).click(), 'Please enter your username.', () => username.fill(''));
    await expectSentence(page, () => page.getByRole('button', { name: 'Change Username' }).click(), 'Username must be at least 3 characters.', () => username.fill('ab'));
    const email = page.getByLabel('E-mail');
    await expectSentence(page, () => page.getByRole('button', { name: 'Change E-mail' }).click(), 'Please enter an e-mail address.', () => email.fill(''));
    await expectSentence(page, () => page.getByRole('button', { name: 'Change E-mail' }).click(), 'Enter a valid e-mail address.', () => email.fill('someone@nowhere'));
    const changePassword = page.getByRole('button', { name: 'Change Password' });
    await expectSentence(page, () => changePassword.click(), 'Please enter your current password.');
    await page.getByText('Please enter a new password.', { exact: true }).waitFor();
    await expectSentence(page, () => changePassword.click(), 'New password must be at least 8 characters.', async () => {
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByLabel('New password').fill('short');
    });
    await expectSentence(page, () => changePassword.click(), 'Your current password is incorrect.', async () => {
      await page.getByLabel('Current password').fill('Not-the-password-1');
      await page.getByLabel('New password').fill('Another-long-pass-2');
    });

    await page.getByRole('button', { name: 'Enable 2FA' }).click();
    const code = page.getByLabel('2FA code');
    await expectSentence(page, () => page.getByRole('button', { name: 'Verify and enable' }).click(), 'Please enter the complete 6-digit code', () => code.fill('123'));

    await page.goto('/create-server');
    const create = page.getByRole('button', { name: 'Create server' });
    await expectSentence(page, () => create.click(), 'Give the server a name!');
    await expectSentence(page, () => create.click(), 'Server name must be at most 64 characters.', () => page.getByLabel('Server name').fill('x'.repeat(70)));
    await walk.views(page, 'create-server-refused', async () => {
      await page.reload();
      await page.getByLabel('Server name').fill('x'.repeat(70));
      await create.click();
      await page.getByText('Server name must be at most 64 characters.', { exact: true }).waitFor();
    });

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Change Name' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Name' });
    await expectSentence(page, () => dialog.getByRole('button', { name: 'Save' }).click(), 'Give the server a name!', () => dialog.getByLabel('New name').fill('   '));
    await expectSentence(page, () => dialog.getByRole('button', { name: 'Save' }).click(), 'Server name must be at most 64 characters.', () => dialog.getByLabel('New name').fill('y'.repeat(65)));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // docs/spec/part-2.txt section 5: the days field says so until it holds a number of 0 or more (it starts empty).
    // It shows at first: a number makes it go (the check before the act waits for that), -1 brings it back.
    await page.getByLabel('Days').fill('5');
    await expectSentence(page, () => page.getByLabel('Days').fill('-1'), 'Insert a valid amount of days (0 or more)');
    expect(await page.getByRole('button', { name: 'Delete Logs' }).isDisabled()).toBe(true);

    await page.goto('/server-users');
    await page.getByRole('button', { name: 'Add user' }).click();
    const addUser = page.getByRole('form', { name: 'Add user' });
    await expectSentence(page, () => addUser.getByRole('button', { name: 'Add user' }).click(), 'Please enter an e-mail address.');
    await expectSentence(page, () => addUser.getByRole('button', { name: 'Add user' }).click(), 'Enter a valid e-mail address.', () => addUser.getByLabel('E-mail').fill('not-an-address'));
    await expectSentence(page, () => addUser.getByRole('button', { name: 'Add user' }).click(), 'E-mail address must be at most 254 characters.', () => addUser.getByLabel('E-mail').fill(`${'z'.repeat(250)}@example.com`));

    await page.goto('/exports');
    const custom = page.getByRole('button', { name: 'Export Custom Selection CSV' });
    // Logs is ticked at first: untick it, and no type is left.
    const logsType = page.getByRole('checkbox', { name: 'Logs', exact: true });
    await logsType.uncheck();
    await expectSentence(page, () => custom.click(), 'Select at least one log type!');
    await logsType.check();
    await expectSentence(page, () => custom.click(), 'Export failed: Type must be at most 200 characters.', () => page.locator('#export-type').fill('t'.repeat(201)));
    await context.close();
  });

  it('webhook create and edit, and backup settings show the reason the server refused each field', { timeout: 300_000 }, async () => {
    const { context, page } = await newPage({ token: ownerToken, serverId, serverName: null });
    await page.goto('/webhooks');
    const add = page.getByRole('form', { name: 'Add webhook' });
    await add.waitFor();
    const submitAdd = () => add.getByRole('button', { name: 'Add webhook' }).click();
    const addCases: [string, string, Record<string, string>, string][] = [
      ['not a url', 'discord', {}, 'The URL is not valid.'],
      ['ftp://files.example.com/drop', 'discord', {}, 'Only http and https URLs are allowed.'],
      ['http://10.0.0.1/hook', 'discord', {}, 'The destination 10.0.0.1 is not allowed: it is a private network address. Use a public host name or IP address.'],
      ['https://user:secret@hooks.example.com/x', 'slack', {}, 'The URL must not contain a user name or password.'],
      ['http://127.0.0.1:9/hook', 'telegram', { 'Chat ID': 'c'.repeat(257) }, 'Chat ID must be at most 256 characters.'],
      ['http://127.0.0.1:9/hook', 'discord', { 'Event type': 'e'.repeat(201) }, 'Event type must be at most 200 characters.'],
      ['http://127.0.0.1:9/hook', 'pagerduty', {}, 'PagerDuty requires the routing key in chat_id.'],
    ];
    for (const [url, platform, fields, sentence] of addCases) {
      await add.getByLabel('URL').fill(url);
      await add.getByLabel('Platform').selectOption(platform);
      await add.getByLabel('Event type').fill('');
      // The chat field keeps its text across platforms that show it: each case starts it empty.
      if (platform === 'telegram') await add.getByLabel('Chat ID').fill('');
      if (platform === 'pagerduty') await add.getByLabel('Routing key').fill('');
      for (const [label, value] of Object.entries(fields)) await add.getByLabel(label).fill(value);
      await expectSentence(page, submitAdd, sentence);
      await page.getByText('Failed to add webhook ❌').first().waitFor();
    }
    // Telegram without a chat_id: the spec's text, as a success-style toast (docs/spec/part-1.txt section 8), nothing sent.
    await add.getByLabel('URL').fill('http://127.0.0.1:9/hook');
    await add.getByLabel('Platform').selectOption('telegram');
    await expectSentence(page, submitAdd, 'Telegram requires a chat_id.', () => add.getByLabel('Chat ID').fill(''));
    await walk.views(page, 'webhook-add-refused', async () => {
      await page.reload();
      await add.getByLabel('URL').fill('http://10.0.0.1/hook');
      await submitAdd();
      await add.getByText(/^The destination 10\.0\.0\.1 is not allowed/).waitFor();
    });

    // Edit the saved webhook: the reason shows in the row's form.
    await page.getByRole('button', { name: 'Edit' }).first().click();
    const edit = page.getByRole('form', { name: 'Save' });
    await expectSentence(page, () => edit.getByRole('button', { name: 'Save' }).click(), 'The destination 10.1.2.3 is not allowed: it is a private network address. Use a public host name or IP address.', () => edit.getByLabel('URL').fill('http://10.1.2.3/hook'));
    await expectSentence(page, () => edit.getByRole('button', { name: 'Save' }).click(), 'Resource must be at most 200 characters.', async () => {
      await edit.getByLabel('URL').fill('http://127.0.0.1:9/hook');
      await edit.getByLabel('Resource').fill('r'.repeat(201));
    });
    await page.getByText('Update failed ❌').first().waitFor();

    await page.goto('/backups');
    await page.getByRole('button', { name: /Backup Settings/ }).click();
    const save = page.getByRole('button', { name: /Save Settings/ });
    const setField = async (label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);
    const backupCases: [string, string, string][] = [
      ['Interval (hours)', '0', 'The interval must be at least 1 hour.'],
      ['Database host', 'db;rm -rf', 'Database host must be a host name or an IP address.'],
      ['Port', '70000', 'Database port must be at most 65535.'],
      ['Database host', '10.0.0.5', 'The destination 10.0.0.5 is not allowed: it is a private network address. Use a public host name or IP address.'],
      ['Database name', 'n'.repeat(65), 'Database name must be at most 64 characters.'],
    ];
    for (const [label, value, sentence] of backupCases) {
      // Each case starts from the stored settings: only the field under test is wrong.
      await page.reload();
      await page.getByRole('button', { name: /Backup Settings/ }).click();
      await expectSentence(page, () => save.click(), sentence, () => setField(label, value));
    }
    await page.reload();
    await page.getByRole('button', { name: /Backup Settings/ }).click();
    await page.getByLabel('Scheduled backups enabled').check();
    await expectSentence(page, () => save.click(), 'Scheduled backups need the database host, user and name');
    await walk.views(page, 'backup-settings-refused', async () => {
      await page.reload();
      await page.getByRole('button', { name: /Backup Settings/ }).click();
      await setField('Port', '70000');
      await save.click();
      await page.getByTestId('backup-settings-error').waitFor();
    });
    await context.close();
  });

  it('a member below a screen\'s role who opens it by its address lands on /dashboard, in every theme and size', { timeout: 300_000 }, async () => {
    const refused: [typeof member, readonly string[]][] = [
      [member, ['/backups', '/audit-logs', '/exports', '/webhooks', '/settings', '/server-users', '/billing']],
      [admin, ['/backups', '/server-users', '/billing']],
    ];
    for (const [account, paths] of refused) {
      const token = await signIn(api, account);
      const { context, page } = await newPage({ token, serverId, serverName: null });
      const role = account === member ? 'user' : 'admin';
      for (const path of paths) {
        // Opened by its address once per address, in the first view, where the refusal and the sidebar it
        // lands with are checked; the other three views are that landing after a resize and the theme toggle
        // (the route guard does not depend on the theme or the size, and a load costs about four switches).
        await walk.views(page, `${role}-opens-${path.slice(1)}`, async () => {
          await page.goto(path);
          await page.waitForURL('**/dashboard');
          await page.getByRole('heading', { level: 1, name: `Form Errors ${stamp}` }).waitFor();
          const sidebar = page.getByRole('navigation', { name: 'Server navigation' });
          await expect.poll(() => sidebar.locator('.role-badge').innerText(), POLL).toBe(role.toUpperCase());
          expect(await sidebar.locator(`a[href="${path}"]`).count(), `${account.username}'s sidebar links ${path}`).toBe(0);
          expect(await sidebar.locator('a[href="/dashboard"]').getAttribute('aria-current')).toBe('page');
        });
        expect(new URL(page.url()).pathname, `${account.username} opened ${path}`).toBe('/dashboard');
        // The refused screen's error state never showed on the way.
        expect(await page.getByText(/Failed to load|You do not have permission/).count()).toBe(0);
      }
      await context.close();
    }
    // The owner opens each of them.
    const { context, page } = await newPage({ token: ownerToken, serverId, serverName: null });
    for (const path of ['/backups', '/audit-logs', '/exports', '/webhooks', '/settings', '/server-users', '/billing']) {
      await page.goto(path);
      await page.locator('.app-main h1').first().waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
    }
    await context.close();
  });

  it('the error views pass the accessibility check', () => {
    expect(walk.failing().join('\n\n')).toBe('');
    expect(walk.a11y.length).toBeGreaterThan(0);
  });
});
