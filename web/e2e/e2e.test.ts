// End-to-end in headless Chromium against the real all-in-one server: register, log in, create a
// server, send text logs and a photo through the public API, see them on the dashboard, logs and
// photo-logs pages, enable 2FA, log out and log in again with a code. Every screen is screenshotted
// (light and dark, desktop and mobile) to test-output/e2e/ and checked with axe-core (WCAG 2.1 AA plus
// the heading rules) in each of those four views; the findings are listed at the end. Session
// and data fixes are walked through too, so they cannot regress: precompressed assets, the stored photo
// count under a filter, the dashboard's Other bar, date filters in the browser's own days, token renewal
// (fake clock), a password change with a second tab open, and log out revoking the token.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { TIERS } from '@skald/contracts';
import type { DashboardStats, LogHistogram, ServerUsage } from '@skald/contracts/api';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatViolations } from './accessibility.ts';
import { lastRowTooltip } from './charts.ts';
import { watchContext } from './failure-capture.ts';
import { assetsLoadedBy, builtBrotliBytes, PRECOMPRESSED_FROM_BYTES } from './compression.ts';
import { apiAt, createServer, signIn as signInAs, signUp, waitFor } from './api.ts';
import * as layout from './layout.ts';
import { buildWeb, E2E_SUPPORT_EMAIL, REPO_ROOT, startAllInOne, type RunningServer } from './server.ts';
import { meStatus, readSession, seedSession, waitForMeStatus, type StoredSession } from './session.ts';
import { startStripeTestProcess, stripeSettings, subscribeServer, type StripeTestProcess } from './stripe.ts';
import { localDate, zoneOffTheUtcDate } from './time-zone.ts';
import { CHROMIUM, CHROMIUM_ARGS, DESKTOP, hasChromium, launchChromium, MOBILE, settled, switchTheme, ViewCheck, type ViewOptions } from './walk.ts';
import { startLocalReceiver } from './webhooks.ts';

const SHOTS = join(REPO_ROOT, 'test-output', 'e2e');
/** The build the server serves (gateway/src/web-app.ts DEFAULT_WEB_DIST). */
const WEB_DIST = join(REPO_ROOT, 'web', 'dist');
const DEVICES = [['desktop', DESKTOP], ['mobile', MOBILE]] as const;

const user = { username: `e2e${Date.now().toString(36)}`, email: `e2e${Date.now().toString(36)}@example.com`, password: 'Correct-horse-battery-9' };
/** What the password becomes on /user-settings (the later 2FA sign-in uses it). */
const NEW_PASSWORD = 'Staple-lantern-orbit-4';
/** How hashed assets are cached (gateway/src/web-app.ts); compression must leave it as it is. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

let server: RunningServer;
/** The local Stripe-compatible server the all-in-one's billing talks to (STRIPE_API_BASE). */
let stripe: StripeTestProcess | undefined;
let context: BrowserContext;
let page: Page;
/** A second browser for contexts the main (persistent) one cannot give: another time zone, a fake clock. */
let spare: Browser | undefined;
let profileDir: string;
const consoleErrors: string[] = [];
/** The walkthrough's screenshots (in SHOTS, beside its reports) and its axe findings. */
const walk = new ViewCheck('walkthrough', SHOTS);
/** One entry per page view checked with axe (screen, theme, device). */
const a11yViews = walk.a11y;
let currentStep = 'start';
/** When the walkthrough's first logs were sent (the histogram step sends one two minutes earlier, in another bar). */
let logsSentAt = 0;
/** Seconds per step, written to step-times.json: where the walkthrough's time goes. */
const stepTimes: { step: string; seconds: number; failed?: true }[] = [];

/** `shotOf` names the page to screenshot when the step fails (the main page unless the step drives another). */
async function step<T>(name: string, run: () => Promise<T>, shotOf: () => Page | undefined = () => page): Promise<T> {
  currentStep = name;
  const started = performance.now();
  const took = () => Math.round((performance.now() - started) / 100) / 10;
  try {
    const result = await run();
    stepTimes.push({ step: name, seconds: took() });
    return result;
  } catch (error) {
    stepTimes.push({ step: name, seconds: took(), failed: true });
    // What the page showed when the step failed, for whoever reads the report.
    const shot = join(SHOTS, `failed-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.png`);
    const shown = shotOf();
    await shown?.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    throw new Error(`e2e step failed: ${name} (screenshot ${shot}, at ${shown?.url()})\n${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

async function spareBrowser(): Promise<Browser> {
  spare ??= await launchChromium();
  return spare;
}

/**
 * A fresh context of the spare browser whose page is signed in with `session`, in `timezoneId` if given,
 * with playwright's fake clock installed before anything loads if `fakeClock`. Its page errors count as
 * the walkthrough's console errors.
 */
async function signedInContext(session: StoredSession, options: { timezoneId?: string; fakeClock?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const other = await (await spareBrowser()).newContext({ baseURL: server.baseUrl, viewport: DESKTOP, timezoneId: options.timezoneId });
  const otherPage = await other.newPage();
  otherPage.setDefaultTimeout(20_000);
  otherPage.on('pageerror', (err) => consoleErrors.push(`[${currentStep}] page error (second context): ${err.message}`));
  if (options.fakeClock) await otherPage.clock.install();
  await seedSession(otherPage, session);
  return { context: other, page: otherPage };
}

/**
 * One screen's views (all four unless `devices` narrows them), walked as every browser walk walks them
 * (ViewCheck.views in walk.ts): screenshots in SHOTS, axe's findings in a11yViews, each view shot from the top.
 * `show` brings the screen up, a reload unless given (the step has just shown it); `ready` is awaited after
 * each view is brought up.
 */
async function shootAll(name: string, ready: () => Promise<unknown>, { show = () => page.reload(), ...options }: ViewOptions & { show?: () => Promise<unknown> } = {}): Promise<void> {
  await walk.views(page, name, show, { ready, scrollToTop: true, ...options });
}

async function apiJson(path: string): Promise<{ status: number; total: string | null; body: unknown }> {
  return page.evaluate(async (p) => {
    const res = await fetch(`/api${p}`, { headers: { Authorization: `Bearer ${window.localStorage.getItem('token') ?? ''}` } });
    return { status: res.status, total: res.headers.get('X-Total-Count'), body: await res.json().catch(() => null) };
  }, path);
}

/** POST /api/logs as the game server does: one log, or a batch as an array. */
async function postLogs(apiKey: string, logs: readonly Record<string, unknown>[]): Promise<void> {
  const body = logs.length === 1 ? logs[0] : logs;
  const res = await fetch(`${server.baseUrl}/api/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey }, body: JSON.stringify(body) });
  expect(res.status, `POST /api/logs answered ${res.status}: ${await res.clone().text()}`).toBeLessThan(300);
}

async function totpFor(secret: string, afterStep: number): Promise<{ code: string; step: number }> {
  // The server accepts each time step once (replay protection), so wait for a fresh one.
  while (Math.floor(Date.now() / 30_000) <= afterStep) await new Promise((r) => setTimeout(r, 500));
  const now = Date.now();
  return { code: await generate({ secret, epoch: Math.floor(now / 1000) }), step: Math.floor(now / 30_000) };
}

