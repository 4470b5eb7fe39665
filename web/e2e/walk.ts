// What every browser walk shares: Debian's Chromium and its flags, the four views (light and dark, desktop
// and 375 px), and the per-view check each screen gets (no sideways scrolling at 375 px, a screenshot, axe).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { checkAccessibility, formatViolations, type A11yResult } from './accessibility.ts';
import { watchBrowser } from './failure-capture.ts';
import { REPO_ROOT } from './server.ts';
import { seedSession, type StoredSession } from './session.ts';

export const CHROMIUM = '/usr/bin/chromium';
/**
 * Without the background-networking flags Chromium keeps dialling out and the closed network refuses it. V8
 * runs without its optimising compilers (Maglev, TurboFan; bytecode and Sparkplug only): a walk's page lives
 * for a few seconds between loads, too short for optimised code to repay its compiling, and the JavaScript
 * does the same either way. Measured on the dashboard: a load 0.44 s of CPU to 0.32-0.37 s, a theme switch
 * and back 0.23 to 0.16-0.18 s, a load with axe's first run 0.71 to 0.38-0.48 s.
 */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--js-flags=--no-opt --no-maglev'];
export const DESKTOP = { width: 1440, height: 900 };
export const MOBILE = { width: 375, height: 812 };
/**
 * Each view one change from the one before (a resize or a theme switch), so a walk through them costs two
 * resizes and one switch; a screen loaded in light walks them in this order, one loaded in dark backwards.
 */
export const VIEWS = [
  ['light', 'desktop', DESKTOP],
  ['light', 'mobile', MOBILE],
  ['dark', 'mobile', MOBILE],
  ['dark', 'desktop', DESKTOP],
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

/** An element in an antd (rc-motion) motion's first steps: `<motion>-<appear|enter|leave>-<prepare|start>`. */
const MOTION_STARTING = ['appear', 'enter', 'leave'].flatMap((status) => ['prepare', 'start'].map((step) => `[class*="-${status}-${step}"]`)).join(', ');

/**
 * Brings the screen to rest: a drawer or menu that has just opened is still fading in, and axe would read its
 * colours half blended into the page and report a contrast the settled screen does not have. Each finite
 * animation still running is finished (set to its end, which fires its end events as if it had run its
 * course), again on each frame until none starts any more: the screen ends as it would after waiting, without
 * Chromium drawing every frame on the way (a theme switch's fades took 0.5 s of CPU waited out, 0.2 s
 * finished). Endless animations (a spinner) never settle and are left running. Then two frames, so a chart that
 * follows its container's new width has drawn (the charts themselves do not animate).
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction((motionStarting) => {
    const moving = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    for (const animation of moving) animation.finish();
    // antd's motions (a dialog's zoom, a mask's fade) give the element its starting look one or two frames
    // before its animation exists (the motion's prepare and start steps): no animation runs yet, but it is about
    // to. Seen: axe measured a new dialog's text at half opacity (2.4:1) right after a check that found none.
    return moving.length === 0 && document.querySelector(motionStarting) === null;
  }, MOTION_STARTING);
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

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

/**
 * The screenshot of one view, `<view>.jpg` in `dir`: an artifact for people (nothing compares it), so JPEG,
 * and the caret left as it is (hiding it restyles the page twice per shot): about 0.07 s of Chromium's CPU a
 * full-page shot of the dashboard instead of 0.09 s as PNG.
 */
export async function viewShot(page: Page, dir: string, view: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(dir, `${view}.jpg`), fullPage, caret: 'initial' });
}

/** Whether the page's viewport is `size` already (no resize to ask Chromium for). */
export function sameSize(current: { width: number; height: number } | null, size: { width: number; height: number }): boolean {
  return current !== null && current.width === size.width && current.height === size.height;
}

/** Whether the page shows the header's theme toggle (the shell's screens do; sign-in and register do not). */
export async function hasThemeToggle(page: Page): Promise<boolean> {
  return (await page.locator('button[aria-label^="Switch to "][aria-label$=" theme"]').count()) > 0;
}

/** Switches the page to `theme` with the header's toggle, clicked from script: a modal's mask may cover it. */
export async function switchTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  if (await page.locator(`.skald-${theme}`).count()) return;
  await page.evaluate((t) => document.querySelector<HTMLButtonElement>(`button[aria-label="Switch to ${t} theme"]`)?.click(), theme);
  await page.locator(`.skald-${theme}`).first().waitFor();
}

