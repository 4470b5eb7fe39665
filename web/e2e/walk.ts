// What every browser walk shares: Debian's Chromium and its flags, the four views (light and dark, desktop
// and 375 px), and the per-view check each screen gets (no sideways scrolling at 375 px, a screenshot, axe).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { checkAccessibility, formatViolations, type A11yViolation } from './accessibility.ts';
import { watchBrowser } from './failure-capture.ts';
import { REPO_ROOT } from './server.ts';
import { seedSession, type StoredSession } from './session.ts';

export const CHROMIUM = '/usr/bin/chromium';
/** Without the background-networking flags Chromium keeps dialling out and the closed network refuses it. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const DESKTOP = { width: 1440, height: 900 };
export const MOBILE = { width: 375, height: 812 };
export const VIEWS = [
  ['light', 'desktop', DESKTOP],
  ['light', 'mobile', MOBILE],
  ['dark', 'desktop', DESKTOP],
  ['dark', 'mobile', MOBILE],
] as const;
/** expect.poll gives up after 1 s by default; a loaded 2-core machine may take longer to show a list. */
export const POLL = { timeout: 20_000 };

/** Whether Debian's Chromium is here; says once why the walks skip when it is not. */
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

/** Every page of the browser is watched, so a failed test can show what its pages showed (failure-capture.ts). */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  watchBrowser(browser);
  return browser;
}

/**
 * A new desktop context signed in with `session` (its page waits up to 20 s for what it looks for: a loaded
 * 2-core machine may take that long to show a list).
 */
export async function signedInPage(browser: Browser, baseUrl: string, session: StoredSession, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await seedSession(page, session);
  return { context, page };
}

/**
 * Waits until the screen has stopped moving: a drawer or menu that has just opened is still fading in, and
 * axe would read its colours half blended into the page and report a contrast the settled screen does not
 * have (endless animations, a spinner, never settle and are not waited for). Then two frames, so a chart
 * that follows its container's new width has drawn (the charts themselves do not animate).
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity));
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** Screenshots of one walk (under test-output/e2e/<name>/) and the axe findings of every view it checked. */
/**
 * Waits until the page no longer scrolls sideways at its width, failing with `what` if it still does after the
 * poll's bound: charts lay themselves out again after a resize on a timer of their own, so right after a switch
 * to 375 px a chart can still be as wide as the desktop was (seen at load 25: 812 px too wide).
 */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { ...POLL, message: `${what} overflows horizontally at 375 px` })
    .toBeLessThanOrEqual(1);
}

export class ViewCheck {
  readonly shots: string;
  readonly a11y: { view: string; violations: A11yViolation[] }[] = [];

  constructor(name: string) {
    this.shots = join(REPO_ROOT, 'test-output', 'e2e', name);
    mkdirSync(this.shots, { recursive: true });
  }

  /** `show` brings the screen up in each theme and size: no sideways scrolling at 375 px, a screenshot, axe. */
  async views(page: Page, name: string, show: () => Promise<unknown>): Promise<void> {
    for (const [theme, device, size] of VIEWS) {
      await page.setViewportSize(size);
      await page.evaluate((t) => window.localStorage.setItem('theme', t), theme);
      await show();
      await page.locator(`.skald-${theme}`).first().waitFor();
      await settled(page);
      if (device === 'mobile') {
        await expectNoSidewaysScroll(page, name);
      }
      const view = `${name}-${theme}-${device}`;
      this.a11y.push({ view, violations: (await checkAccessibility(page)).violations });
      await page.screenshot({ path: join(this.shots, `${view}.png`), fullPage: true });
    }
    await page.setViewportSize(DESKTOP);
    await page.evaluate(() => window.localStorage.setItem('theme', 'light'));
  }

  /** The views with axe findings, each formatted; empty when every view passed. */
  failing(): string[] {
    return this.a11y.filter((entry) => entry.violations.length > 0).map((entry) => formatViolations(entry.view, entry.violations));
  }
}