describe.skipIf(!hasChromium)('web app end to end (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await step('build the web app (npm run build:web)', async () => buildWeb());
    stripe = await step('start the local Stripe test server', () => startStripeTestProcess());
    server = await step('start the all-in-one server', () => startAllInOne(stripeSettings(stripe!)));
    profileDir = mkdtempSync(join(tmpdir(), 'skald-chromium-'));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: DESKTOP,
      baseURL: server.baseUrl,
    });
    watchContext(context);
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`[${currentStep}] ${msg.text()}`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`[${currentStep}] page error: ${err.message}`));
  });

  afterAll(async () => {
    writeFileSync(join(SHOTS, 'step-times.json'), JSON.stringify(stepTimes, null, 2));
    await spare?.close();
    await context?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    await server?.stop();
    await stripe?.stop();
  });

  it('shows the public pages', { timeout: 600_000 }, async () => {
    // First, while the profile is fresh: every asset comes over the wire, none from the cache.
    await step('landing scripts and styles come brotli-compressed', async () => {
      const assets = await assetsLoadedBy(page, async () => {
        await page.goto('/');
        await page.getByRole('heading', { name: 'Logs for your game servers' }).waitFor();
      });
      const listed = (list: typeof assets) => list.map((a) => `${a.path}: ${a.status}, ${a.bytes} B, ${a.contentEncoding ?? 'identity'}, cache-control ${a.cacheControl ?? 'none'}`);
      const worth = assets.filter((a) => a.bytes >= PRECOMPRESSED_FROM_BYTES);
      expect(worth.some((a) => a.kind === 'js') && worth.some((a) => a.kind === 'css'), `scripts and a stylesheet of 1 KiB or more:\n${listed(assets).join('\n')}`).toBe(true);
      // As the browser sent it; a page.route() anywhere in the context would hide it (intercepted requests
      // report no accept-encoding), so the walkthrough routes nothing.
      expect(assets.filter((a) => !/\bbr\b/.test(a.acceptEncoding)).map((a) => `${a.path}: ${a.acceptEncoding}`), 'Chromium asks for br').toEqual([]);
      expect(listed(worth.filter((a) => a.status !== 200 || a.contentEncoding !== 'br')), 'every script and stylesheet of 1 KiB or more is served br').toEqual([]);
      expect(listed(assets.filter((a) => a.cacheControl !== IMMUTABLE)), 'hashed assets keep their immutable caching').toEqual([]);
      // Compressed once at build time (brotli 11), not per request: the bytes sent are the build's .br file.
      const notPrecompressed = worth.filter((a) => a.transferred !== builtBrotliBytes(WEB_DIST, a.path));
      expect(notPrecompressed.map((a) => `${a.path}: ${a.transferred} B sent, the build's .br has ${builtBrotliBytes(WEB_DIST, a.path) ?? 'none'}`), 'what is sent is the brotli copy of the build').toEqual([]);
      const kib = (n: number) => (n / 1024).toFixed(0);
      const sum = (pick: (a: (typeof assets)[number]) => number) => assets.reduce((total, a) => total + pick(a), 0);
      console.log(`landing, first load: ${assets.length} scripts and stylesheets, ${kib(sum((a) => a.bytes))} KiB decoded, ${kib(sum((a) => a.transferred))} KiB over the wire`);
    });

    await step('landing page', async () => {
      await page.goto('/');
      await page.getByRole('heading', { name: 'Logs for your game servers' }).waitFor();
      await shootAll('landing', () => page.getByText('Automated Database Backups').first().waitFor());
    });

    await step('theme toggle switches to dark and is remembered', async () => {
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await page.locator('.skald-dark').waitFor();
      expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');
      await page.reload();
      await page.locator('.skald-dark').waitFor();
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
      await page.locator('.skald-light').waitFor();
    });

    await step('mobile header menu', async () => {
      const openMenu = async () => {
        await page.reload();
        await page.getByRole('button', { name: 'Open menu' }).click();
      };
      // The menu opens over the landing, whose heading (lazily loaded) axe needs under it.
      const menuOverLanding = async () => {
        await page.locator('#mobile-menu').waitFor();
        await page.getByRole('heading', { name: 'Logs for your game servers' }).waitFor();
      };
      await shootAll('header-menu', menuOverLanding, { show: openMenu, devices: ['mobile'] });
    });

    const infoPages = [
      ['docs', '/docs', 'Documentation'],
      ['contact', '/contact', 'Contact support'],
      ['privacy-policy', '/privacy-policy', 'Privacy Policy'],
      ['terms-of-service', '/terms-of-service', 'Terms of Service'],
      ['not-found', '/no-such-page', 'Page not found'],
      ['forgot-password', '/forgot-password', 'Forgot password'],
      ['reset-password', '/reset-password/e2e-token', 'Set New Password'],
    ] as const;
    for (const [name, path, title] of infoPages) {
      await step(`${name} page`, async () => {
        await page.goto(path);
        await shootAll(name, () => page.getByRole('heading', { name: title }).waitFor());
      });
    }
  });

  it('registers, creates a server, shows ingested logs and photos, and signs in again with 2FA', { timeout: 900_000 }, async () => {
    await step('register', async () => {
      await page.goto('/register');
      await shootAll('register', () => page.getByRole('button', { name: 'Register' }).waitFor());
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText('Registered! You can log in now.').waitFor();
      await page.waitForURL(`${server.baseUrl}/`);
    });

    await step('log in', async () => {
      await page.goto('/login');
      await shootAll('login', () => page.getByRole('button', { name: 'Login' }).waitFor());
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByText('Select a server to view the panel.').waitFor();
      await shootAll('dashboard-no-server', () => page.getByText('Select a server to view the panel.').waitFor());
    });

    const apiKey = await step('create a server and read its one-time API key', async () => {
      await page.getByRole('link', { name: 'Create Server' }).first().click();
      await page.waitForURL('**/create-server');
      await shootAll('create-server', () => page.getByLabel('Server name').waitFor());
      await page.getByRole('button', { name: 'Create server' }).click();
      await page.getByText('Give the server a name!').waitFor();
      await page.getByLabel('Server name').fill('E2E Survival');
      await page.getByRole('button', { name: 'Create server' }).click();
      await page.getByText('Save your API key').waitFor();
      const key = (await page.getByTestId('api-key').locator('code').innerText()).trim();
      expect(key.length).toBeGreaterThan(10);
      // The key is shown once: a reload would lose the dialog, so the theme flips in place.
      await shootAll('create-server-key', () => page.getByText('Save your API key').waitFor(), { keepPage: true });
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByText('This server has no logs yet.').waitFor();
      await shootAll('dashboard-empty', () => page.getByText('This server has no logs yet.').waitFor());
      return key;
    });

    await step('send text logs and a photo through the public API', async () => {
      logsSentAt = Date.now();
      const logs = [
        { message: 'Ann joined the server', level: 'info', type: 'Join', resource: 'core', metadata: { player: 'ann', ping: 31 } },
        { message: 'Bob was kicked for spam', level: 'warn', type: 'Moderation', resource: 'admin-tools', metadata: { reason: 'spam' } },
        { message: 'Script error in vehicles', level: 'error', type: 'Script', resource: 'vehicles' },
      ];
      for (const log of logs) {
        const res = await fetch(`${server.baseUrl}/api/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey }, body: JSON.stringify(log) });
        expect(res.status, `POST /api/logs answered ${res.status}: ${await res.clone().text()}`).toBeLessThan(300);
      }
      const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#2f6fdb' } }).png().toBuffer();
      const form = new FormData();
      form.append('message', 'Screenshot of the crash site');
      form.append('level', 'warn');
      form.append('type', 'Screenshot');
      form.append('resource', 'screenshot-basic');
      form.append('metadata', JSON.stringify({ x: 12, y: 40 }));
      form.append('photo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'crash.png');
      const res = await fetch(`${server.baseUrl}/api/photologs`, { method: 'POST', headers: { 'X-API-Key': apiKey }, body: form });
      expect(res.status, `POST /api/photologs answered ${res.status}: ${await res.clone().text()}`).toBeLessThan(300);
      const serverId = await page.evaluate(() => window.localStorage.getItem('serverId'));
      let last = '';
      await waitFor(async () => {
        const text = await apiJson(`/logs/my?serverId=${serverId}&page=1&pageSize=10`);
        const photos = await apiJson(`/photologs/my?serverId=${serverId}&page=1&pageSize=6`);
        last = `logs: ${text.status} total=${text.total}; photologs: ${photos.status} total=${photos.total} ${JSON.stringify(photos.body).slice(0, 300)}`;
        // /logs/my lists text logs; photo logs have their own list.
        return text.total === '3' && photos.total === '1';
      }, 'the 3 text logs and the photo log to be stored').catch((error: unknown) => {
        throw new Error(`${String(error)}; last answer: ${last}\nserver output:\n${server.output().slice(-3000)}`);
      });
    });

    await step('dashboard shows the cards, charts and the recent photo', async () => {
      await page.goto('/dashboard');
      await page.getByText('Total logs').waitFor();
      await page.getByTestId('recent-photo').first().waitFor();
      expect(await page.getByTestId('stat-Total logs').innerText()).toContain('4');
      // The charts come with the lazily loaded echarts chunk, which may arrive after the cards and the photo.
      await page.locator('canvas').nth(3).waitFor();
      expect(await page.locator('canvas').count()).toBeGreaterThanOrEqual(4);
      await shootAll('dashboard', () => page.locator('canvas').first().waitFor());
    });

    // Layout checks are soft: one run reports every one that fails, and the walkthrough goes on.
    await step('header, sidebar and dashboard layout', async () => {
      const header = await layout.headerLinks(page);
      expect.soft(header.logout, 'Log out is set like the header links beside it').toEqual(header.link);
      const side = await layout.sidebar(page);
      expect.soft(side.switcherTitle, 'the server switcher names the server in full').toBe('E2E Survival');
      expect.soft(side.roleToCaption, 'space between the role line and the first group caption').toBeGreaterThanOrEqual(12);
      const dash = await layout.dashboard(page);
      expect.soft(dash.titleToWelcome, 'gap under the title').toBeLessThanOrEqual(8);
      expect.soft(dash.welcomeToStats, 'gap under the welcome line').toBeLessThanOrEqual(24);
      expect.soft(Math.abs(dash.statRowShortBy), 'the five stat cards fill the row').toBeLessThanOrEqual(1);
    });

    await step('mobile sidebar opens from its toggle and closes on the backdrop', async () => {
      await page.setViewportSize(MOBILE);
      // The toggle appears once the app has reacted to the resize; measure only after that.
      await page.locator('.sidebar-toggle').waitFor();
      // The toggle sits in the page flow: it must cover neither the footer nor the page content.
      const overlaps = await page.evaluate(() => {
        const box = (selector: string) => document.querySelector(selector)?.getBoundingClientRect() ?? null;
        const toggle = box('.sidebar-toggle');
        const hits = (other: DOMRect | null) =>
          toggle !== null && other !== null && toggle.left < other.right && other.left < toggle.right && toggle.top < other.bottom && other.top < toggle.bottom;
        return { found: toggle !== null, footer: hits(box('.app-footer')), main: hits(box('.app-main')) };
      });
      expect(overlaps).toEqual({ found: true, footer: false, main: false });
      await page.getByRole('button', { name: 'Server menu' }).click();
      await page.getByTestId('sidebar-backdrop').waitFor();
      const openSidebar = async () => {
        await page.reload();
        await page.getByRole('button', { name: 'Server menu' }).click();
      };
      // The drawer opens over the dashboard, whose heading (lazily loaded) axe needs under it.
      const sidebarOverDashboard = async () => {
        await page.getByTestId('sidebar-backdrop').waitFor();
        await page.getByText('Total logs').waitFor();
      };
      await shootAll('sidebar-open', sidebarOverDashboard, { show: openSidebar, devices: ['mobile'], fullPage: false });
      await page.getByTestId('sidebar-backdrop').click({ position: { x: 350, y: 400 } });
      await page.getByTestId('sidebar-backdrop').waitFor({ state: 'detached' });
      await page.setViewportSize(DESKTOP);
    });

    await step('logs page lists the logs, filters on the server and pages', async () => {
      await page.locator('#server-sidebar').getByRole('link', { name: 'Logs', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/logs');
      await page.getByTestId('log-card').nth(2).waitFor();
      await page.getByText('Page 1 of 1').waitFor();
      await page.getByText('[Type: Moderation] via admin-tools').waitFor();
      await page.getByRole('button', { name: /Show filters/ }).click();
      await page.getByLabel('Search', { exact: true }).fill('kicked');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="log-card"]').length === 1);
      // Keyboard: the metadata toggle is a native summary that Enter opens.
      await page.getByText('View metadata').first().focus();
      await page.keyboard.press('Enter');
      await page.getByText('"reason": "spam"').waitFor();
      await page.getByLabel('Per page').selectOption('25');
      await page.getByText('Page 1 of 1').waitFor();
      await shootAll('logs', () => page.getByTestId('log-card').first().waitFor());
      // The filters panel is the page's widest layout: check it open too.
      const openFilters = async () => {
        await page.reload();
        await page.getByRole('button', { name: /Show filters/ }).click();
      };
      await shootAll('logs-filters', () => page.getByLabel('Date to').waitFor(), { show: openFilters });
      for (const [device, size] of DEVICES) {
        await page.setViewportSize(size);
        const bar = await layout.logsToolbar(page);
        expect.soft(bar.toggleWidth, `${device}: the filters toggle keeps its own width`).toBeLessThan(Math.min(200, bar.mainWidth / 2));
        expect.soft(bar.pageSizeOnToggleRow, `${device}: Per page stays on the toggle's row`).toBe(true);
        expect.soft(bar.filtersBelowToggle, `${device}: the open filters sit below the toggle`).toBe(true);
        const title = await layout.pageTitle(page);
        expect.soft(title.size, `${device}: title size`).toBeLessThanOrEqual(device === 'mobile' ? 20 : 24);
        expect.soft(title.lines, `${device}: 'Logs – E2E Survival' fits one line`).toBe(1);
      }
      await page.setViewportSize(DESKTOP);
    });

    await step('logs histogram: the matching logs over time by level; a bar click narrows the list', async () => {
      // A log that happened two minutes before the first ones (its own timestamp, as a client that retries
      // after an outage sends it), so the two sit in different bars whatever step is chosen: no waiting a minute.
      await postLogs(apiKey, [{ message: 'Server restart requested', level: 'fatal', type: 'Restart', resource: 'txadmin', timestamp: new Date(logsSentAt - 120_000).toISOString() }]);
      const serverId = await page.evaluate(() => window.localStorage.getItem('serverId'));
      await waitFor(async () => (await apiJson(`/logs/my?serverId=${serverId}&page=1&pageSize=1`)).total === '4', 'the fourth text log to be stored');
      // The unfiltered list: the address keeps the last step's search, so a reload would keep it too.
      await page.goto('/logs');
      const chart = page.locator('.log-histogram-chart canvas');
      await chart.first().waitFor();
      await page.getByText(/^4 matching logs, /).waitFor();
      const histogram = (await apiJson(`/logs/my/histogram?serverId=${serverId}&timeZone=${encodeURIComponent(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone))}`)).body as LogHistogram;
      expect(histogram.total).toBe(4);
      const filled = histogram.buckets.flatMap((b, i) => (b.total > 0 ? [i] : []));
      expect(filled.length, 'the early log has a bar of its own').toBeGreaterThanOrEqual(2);
      const summary = await page.locator('.log-histogram-chart').getAttribute('aria-label');
      expect(summary).toMatch(/^Histogram of 4 matching logs in \d+ .* bars/);
      await shootAll('logs-histogram', () => page.getByText(/^4 matching logs, /).waitFor());
      for (const [device, size] of DEVICES) {
        await page.setViewportSize(size);
        await chart.first().waitFor();
        const box = await page.locator('.log-histogram').boundingBox();
        const main = await page.locator('.app-main').boundingBox();
        expect.soft(box && main && box.x + box.width <= main.x + main.width + 1, `${device}: the histogram stays inside the page`).toBe(true);
        expect.soft(box?.height ?? 0, `${device}: the histogram stays compact`).toBeLessThanOrEqual(160);
      }
      await page.setViewportSize(DESKTOP);
      // echarts follows its container's width a moment after the resize: measure the canvas only then.
      await page.waitForFunction(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('.log-histogram-chart canvas');
        const box = document.querySelector('.log-histogram-chart');
        return Boolean(canvas && box && Math.abs(canvas.getBoundingClientRect().width - box.getBoundingClientRect().width) <= 1);
      });
      // Click the first bar's column (the early log): the list and the histogram narrow to its time range.
      const first = filled[0]!;
      const canvas = await chart.first().boundingBox();
      if (!canvas) throw new Error('no histogram canvas');
      // The chart's grid insets (HistogramChart.tsx: left 40, right 8); any point in the column picks the bar.
      const plotLeft = 40;
      const plotWidth = canvas.width - plotLeft - 8;
      const narrowed = page.waitForRequest((r) => {
        const url = new URL(r.url());
        return url.pathname === '/api/logs/my' && url.searchParams.get('timeFrom') === histogram.buckets[first]!.from && url.searchParams.get('timeTo') === histogram.buckets[first]!.to;
      });
      await chart.first().click({ position: { x: plotLeft + (first + 0.5) * (plotWidth / histogram.buckets.length), y: 60 } });
      await narrowed;
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="log-card"]').length === 1);
      await page.getByText('Server restart requested').waitFor();
      await page.getByRole('button', { name: /^Clear the time range/ }).waitFor();
      await page.getByText(/^1 matching log, /).waitFor();
      await shootAll('logs-histogram-narrowed', () => page.getByRole('button', { name: /^Clear the time range/ }).waitFor(), { keepPage: true });
      for (const [device, size] of DEVICES) {
        await page.setViewportSize(size);
        await settled(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect.soft(overflow, `${device}: the narrowed view does not scroll sideways`).toBeLessThanOrEqual(1);
      }
      await page.setViewportSize(DESKTOP);
      await page.getByRole('button', { name: /^Clear the time range/ }).click();
      await page.getByTestId('log-card').nth(3).waitFor();
    });

    await step('photo logs page shows the photo, count line and the keyboard viewer', async () => {
      await page.locator('#server-sidebar').getByRole('link', { name: 'Photo Logs' }).click();
      await page.waitForURL((url) => url.pathname === '/photologs');
      await page.getByText(/^1 \/ \d+ photologs stored\.$/).waitFor();
      const thumb = page.getByTestId('photo-card').first().locator('img');
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="photo-card"] img');
        return Boolean(img && img.complete && img.naturalWidth > 0);
      });
      expect(await thumb.getAttribute('src')).toMatch(/^\/api\//);
      await page.getByRole('button', { name: /Open photo/ }).first().focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Photo viewer' }).waitFor();
      await page.keyboard.press('ArrowRight');
      await page.getByText('1 / 1 — Screenshot of the crash site').waitFor();
      await shootAll('photo-viewer', () => page.getByRole('dialog', { name: 'Photo viewer' }).waitFor(), { keepPage: true, fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Photo viewer' }).waitFor({ state: 'detached' });
      // Focus returns to the card that opened the viewer.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(/^Open photo/);
      await page.getByTestId('log-histogram').locator('canvas').waitFor();
      await shootAll('photologs', () => page.getByTestId('log-histogram').locator('canvas').waitFor());
    });

    await step('photo logs: a level filter matching nothing still counts the stored photo', async () => {
      const { serverId } = await readSession(page);
      const usage = (await apiJson(`/server/usage/${serverId}`)).body as ServerUsage;
      const tier = TIERS.find((t) => t.label === usage.tierLabel);
      if (!tier) throw new Error(`no tier labelled ${usage.tierLabel}`);
      const countLine = `1 / ${tier.maxPhotoLogs} photologs stored.`;
      // The one photo is a warn log, so level error matches none.
      const filterOnError = async () => {
        await page.reload();
        await page.getByRole('button', { name: /Show filters/ }).click();
        await page.locator('.ant-select:has(#filter-level)').click();
        await page.locator('.ant-select-dropdown').getByTitle('error', { exact: true }).click();
      };
      const filtered = async () => {
        await page.getByText('No photo logs found.').waitFor();
        await page.getByText(countLine, { exact: true }).waitFor();
      };
      await filterOnError();
      await filtered();
      await shootAll('photologs-no-match', filtered, { show: filterOnError, eachView: true });
    });

    await step('dashboard: past 10 resources, the top 10, a note and an Other bar', async () => {
      const { serverId } = await readSession(page);
      const stats = async () => (await apiJson(`/logs/stats?serverId=${serverId}`)).body as DashboardStats;
      const before = await stats();
      const known = before.perResource.length + before.perResourceOther.names;
      const resources = 13;
      const hidden = resources - 10;
      const heartbeats = Array.from({ length: resources - known }, (_, i) => ({ message: `Heartbeat from zone ${i + 1}`, level: 'info', type: 'Heartbeat', resource: `zone-${String(i + 1).padStart(2, '0')}` }));
      await postLogs(apiKey, heartbeats);
      await waitFor(async () => (await stats()).perResourceOther.names === hidden, `the stats to hold ${resources} resources`);
      await page.goto('/dashboard');
      const note = page.getByText(new RegExp(`^Top 10 of ${resources} resources\\b`));
      await note.waitFor();
      const tooltip = await lastRowTooltip(page, page.getByRole('img', { name: /^Logs per resource\b/ }));
      expect(tooltip, 'the last bar of Logs per resource').toContain(`Other (${hidden})`);
      await shootAll('dashboard-other', () => note.waitFor());
    });

    let zonedPage: Page | undefined;
    await step('Date from = Date to = the local today, in a zone off the UTC date, shows a log sent just now', async () => {
      const session = await readSession(page);
      const zone = zoneOffTheUtcDate(new Date());
      const { context: zoned, page: zp } = await signedInContext(session, { timezoneId: zone });
      zonedPage = zp;
      try {
        const countLogs = async () => Number((await apiJson(`/logs/my?serverId=${session.serverId}&page=1&pageSize=1`)).total);
        const before = await countLogs();
        const message = `Clock check ${Date.now().toString(36)}`;
        await postLogs(apiKey, [{ message, level: 'info', type: 'Join', resource: 'core' }]);
        await waitFor(async () => (await countLogs()) === before + 1, 'the log to be stored');
        await zp.goto('/logs');
        await zp.getByTestId('log-card').first().waitFor();
        const today = await zp.evaluate(() => {
          const d = new Date();
          const pad = (n: number) => String(n).padStart(2, '0');
          return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
        });
        const utcToday = new Date().toISOString().slice(0, 10);
        expect(today, `the browser's date in ${zone}`).toBe(localDate(new Date(), zone));
        expect(today, `the local date in ${zone} is not the UTC date`).not.toBe(utcToday);
        await zp.getByRole('button', { name: /Show filters/ }).click();
        const setDay = async (day: string) => {
          const answered = zp.waitForResponse((r) => {
            const url = new URL(r.url());
            return url.pathname === '/api/logs/my' && url.searchParams.get('dateFrom') === day && url.searchParams.get('dateTo') === day;
          });
          await zp.getByLabel('Date from').fill(day);
          await zp.getByLabel('Date to').fill(day);
          expect((await answered).status()).toBe(200);
        };
        const card = zp.getByTestId('log-card').filter({ hasText: message });
        // The UTC date is another day there: the log is not in it (UTC days would have shown it).
        await setDay(utcToday);
        await expect.poll(() => card.count(), { message: `the log is not on ${utcToday} in ${zone}` }).toBe(0);
        await setDay(today);
        await card.waitFor();
      } finally {
        await zoned.close();
      }
    }, () => zonedPage);

    let usedStep = 0;
    const secret = await step('enable 2FA in user settings', async () => {
      await page.getByRole('link', { name: 'User Settings' }).first().click();
      await page.waitForURL('**/user-settings');
      await shootAll('user-settings', () => page.getByRole('button', { name: 'Enable 2FA' }).waitFor());
      const startSetup = async () => {
        await page.reload();
        await page.getByRole('button', { name: 'Enable 2FA' }).click();
      };
      await shootAll('user-settings-2fa-setup', () => page.getByAltText('2FA QR code').waitFor(), { show: startSetup, eachView: true });
      const text = (await page.getByTestId('twofa-secret').innerText()).trim();
      expect(text).toMatch(/^[A-Z2-7]+=*$/);
      const { code, step: s } = await totpFor(text, 0);
      usedStep = s;
      await page.getByLabel('2FA code').fill(code);
      await page.getByRole('button', { name: 'Verify and enable' }).click();
      await page.getByText('2FA successfully activated').waitFor();
      await page.getByRole('button', { name: 'Disable 2FA' }).waitFor();
      return text;
    });

    let clockedPage: Page | undefined;
    await step('a tab left open renews its token before the hour is up', async () => {
      const session = await readSession(page);
      const { context: clocked, page: cp } = await signedInContext(session, { fakeClock: true });
      clockedPage = cp;
      try {
        await cp.goto('/dashboard');
        await cp.getByText('Total logs').waitFor();
        const refreshed = cp.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/auth/refresh');
        // Tokens live an hour and the tab renews 5 minutes before the end: the lid closes for 56 minutes.
        await cp.clock.fastForward('56:00');
        expect((await refreshed).status(), 'POST /api/auth/refresh').toBe(200);
        // Polled from here, not in the page: its timers are the fake clock's.
        await waitFor(async () => (await readSession(cp)).token !== session.token, 'the renewed token to be stored', 10_000);
        const renewed = await readSession(cp);
        expect(await meStatus(server.baseUrl, renewed.token), 'GET /api/auth/me with the renewed token').toBe(200);
        await cp.reload();
        await cp.getByText('Total logs').waitFor();
        expect(new URL(cp.url()).pathname).toBe('/dashboard');
      } finally {
        await clocked.close();
      }
    }, () => clockedPage);

    let secondTab: Page | undefined;
    await step('a password change keeps this tab and a second one signed in and revokes the old token', async () => {
      const before = await readSession(page);
      const tab = await context.newPage();
      secondTab = tab;
      tab.on('pageerror', (err) => consoleErrors.push(`[${currentStep}] page error (second tab): ${err.message}`));
      await tab.goto('/dashboard');
      await tab.getByText('Total logs').waitFor();
      await page.bringToFront();
      await page.goto('/user-settings');
      await page.getByLabel('Current password').fill(user.password);
      await page.getByLabel('New password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('Password updated.').waitFor();
      user.password = NEW_PASSWORD;
      const after = await readSession(page);
      expect(after.token, 'the token the answer carried is stored').not.toBe(before.token);
      await waitForMeStatus(server.baseUrl, before.token, 401);
      expect(await meStatus(server.baseUrl, after.token), 'GET /api/auth/me with the stored token').toBe(200);
      await page.reload();
      await page.getByRole('button', { name: 'Change Password' }).waitFor();
      for (const [device, size] of DEVICES) {
        await page.setViewportSize(size);
        await page.goto('/dashboard');
        await page.reload();
        await page.getByText('Total logs').waitFor();
        expect(new URL(page.url()).pathname, `${device}: still signed in after reloading`).toBe('/dashboard');
      }
      await page.setViewportSize(DESKTOP);
      // The other tab's next call (a navigation here) goes out with the token this tab stored.
      await tab.bringToFront();
      const listed = tab.waitForRequest((r) => new URL(r.url()).pathname === '/api/logs/my');
      await tab.locator('#server-sidebar').getByRole('link', { name: 'Logs', exact: true }).click();
      expect(await (await listed).headerValue('authorization'), 'the second tab follows the token the first stored').toBe(`Bearer ${after.token}`);
      await tab.getByTestId('log-card').first().waitFor();
      expect(new URL(tab.url()).pathname, 'the second tab stays signed in').toBe('/logs');
      await tab.close();
      await page.bringToFront();
    }, () => secondTab ?? page);

    await step('the server settings screen', async () => {
      await page.goto('/settings');
      await shootAll('settings', () => page.getByRole('heading', { name: 'Server settings' }).waitFor());
    });

    await step('log out clears local storage, shows the landing and revokes the token', async () => {
      const { token } = await readSession(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      await page.getByRole('heading', { name: 'Logs for your game servers' }).waitFor();
      expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
      await waitForMeStatus(server.baseUrl, token, 401);
      await page.goto('/dashboard');
      await page.waitForURL(`${server.baseUrl}/`);
    });

    await step('log in again with a 2FA code', async () => {
      await page.goto('/login');
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByText('Enter 2FA code').waitFor();
      // The code step lives in the page's state: each view signs in again up to it.
      const reachCodeStep = async () => {
        await page.goto('/login');
        await page.getByLabel('Username').fill(user.username);
        await page.getByLabel('Password').fill(user.password);
        await page.getByRole('button', { name: 'Login' }).click();
      };
      await shootAll('login-2fa', () => page.getByText('Enter 2FA code').waitFor(), { show: reachCodeStep, eachView: true });
      const { code } = await totpFor(secret, usedStep);
      await page.getByLabel('Digit 1').focus();
      await page.keyboard.type(code);
      await page.getByRole('button', { name: 'Verify 2FA' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByText('Total logs').waitFor();
    });

    await step('log out from the phone menu in the dark theme: landing shown, token revoked', async () => {
      await page.setViewportSize(MOBILE);
      await switchTheme(page, 'dark');
      const { token } = await readSession(page);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.locator('#mobile-menu').getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      await page.getByRole('heading', { name: 'Logs for your game servers' }).waitFor();
      expect(await page.evaluate(() => window.localStorage.getItem('token')), 'no token stored').toBeNull();
      await waitForMeStatus(server.baseUrl, token, 401);
      await page.setViewportSize(DESKTOP);
    });

    await step('no console errors', async () => {
      expect(consoleErrors).toEqual([]);
    });
  });

  it('subscription plans: 8 cards, Upgrade to the checkout, the return banners, a webhook moves the tier', { timeout: 600_000 }, async () => {
    const payments = stripe!;
    const owner = { username: `pay${Date.now().toString(36)}`, password: 'Ledger-harbour-quill-7' };
    const { token, serverId } = await step('an owner and a server for billing (API)', async () => {
      const api = apiAt(server.baseUrl);
      const token = await signUp(api, owner);
      const created = await createServer(api, token, 'E2E Billing');
      await seedSession(page, { token, serverId: created.id, serverName: created.name });
      return { token, serverId: created.id };
    });
    const card = (tier: string) => page.locator(`[data-testid="plan-card"][data-tier="${tier}"]`);
    const currentPlan = page.getByText('Current Plan', { exact: true });
    const upgrades = page.getByRole('button', { name: /^Upgrade to / });

    await step('/billing: 8 plan cards, Current Plan on free, Upgrade on every higher tier', async () => {
      await page.goto('/billing');
      await page.getByTestId('plan-card').nth(7).waitFor();
      expect(await page.getByTestId('plan-card').count()).toBe(8);
      await card('free').getByText('Current Plan', { exact: true }).waitFor();
      expect(await currentPlan.count(), "one card says 'Current Plan'").toBe(1);
      expect(await upgrades.count()).toBe(7);
      expect(await card('free').getByRole('button', { name: /^Upgrade/ }).count()).toBe(0);
      // The tiers' alert rules and evidence cases, as the server's catalogue gives them (docs/TIERS.md).
      for (const line of ['0 alert rules', '3 evidence cases']) await card('free').getByText(line, { exact: true }).waitFor();
      for (const line of ['100 alert rules', '1,000 evidence cases']) await card('legend').getByText(line, { exact: true }).waitFor();
      await shootAll('billing', () => card('free').getByText('Current Plan', { exact: true }).waitFor());
    });

    await step('Upgrade lands on the test server checkout with the price and the server', async () => {
      await card('starter').getByRole('button', { name: 'Upgrade to Starter' }).click();
      await page.waitForURL(`${payments.url}/checkout/**`);
      const sent = (await payments.requests()).filter((r) => r.path === '/v1/checkout/sessions' && r.params['metadata[serverId]'] === serverId);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.params).toMatchObject({ 'line_items[0][price]': 'price_starter', 'metadata[serverId]': serverId, client_reference_id: serverId });
      expect(sent[0]!.params.success_url).toMatch(/\/billing\?success=true$/);
      expect(sent[0]!.params.cancel_url).toMatch(/\/billing\?canceled=true$/);
    });

    const cleaned = () => page.waitForURL((url) => url.pathname === '/billing' && url.search === '');
    await step('returning with ?success=true shows the green banner and cleans the address', async () => {
      const ready = async () => {
        await page.getByText('Payment succesful! Your subscription has been upgraded.', { exact: true }).waitFor();
        await cleaned();
      };
      await page.goto('/billing?success=true');
      await ready();
      await shootAll('billing-success', ready, { show: () => page.goto('/billing?success=true'), eachView: true });
    });

    await step('returning with ?canceled=true shows the red banner and cleans the address', async () => {
      await page.goto('/billing?canceled=true');
      await page.getByText('Payment cancelled. No charges were made.', { exact: true }).waitFor();
      await cleaned();
      expect(await page.getByText('Payment succesful! Your subscription has been upgraded.').count()).toBe(0);
    });

    await step('a signed webhook moves the tier to Pro; the open screen follows within its 10 s refresh', async () => {
      await page.goto('/billing');
      await card('free').getByText('Current Plan', { exact: true }).waitFor();
      const customerId = (await payments.requests()).find((r) => r.path === '/v1/checkout/sessions' && r.params['metadata[serverId]'] === serverId)!.params.customer!;
      const subscription = { id: `sub_e2e_${serverId}`, customerId, status: 'active', priceId: 'price_pro', serverId };
      await payments.putSubscription(subscription);
      const signed = await payments.sign({ type: 'customer.subscription.updated', subscription });
      const sentAt = Date.now();
      const res = await fetch(`${server.baseUrl}/api/billing/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signed.signature },
        body: signed.body,
      });
      expect(res.status, `POST /api/billing/webhook answered ${res.status}: ${await res.clone().text()}`).toBe(200);
      await card('pro').getByText('Current Plan', { exact: true }).waitFor({ timeout: 15_000 });
      expect(Date.now() - sentAt, 'the screen followed within one 10 s refresh (and the request)').toBeLessThan(12_000);
      expect(await currentPlan.count()).toBe(1);
      // An active subscription: plan changes go through the portal, no card offers Upgrade.
      expect(await upgrades.count()).toBe(0);
      const tier = (await fetch(`${server.baseUrl}/api/tiers/current-tier/${serverId}`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json())) as { tierKey: string; subscriptionStatus: string };
      expect(tier).toMatchObject({ tierKey: 'pro', subscriptionStatus: 'active' });
      await shootAll('billing-subscribed', () => card('pro').getByText('Current Plan', { exact: true }).waitFor());
    });

    await step('Manage Subscription lands on the test server portal', async () => {
      await page.getByRole('button', { name: 'Manage Subscription' }).click();
      await page.waitForURL(`${payments.url}/portal/**`);
      await page.goto('/');
    });

    await step('no console errors on the billing screens', async () => {
      expect(consoleErrors).toEqual([]);
    });
  });

  it('shows the documentation and legal pages, resets the API key in the settings, and adds and removes a server user', { timeout: 600_000 }, async () => {
    const docsPages = [
      ['docs-setup', '/docsapi/setup', 'Setup', 'Try it with curl'],
      ['docs-logs-api', '/docsapi/logs', 'Logs API', 'up to 1000 logs as a JSON array'],
      ['docs-photologs-api', '/docsapi/photologs', 'Photo logs API', 'JPG, PNG or WEBP'],
      ['features', '/features', 'Features', 'Forward logs to Discord'],
      ['features-apitokens', '/features/apitokens', 'API tokens', 'The old key stops working immediately'],
      ['features-servers', '/features/servers', 'Servers and roles', 'Full control, including adding and removing users'],
      ['features-backups', '/features/backups', 'Database backups', 'Use a read-only database user'],
      ['features-webhooks', '/features/webhooks', 'Webhooks', "dead-letter queue"],
      ['games-fivem', '/games/fivem', 'FiveM', 'set skald_api_key "YOUR_API_KEY"'],
      ['games-minecraft', '/games/minecraft', 'Minecraft', 'Paper, Spigot and Folia: the plugin'],
    ] as const;
    for (const [name, path, title, keyText] of docsPages) {
      await step(`${name} page`, async () => {
        await page.goto(path);
        await shootAll(name, () => page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor());
        await page.getByText(keyText).first().waitFor();
        // Copyable examples are addressed to this installation.
        if (path === '/docsapi/logs') await page.getByText(`curl -X POST ${server.baseUrl}/api/logs`).first().waitFor();
      });
    }

    await step('privacy policy and terms: support address from SUPPORT_EMAIL, retention table from GET /tiers', async () => {
      await page.goto('/privacy-policy');
      await page.getByRole('heading', { name: '8. International transfers' }).waitFor();
      expect(await page.getByRole('link', { name: E2E_SUPPORT_EMAIL }).getAttribute('href')).toBe(`mailto:${E2E_SUPPORT_EMAIL}`);
      await page.goto('/terms-of-service');
      await page.getByRole('heading', { name: '14. Governing law' }).waitFor();
      const table = page.getByTestId('tier-table');
      for (const tier of TIERS) await table.getByRole('row', { name: `${tier.label} ${tier.retentionDays}` }).waitFor();
    });

    // An owner and a second account, made through the API (the first walkthrough's user has 2FA on).
    const stamp = Date.now().toString(36);
    const owner = { username: `owner${stamp}`, email: `owner${stamp}@example.com`, password: user.password };
    const member = { username: `member${stamp}`, email: `member${stamp}@example.com`, password: user.password };
    const api = apiAt(server.baseUrl);
    // Each accepted check stores a log: counted, so Delete Logs can be checked to the number.
    let acceptedChecks = 0;
    const ingestStatus = async (apiKey: string) => {
      const res = await fetch(`${server.baseUrl}/api/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey }, body: JSON.stringify({ message: 'key check' }) });
      await res.arrayBuffer();
      if (res.status === 201) acceptedChecks += 1;
      return res.status;
    };

    const created = await step('an owner with a server, and a second account', async () => {
      await signUp(api, member);
      const token = await signUp(api, owner);
      const serverInfo = await createServer(api, token, 'E2E Keys');
      await waitFor(async () => (await ingestStatus(serverInfo.api_key)) === 201, 'the new key accepted at ingestion');
      await seedSession(page, { token, serverId: serverInfo.id, serverName: serverInfo.name });
      return serverInfo;
    });

    await step('server settings: reset the API key; the old key stops working at ingestion', async () => {
      await page.goto('/settings');
      await shootAll('server-settings', () => page.getByRole('heading', { level: 1, name: 'Server settings: E2E Keys' }).waitFor());
      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Reset the API key?' });
      await confirm.waitFor();
      // The dialog zooms in: a click during that animation was once lost under load (the dialog stayed open);
      // a person clicks the settled dialog, and so does the walk.
      await settled(page);
      await confirm.getByRole('button', { name: 'Reset' }).click();
      const shown = page.getByRole('dialog', { name: 'Your new API key' });
      const newKey = (await shown.getByTestId('api-key').locator('code').innerText()).trim();
      expect(newKey.length).toBeGreaterThan(10);
      expect(newKey).not.toBe(created.api_key);
      await shootAll('server-settings-new-key', () => shown.waitFor(), { keepPage: true });
      await shown.getByRole('button', { name: 'I have saved it' }).click();
      await shown.waitFor({ state: 'hidden' });
      await waitFor(async () => [401, 403].includes(await ingestStatus(created.api_key)), 'the old key refused at ingestion');
      await waitFor(async () => (await ingestStatus(newKey)) === 201, 'the new key accepted at ingestion');
    });

    await step('server settings: Delete Logs with 0 days deletes every log', async () => {
      await waitFor(async () => (await apiJson(`/logs/my?serverId=${created.id}`)).total === String(acceptedChecks), 'every accepted key check stored');
      await page.getByLabel('Days').fill('0');
      await page.getByRole('button', { name: 'Delete Logs' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete logs?' });
      await confirm.waitFor();
      await settled(page); // the dialog zooms in, as the API key's one above
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText(`Logs deleted: ${acceptedChecks}`).waitFor();
      expect((await apiJson(`/logs/my?serverId=${created.id}`)).total).toBe('0');
    });

    await step('server users: add a member, then remove them', async () => {
      await page.goto('/server-users');
      await shootAll('server-users', () => page.getByTestId('user-count').getByText('1 / 2 users').waitFor());
      await page.getByRole('button', { name: 'Add user' }).click();
      const form = page.getByRole('form', { name: 'Add user' });
      await form.getByLabel('E-mail').fill(member.email);
      await form.getByRole('button', { name: 'Add user' }).click();
      await page.getByText('Successfully added user to the dashboard').waitFor();
      const row = page.locator(`[data-testid="server-user-row"][data-user="${member.email}"]`);
      await row.waitFor();
      await page.getByTestId('user-count').getByText('2 / 2 users').waitFor();
      expect(await row.getByRole('combobox', { name: `Role of ${member.email}` }).count()).toBe(1);
      await shootAll('server-users-member', () => row.waitFor());
      await row.getByRole('button', { name: `Delete ${member.email}` }).click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('Succesfully removed user from the dashboard').waitFor();
      await row.waitFor({ state: 'detached' });
      await page.getByTestId('user-count').getByText('1 / 2 users').waitFor();
      const listed = await apiJson(`/manage/server/${created.id}/users`);
      expect((listed.body as { email: string }[]).map((u) => u.email)).toEqual([owner.email]);
    });

    await step('no console errors', async () => {
      expect(consoleErrors).toEqual([]);
    });
  });

  it('exports CSV and PDF as downloads, hits the monthly limit, and lists its own actions in the audit logs', { timeout: 600_000 }, async () => {
    const api = apiAt(server.baseUrl);
    const owner = { username: `aud${Date.now().toString(36)}`, password: 'Audit-trail-lantern-7' };
    const { serverId, token } = await step('an owner with a server, renamed, its key reset and colours saved (through the API)', async () => {
      const session = await signUp(api, owner);
      const { id } = await createServer(api, session, 'E2E Audit');
      await api.ok('PATCH', '/settings/server-name', { token: session, body: { serverId: id, newName: 'E2E Audit Trail' } });
      await api.ok('POST', `/settings/api-key/reset?serverId=${id}`, { token: session });
      await waitFor(async () => (await api.call('GET', `/settings/levels?serverId=${id}`, { token: session })).status === 200, 'logs to know the server');
      await api.ok('PUT', `/settings/colors?serverId=${id}`, { token: session, body: { info: { bg_color: '#1d4ed8', text_color: '#ffffff' } } });
      await seedSession(page, { token: session, serverId: id, serverName: 'E2E Audit Trail' });
      return { serverId: id, token: session };
    });

    const today = () => page.evaluate(() => {
      const now = new Date();
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    });

    await step('/exports: a CSV and a PDF arrive as downloads and the month counts them', async () => {
      await page.goto('/exports');
      await page.getByText('0 / 2 exports used this month').waitFor();
      await shootAll('exports', () => page.getByRole('button', { name: 'Export Custom Selection CSV' }).waitFor());
      const csvDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export Logs as CSV' }).click();
      const csv = await csvDownload;
      expect(csv.suggestedFilename()).toBe(`logs-${await today()}.csv`);
      expect(readFileSync(await csv.path(), 'utf8').split('\r\n')[0]).toBe('id,created_at,level,type,resource,message,metadata');
      await page.getByText('1 / 2 exports used this month').waitFor();
      const pdfDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export Audit Logs as PDF' }).click();
      const pdf = await pdfDownload;
      expect(pdf.suggestedFilename()).toBe(`auditlogs-${await today()}.pdf`);
      expect(readFileSync(await pdf.path()).subarray(0, 5).toString()).toBe('%PDF-');
      await page.getByText('2 / 2 exports used this month').waitFor();
    });

    await step("/exports: past the limit the custom export opens 'Export limit reached'", async () => {
      await page.getByRole('button', { name: 'Export Custom Selection CSV' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText("You've reached your export limit for this month. Please try again later.").waitFor();
      expect(await dialog.getByText('Export limit reached').count()).toBe(1);
      await shootAll('exports-limit', () => page.getByRole('dialog').getByText('Export limit reached').waitFor(), { keepPage: true });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await apiJson(`/exports/status?serverId=${serverId}`)).toMatchObject({ status: 200, body: { used: 2, limit: 2 } });
    });

    await step("/audit-logs lists the walkthrough's own actions", async () => {
      const own = ['server.created', 'server.renamed', 'apikey.rotated', 'logs.colors-saved', 'export.made', 'export.made'];
      await waitFor(async () => {
        const trail = await fetch(`${server.baseUrl}/api/server/${serverId}/audit-logs`, { headers: { Authorization: `Bearer ${token}` } });
        return ((await trail.json()) as { total?: number }).total === own.length;
      }, 'the audit trail to hold every action');
      await page.goto('/audit-logs');
      await page.getByTestId('audit-row').first().waitFor();
      const actions = await page.getByTestId('audit-row').locator('td:nth-child(3)').allInnerTexts();
      expect([...actions].sort()).toEqual([...own].sort());
      expect(await page.getByTestId('audit-row').first().locator('td:nth-child(2)').innerText()).toBe(`${owner.username}@example.com`);
      await shootAll('audit-logs', () => page.getByTestId('audit-row').first().waitFor());
      await page.getByLabel('Action').selectOption('export.made');
      await waitFor(async () => (await page.getByTestId('audit-row').count()) === 2, 'the Action filter');
      await page.getByLabel('Action').selectOption('logs.deleted');
      await page.getByText('No logs found').waitFor();
    });

    await step('no console errors (exports and audit logs)', async () => {
      // The browser reports the refused export (429) itself: that one is the step's purpose.
      const limitStep = "[/exports: past the limit the custom export opens 'Export limit reached']";
      const expected = (e: string) => e.startsWith(limitStep) && e.includes('status of 429');
      expect(consoleErrors.filter((e) => !expected(e))).toEqual([]);
      // Later walkthroughs check the same list: the expected refusal is this step's, so it leaves with it.
      consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !expected(e)));
    });
  });

  it('adds a webhook, sends a test, sees a failed attempt and a dead letter, replays it', { timeout: 600_000 }, async () => {
    // Its own all-in-one: a local receiver allowed through OUTBOUND_ALLOWED_HOSTS, billing through the shared
    // Stripe test server, so a signed subscription event gives the new server a tier with webhooks.
    const receiver = await startLocalReceiver();
    const own = await step('start an all-in-one server for the webhooks walkthrough', () => startAllInOne({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ...stripeSettings(stripe!) }));
    const mainPage = page;
    try {
      const ownApi = apiAt(own.baseUrl);
      const session = await step('webhooks: an owner whose server is on the Starter tier', async () => {
        const token = await signUp(ownApi, { username: `hooks${Date.now().toString(36)}`, password: 'Lantern-harbour-orbit-7' });
        const created = await createServer(ownApi, token, 'E2E Webhooks');
        await subscribeServer(ownApi, stripe!, { token, serverId: created.id, tier: 'starter' });
        await waitFor(async () => (await ownApi.call('GET', `/webhooks?serverId=${created.id}`, { token })).body['limit'] === 2, 'the webhooks service to see the Starter tier');
        return { token, serverId: created.id, serverName: created.name, apiKey: created.api_key };
      });

      // A context of the spare browser on this walkthrough's own server, signed in as its owner.
      const other = await (await spareBrowser()).newContext({ baseURL: own.baseUrl, viewport: DESKTOP });
      page = await other.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (err) => consoleErrors.push(`[${currentStep}] page error (webhooks): ${err.message}`));
      await seedSession(page, { token: session.token, serverId: session.serverId, serverName: session.serverName });

      await step('webhooks: the empty screen, 0 / 2 used', async () => {
        await page.goto('/webhooks');
        await page.getByText('0 / 2 webhooks used').waitFor();
        await shootAll('webhooks-empty', () => page.getByText('0 / 2 webhooks used').waitFor());
      });

      await step('webhooks: add a Discord webhook to the local receiver', async () => {
        const form = page.getByRole('form', { name: 'Add webhook' });
        await form.getByLabel('URL').fill(receiver.url);
        await form.getByLabel('Platform').selectOption('discord');
        await form.getByLabel('Log level').selectOption('error');
        await form.getByRole('button', { name: 'Add webhook' }).click();
        await page.getByText('Webhook added ✅').waitFor();
        await page.getByText('1 / 2 webhooks used').waitFor();
        await page.getByTestId('webhook-row').getByText('http://127.0.0.1:', { exact: false }).waitFor();
        expect(await page.getByTestId('webhook-row').innerText()).not.toContain('/api/webhooks/e2e/receiver');
      });

      await step('webhooks: a test to a failing receiver is a failed attempt and a dead letter', async () => {
        receiver.status = 500;
        await page.getByRole('button', { name: 'Send test' }).click();
        await page.getByText('Webhook test failed ❌').waitFor();
        await page.getByTestId('last-attempt').getByText('Failed (500)').waitFor();
        expect(await page.getByTestId('failed-attempts').innerText()).toBe('1');
        const showDeadLetters = async () => {
          await page.reload();
          await page.getByRole('button', { name: 'Show dead letters (1)' }).click();
          await page.getByTestId('dead-letter').waitFor();
        };
        await showDeadLetters();
        await shootAll('webhooks-dead-letter', () => page.getByTestId('dead-letter').waitFor(), { show: showDeadLetters, eachView: true });
      });

      await step('webhooks: replay after the receiver recovers delivers it and clears the dead letter', async () => {
        receiver.status = 200;
        const before = receiver.bodies.length;
        await page.getByRole('button', { name: 'Replay' }).click();
        await page.getByText('Replay sent ✅').waitFor();
        await page.getByText('No dead letters').waitFor();
        await page.getByTestId('last-attempt').getByText('Success').waitFor();
        expect(receiver.bodies.length).toBe(before + 1);
        expect(JSON.stringify(receiver.bodies.at(-1))).toContain('test message from Skald');
      });

      await step('webhooks: a matching log ingested through the public API reaches the receiver', async () => {
        const res = await fetch(`${own.baseUrl}/api/logs`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-API-Key': session.apiKey },
          body: JSON.stringify([{ message: 'not for the webhook', level: 'info' }, { message: 'Reactor overheating', level: 'error', type: 'Alert', resource: 'reactor' }]),
        });
        expect(res.status, await res.clone().text()).toBeLessThan(300);
        await waitFor(async () => JSON.stringify(receiver.bodies).includes('Reactor overheating'), 'the delivery of the matching log');
        expect(JSON.stringify(receiver.bodies)).not.toContain('not for the webhook');
        await page.getByRole('button', { name: 'Send test' }).click();
        await page.getByText('Test sent 🚀').waitFor();
        await shootAll('webhooks-list', () => page.getByTestId('webhook-row').waitFor());
      });

      await step('webhooks: edit inline, then delete after the confirmation', async () => {
        await page.getByRole('button', { name: 'Edit' }).click();
        const form = page.getByRole('form', { name: 'Save' });
        await form.getByLabel('Event type').fill('Alert');
        await shootAll('webhooks-edit', () => form.waitFor(), { keepPage: true });
        await form.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Webhook updated ✅').waitFor();
        await page.getByRole('button', { name: 'Delete' }).click();
        await page.getByText('Delete this webhook?').waitFor();
        await page.getByRole('button', { name: 'Confirm delete' }).click();
        await page.getByText('Webhook deleted ✅').waitFor();
        await page.getByText('0 / 2 webhooks used').waitFor();
      });
      await other.close();
    } finally {
      page = mainPage;
      await own.stop();
      await receiver.close();
    }
  });

  it('database backups: settings against the local MariaDB, create, download and delete', { timeout: 600_000 }, async (ctx) => {
    // The backup engine needs a real game database: the machine's MariaDB with its `mariadb` client.
    const mariadbUp = spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-e', 'SELECT 1'], { encoding: 'utf8' }).status === 0;
    if (!mariadbUp) {
      console.log('skipped: database backups walkthrough: no MariaDB at 127.0.0.1:3306');
      ctx.skip();
    }
    const database = `skald_e2e_${Date.now().toString(36)}`;
    const sql = (statements: string) => {
      const run = spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '--default-character-set=utf8mb4', '-e', statements], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`mariadb: ${run.stderr}`);
    };
    // Its own all-in-one: billing pointed at the Stripe test server (a paid tier is what allows backups) and
    // the outbound guard allowing the local database, which it refuses by default.
    const backupServer = await step('backups: an all-in-one allowed to reach the local MariaDB', () => startAllInOne({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ...stripeSettings(stripe!) }));
    const mainPage = page;
    let backupContext: BrowserContext | undefined;
    try {
      sql(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4; USE \`${database}\`;
        CREATE TABLE players (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(60), money DECIMAL(12,2));
        INSERT INTO players (name, money) VALUES ('Zoë 😀', 1500.25), ('O''Brien', 0), (NULL, 12);`);
      const owner = { username: `bk${Date.now().toString(36)}`, password: 'Vault-meadow-cipher-5' };
      const session = await step('backups: an owner, a server and the Starter plan (API and a signed webhook)', async () => {
        const backupApi = apiAt(backupServer.baseUrl);
        const token = await signUp(backupApi, owner);
        const created = await createServer(backupApi, token, 'E2E Backups');
        await subscribeServer(backupApi, stripe!, { token, serverId: created.id, tier: 'starter' });
        await waitFor(async () => (await backupApi.call('GET', `/backups/${created.id}/settings`, { token })).body['maxBackups'] === 3, 'the backups service to see the Starter plan');
        return { token, serverId: created.id, serverName: created.name };
      });
      backupContext = await (await spareBrowser()).newContext({ baseURL: backupServer.baseUrl, viewport: DESKTOP, acceptDownloads: true });
      page = await backupContext.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (err) => consoleErrors.push(`[${currentStep}] page error (backups): ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') consoleErrors.push(`[${currentStep}] ${msg.text()}`);
      });
      await seedSession(page, session);

      await step('/backups: the settings, collapsed at first, saved against the local MariaDB', async () => {
        await page.goto('/backups');
        await page.getByTestId('security-tip').waitFor();
        await page.getByText('No backups yet.').waitFor();
        const toggle = page.getByRole('button', { name: /Backup Settings/ });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        expect(await page.getByRole('button', { name: /Create Backup Now/ }).count(), 'no create before host, user and name').toBe(0);
        await toggle.click();
        await page.getByLabel('Database host').fill('127.0.0.1');
        await page.getByLabel('Database user').fill('root');
        await page.getByLabel('Database name').fill(database);
        await page.getByRole('button', { name: /Save Settings/ }).click();
        await page.getByText('Backup settings saved', { exact: true }).waitFor();
      });

      await step('/backups: create now, the run listed as done with its size in KB', async () => {
        await page.getByRole('button', { name: /Create Backup Now/ }).click();
        await page.getByText('Backup created successfully', { exact: true }).waitFor();
        await page.locator('[data-testid="backup-row"][data-status="done"]').waitFor({ timeout: 30_000 });
        expect(await page.getByTestId('backup-row').first().textContent()).toMatch(/\d+\.\d{2} KB/);
        await shootAll('backups', () => page.locator('[data-testid="backup-row"][data-status="done"]').waitFor(), { show: () => page.goto('/backups'), eachView: true });
      });

      await step('/backups: download saves backup-{id}.sql, plain SQL of the database', async () => {
        const list = (await fetch(`${backupServer.baseUrl}/api/backups/${session.serverId}`, { headers: { Authorization: `Bearer ${session.token}` } }).then((r) => r.json())) as { id: string; size: number }[];
        const downloading = page.waitForEvent('download');
        await page.getByTestId('backup-row').first().getByRole('button', { name: /^Download/ }).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toBe(`backup-${list[0]!.id}.sql`);
        const file = join(SHOTS, 'backup-download.sql');
        await download.saveAs(file);
        const text = readFileSync(file, 'utf8');
        expect(Buffer.byteLength(text)).toBe(list[0]!.size);
        expect(text).toMatch(/^-- Skald backup of database/);
        expect(text).toContain("'Zoë 😀',1500.25");
        expect(text).toMatch(/-- Dump completed \S+\n$/);
      });

      await step('/backups: delete, with the spec\'s toast as spelled', async () => {
        await page.getByTestId('backup-row').first().getByRole('button', { name: /^Delete/ }).click();
        await page.getByText('Backup deleted succesfully', { exact: true }).waitFor();
        await page.getByText('No backups yet.').waitFor();
      });

      await step('no console errors on the backups screen', async () => {
        expect(consoleErrors).toEqual([]);
      });
    } finally {
      page = mainPage;
      await backupContext?.close();
      await backupServer.stop();
      spawnSync('mariadb', ['-h', '127.0.0.1', '-u', 'root', '-e', `DROP DATABASE IF EXISTS \`${database}\``]);
    }
  });

  it('follows new logs live on /logs: on top as they arrive, paused and resumed', { timeout: 300_000 }, async () => {
    const api = apiAt(server.baseUrl);
    const { token, apiKey, serverId } = await step('live tail: a new account and server through the API', async () => {
      const token = await signUp(api, { username: `live${Date.now().toString(36)}`, password: user.password });
      const created = await createServer(api, token, 'Live Server');
      return { token, apiKey: created.api_key, serverId: created.id };
    });
    // Live is part of the page's address: a reload of a live view comes back live.
    const goLive = async () => {
      const toggle = page.getByRole('switch', { name: 'Live' });
      await toggle.waitFor();
      if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
      await page.getByText('Live: new logs appear at the top as they arrive.').waitFor();
    };

    await step('live tail: a log sent while Live is on appears at the top within seconds', async () => {
      await seedSession(page, { token, serverId, serverName: 'Live Server' });
      await page.goto('/logs');
      await page.getByText('No logs found.').waitFor();
      await goLive();
      await postLogs(apiKey, [{ message: 'Live: Ann joined', level: 'info', type: 'Join', resource: 'core' }]);
      await page.getByTestId('log-card').filter({ hasText: 'Live: Ann joined' }).waitFor({ timeout: 5_000 });
      await postLogs(apiKey, [{ message: 'Live: Bob left', level: 'warn', type: 'Leave', resource: 'core' }]);
      await page.waitForFunction(() => document.querySelector('[data-testid="log-card"] .log-message')?.textContent === 'Live: Bob left', undefined, { timeout: 5_000 });
    });

    await step('live tail: pause holds new logs back, resume puts them on top', async () => {
      await page.getByRole('button', { name: 'Pause' }).click();
      await postLogs(apiKey, [{ message: 'Live: held while paused', level: 'error', type: 'Script', resource: 'vehicles' }]);
      await page.getByText('Paused: 1 new log waiting.').waitFor();
      expect(await page.getByText('Live: held while paused').count()).toBe(0);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.waitForFunction(() => document.querySelector('[data-testid="log-card"] .log-message')?.textContent === 'Live: held while paused');
      await page.getByText('Live: new logs appear at the top as they arrive.').waitFor();
    });

    await step('live tail: screenshots and accessibility of the live list', async () => {
      const open = async () => {
        await page.reload();
        await goLive();
        await postLogs(apiKey, [{ message: 'Live: shown in the shot', level: 'info', type: 'Join', resource: 'core', metadata: { player: 'ann' } }]);
      };
      await shootAll('logs-live', () => page.getByTestId('log-card').first().waitFor(), { show: open, eachView: true });
    });
  });

  it('staff admin area: a superadmin walks every admin screen, a moderator sees no users page and no suspend control', { timeout: 600_000 }, async () => {
    const api = apiAt(server.baseUrl);
    const errorsBefore = consoleErrors.length;
    const stamp = Date.now().toString(36);
    const account = (name: string) => ({ username: `${name}${stamp}`, email: `${name}${stamp}@example.com`, password: 'Staff-area-lantern-5' });
    const superadmin = account('sa');
    const moderator = account('mod');
    const player = account('ply');
    const signIn = (a: { username: string; password: string }) => signInAs(api, a);
    // A fresh session in the main page: the earlier walkthroughs leave their server chosen in local storage,
    // and a staff member who is no member of it would load that server's dashboard (404s in the console).
    const signInPage = async (session: StoredSession) => {
      await page.goto('/');
      await page.evaluate(() => window.localStorage.clear());
      await seedSession(page, session);
    };
    const promote = (username: string, role: string) =>
      new Promise<void>((done, fail) =>
        execFile(process.execPath, [join(REPO_ROOT, 'gateway', 'src', 'cli.ts'), 'users:promote', username, role], { env: { ...process.env, DATA_DIR: server.dataDir, TARGET: 'all' } }, (error) => (error ? fail(error) : done())),
      );

    const { saToken, modToken, serverId, apiKey } = await step('three accounts, a server with a member and logs; users:promote makes a superadmin and a moderator', async () => {
      for (const a of [superadmin, moderator, player]) expect((await api.call('POST', '/auth/register', { body: a })).status).toBe(201);
      const playerToken = await signIn(player);
      const { id, api_key: key } = await createServer(api, playerToken, `Staff Walk ${stamp}`);
      await postLogs(key, [{ message: 'staff walkthrough', level: 'warn', type: 'Join', resource: 'core' }]);
      await promote(superadmin.username, 'superadmin');
      await promote(moderator.username, 'moderator');
      const sa = await signIn(superadmin);
      await waitFor(async () => (await api.call('GET', '/admin/servers', { token: sa })).body['servers'] !== undefined, 'the admin area to know the superadmin');
      return { saToken: sa, modToken: await signIn(moderator), serverId: id, apiKey: key };
    });

    await step('/admin/dashboard: cards, charts and top lists in the admin sidebar with the role', async () => {
      await signInPage({ token: saToken, serverId: null, serverName: null });
      await page.goto('/dashboard');
      await page.getByRole('link', { name: 'Admin' }).first().click();
      await page.getByText('Total Logs').waitFor();
      expect(await page.getByTestId('admin-role').first().innerText()).toBe('SUPERADMIN');
      const nav = page.getByRole('navigation', { name: 'Admin navigation' });
      expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Dashboard', 'Users', 'Servers', 'Admin Logs']);
      await shootAll('admin-dashboard', () => page.getByText('Servers without Logs').waitFor());
    });

    await step('/admin/users: disable ends the sessions and refuses sign-in, enable lets the user in again', async () => {
      const playerToken = await signIn(player);
      await page.goto('/admin/users');
      const row = page.locator(`[data-testid="admin-user-row"][data-user="${player.email}"]`);
      await row.waitFor();
      expect(await row.getByText('User must have 2FA enabled to change role').count()).toBe(1);
      await shootAll('admin-users', () => page.locator(`[data-testid="admin-user-row"][data-user="${player.email}"]`).waitFor());
      await row.getByRole('button', { name: `Disable ${player.email}` }).click();
      await page.getByText('Successfully updated the users status').waitFor();
      expect(await meStatus(server.baseUrl, playerToken)).toBe(401);
      expect((await api.call('POST', '/auth/login', { body: { username: player.username, password: player.password } })).status).toBe(403);
      await row.getByRole('button', { name: `Enable ${player.email}` }).click();
      await row.getByRole('button', { name: `Disable ${player.email}` }).waitFor();
      expect((await api.call('POST', '/auth/login', { body: { username: player.username, password: player.password } })).status).toBe(200);
    });

    await step('/admin/servers and the server page: tier to Pro, suspend (ingestion 403) and lift it, every tab', async () => {
      await page.goto('/admin/servers');
      await page.getByRole('link', { name: `Staff Walk ${stamp}` }).waitFor();
      await shootAll('admin-servers', () => page.getByRole('link', { name: `Staff Walk ${stamp}` }).waitFor());
      await page.getByRole('link', { name: `Staff Walk ${stamp}` }).click();
      await page.getByText('Tier limits').waitFor();
      await page.getByLabel('Tier', { exact: true }).selectOption('pro');
      await page.getByText('Tier updated succesfully').waitFor();
      await waitFor(async () => (await api.call('GET', `/admin/servers/${serverId}`, { token: saToken })).body['tier'] === 'pro', 'the tier in the admin area');
      await page.getByRole('button', { name: 'Suspend server' }).click();
      await page.getByTestId('admin-server-status').getByText('Suspended').waitFor();
      await waitFor(async () => (await fetch(`${server.baseUrl}/api/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey }, body: JSON.stringify({ message: 'while suspended' }) })).status === 403, 'ingestion to refuse the suspended server');
      await page.getByRole('button', { name: 'Unsuspend server' }).click();
      await page.getByTestId('admin-server-status').getByText('Active').waitFor();
      await page.getByTestId('admin-member-row').first().waitFor();
      await shootAll('admin-server', () => page.getByTestId('admin-member-row').first().waitFor());
      for (const [tab, ready] of [
        ['Database Backups', () => page.getByText('No backups available for this server.').waitFor()],
        ['Photo Logs', () => page.getByText('No photo logs available for this server.').waitFor()],
        ['Logs', () => page.getByTestId('admin-log-entry').first().waitFor()],
        ['Audit Logs', () => page.getByTestId('admin-audit-entry').first().waitFor()],
      ] as const) {
        await page.getByRole('tab', { name: tab, exact: true }).click();
        await ready();
      }
      expect(await page.getByTestId('admin-audit-entry').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('staff.tier-changed'), expect.stringContaining('staff.suspension-changed')]));
    });

    await step('/admin/logs lists the staff actions with the staff member and the server', async () => {
      await page.goto('/admin/logs');
      await page.getByTestId('admin-log-row').first().waitFor();
      const rows = await page.getByTestId('admin-log-row').allInnerTexts();
      for (const action of ['staff.tier-changed', 'staff.suspension-changed', 'user.active-changed']) expect(rows.some((r) => r.includes(action) && r.includes(superadmin.email)), action).toBe(true);
      await shootAll('admin-logs', () => page.getByTestId('admin-log-row').first().waitFor());
    });

    await step('a moderator: no Users or Admin Logs, /admin/users sends back, no suspend or tier control', async () => {
      await signInPage({ token: modToken, serverId: null, serverName: null });
      await page.goto('/admin/dashboard');
      await page.getByText('Total Logs').waitFor();
      const nav = page.getByRole('navigation', { name: 'Admin navigation' });
      expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Dashboard', 'Servers']);
      await page.goto('/admin/users');
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto(`/admin/servers/${serverId}`);
      await page.getByText('Tier limits').waitFor();
      expect(await page.getByRole('button', { name: /Suspend/ }).count()).toBe(0);
      expect(await page.getByLabel('Tier', { exact: true }).count()).toBe(0);
      expect((await api.call('PUT', `/admin/servers/${serverId}/suspend`, { token: modToken, body: { suspended: true } })).status).toBe(403);
    });

    await step('the header shows Admin only to staff roles', async () => {
      await signInPage({ token: await signIn(player), serverId, serverName: `Staff Walk ${stamp}` });
      await page.goto('/dashboard');
      await page.getByRole('link', { name: 'User Settings' }).first().waitFor();
      expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    });

    await step('no console errors (admin area)', async () => {
      expect(consoleErrors.slice(errorsBefore), consoleErrors.slice(errorsBefore).join('\n')).toEqual([]);
    });
  });

  it('every page view passes the accessibility check (axe-core, WCAG 2.1 AA, headings)', () => {
    expect(a11yViews.length, 'the walkthrough checked no page views').toBeGreaterThan(0);
    const failing = a11yViews.filter((v) => v.violations.length > 0);
    writeFileSync(join(SHOTS, 'axe-report.json'), JSON.stringify(a11yViews, null, 2));
    const excused = a11yViews.reduce((sum, v) => sum + v.excused.length, 0);
    console.log(`accessibility: ${a11yViews.length} page views checked, ${failing.length} with violations; ${excused} elements in the spec's default warn colours excused from color-contrast`);
    expect(failing.length, `\n${failing.map((v) => formatViolations(v.view, v.violations)).join('\n\n')}\n`).toBe(0);
  });
});