/** A size a screen is walked at: the desktop's or 375 px. */
export type Device = (typeof VIEWS)[number][1];

export interface ViewOptions {
  /**
   * `show` runs for every view, the theme set before it, for a screen that must be reached anew in each
   * (an address opened in each view is what the test proves, or `show` checks what a fresh screen does), or
   * whose state a theme switch or resize would not keep. Without it `show` runs for the first view only: what
   * it brings up (a menu, the filters) survives a theme switch and a resize.
   */
  eachView?: boolean;
  /**
   * A view a load would lose (a one-time dialog): `show` never runs, the screen is the one the page shows
   * now, and every view's theme comes from the header's toggle.
   */
  keepPage?: boolean;
  /** Awaited after each view is brought up (a load, a switch or a resize), before its checks: the screen is ready. */
  ready?: () => Promise<unknown>;
  /** The sizes to walk, both unless given: the sidebar drawer and the header menu exist only at 375 px. */
  devices?: readonly Device[];
  /** false for a fixed overlay (sidebar drawer, photo viewer), which a full-page shot would cover only in part. */
  fullPage?: boolean;
  /** Shoots from the top: a click may have scrolled, and the sticky header would land mid-shot. */
  scrollToTop?: boolean;
}

/** One entry per view checked with axe (screen, theme, device). */
export interface A11yView extends A11yResult {
  view: string;
}

/** Screenshots of one walk and the axe findings of every view it checked. */
export class ViewCheck {
  readonly shots: string;
  readonly a11y: A11yView[] = [];

  /** The screenshots go to test-output/e2e/<name>/, or to `shots` if given. */
  constructor(name: string, shots = join(REPO_ROOT, 'test-output', 'e2e', name)) {
    this.shots = shots;
    mkdirSync(this.shots, { recursive: true });
  }

  /**
   * The screen in each theme and size: no sideways scrolling at 375 px, a screenshot, axe (its findings are
   * collected, and asserted once the walk is over, so one run lists every view's problems). `show` brings it up
   * (it loads the page, so the theme stored before it applies) in dark on the desktop; the other views come
   * from a resize and the header's theme toggle, as a user who turns a phone or switches theme sees them (a
   * load costs about four times a switch of Chromium's CPU): dark at 375 px, light at 375 px, light on the
   * desktop, so the screen ends in light on the desktop without a resize or a switch more. A screen without
   * the header (sign-in, register) and one given `eachView` are shown anew for each view. `devices` leaves
   * sizes out, the order of the rest kept.
   */
  async views(page: Page, name: string, show: () => Promise<unknown>, options: ViewOptions = {}): Promise<void> {
    const { eachView = false, keepPage = false, ready, devices = ['desktop', 'mobile'], fullPage = true, scrollToTop = false } = options;
    let shown = false;
    for (const [theme, device, size] of [...VIEWS].reverse()) {
      if (!devices.includes(device)) continue;
      if (!sameSize(page.viewportSize(), size)) await page.setViewportSize(size);
      if (keepPage || (shown && !eachView && (await hasThemeToggle(page)))) {
        await switchTheme(page, theme);
      } else {
        await page.evaluate((t) => window.localStorage.setItem('theme', t), theme);
        await show();
        shown = true;
      }
      await page.locator(`.skald-${theme}`).first().waitFor();
      await ready?.();
      await settled(page);
      if (device === 'mobile') {
        await expectNoSidewaysScroll(page, name);
      }
      const view = `${name}-${theme}-${device}`;
      this.a11y.push({ view, ...(await checkAccessibility(page)) });
      if (scrollToTop) await page.evaluate(() => window.scrollTo(0, 0));
      await viewShot(page, this.shots, view, fullPage);
    }
    // The last view is light at the first size walked (on the desktop unless the screen exists only at 375 px:
    // the sidebar drawer, the header menu), and the theme stored is light (the toggle stores what it switches to).
  }

  /** The views with axe findings, each formatted; empty when every view passed. */
  failing(): string[] {
    return this.a11y.filter((entry) => entry.violations.length > 0).map((entry) => formatViolations(entry.view, entry.violations));
  }
}
