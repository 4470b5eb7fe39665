// What a failed walk leaves behind besides the assertion's text: every page the walks open keeps its last
// console messages, page errors and failed requests, and a failure writes a full-page screenshot of each
// page still open and one text file with their addresses and those buffers, under
// test-output/e2e/failures/<test>-<time>.{png,txt}. Nothing here may throw into the test: the original error
// is what the reader needs first.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REPO_ROOT } from './server.ts';

export const FAILURES_DIR = join(REPO_ROOT, 'test-output', 'e2e', 'failures');
/** Entries kept per page and kind: the last ones are the ones that explain a failure, and memory stays bounded. */
export const KEPT_ENTRIES = 200;
/** One console line can be a whole serialized state; the start of it is enough to recognise it. */
const ENTRY_CHARS = 2_000;
/** A page that hangs must not hang the report: a screenshot gets this long, then the text says why there is none. */
const SCREENSHOT_MS = 15_000;
/** How long the renderer probe waits for the page's script, then for an animation frame. */
const PROBE_MS = 3_000;
/** Lines of a report echoed to stderr: CI keeps the output, not test-output/. */
export const ECHOED_LINES = 40;

/** The last KEPT_ENTRIES lines pushed, and how many older ones were dropped. */
class Recent {
  readonly lines: string[] = [];
  dropped = 0;

  push(line: string): void {
    this.lines.push(line.length > ENTRY_CHARS ? `${line.slice(0, ENTRY_CHARS)}… (${line.length} chars)` : line);
    if (this.lines.length > KEPT_ENTRIES) {
      this.lines.shift();
      this.dropped += 1;
    }
  }

  text(): string {
    if (this.lines.length === 0) return '  (none)\n';
    const older = this.dropped > 0 ? `  (${this.dropped} older entries dropped)\n` : '';
    return older + this.lines.map((line) => `  ${line}\n`).join('');
  }
}

interface WatchedPage {
  readonly page: Page;
  readonly id: number;
  /** When the page last navigated or logged: the page the test was driving sorts first. */
  lastActive: number;
  closedAt: number | null;
  lastUrl: string;
  readonly console: Recent;
  readonly requests: Recent;
}

const watched = new Map<Page, WatchedPage>();
const watchedContexts = new WeakSet<BrowserContext>();
let nextId = 1;
let testStartedAt = Date.now();

const at = () => new Date().toISOString();

/** Starts buffering what `page` reports. Cheap: a few listeners that push strings. */
export function watchPage(page: Page): void {
  if (watched.has(page)) return;
  const entry: WatchedPage = { page, id: nextId++, lastActive: Date.now(), closedAt: null, lastUrl: page.url(), console: new Recent(), requests: new Recent() };
  watched.set(page, entry);
  const active = () => (entry.lastActive = Date.now());
  page.on('console', (message) => {
    active();
    const { url, lineNumber } = message.location();
    entry.console.push(`${at()} [console.${message.type()}] ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => {
    active();
    entry.console.push(`${at()} [page error] ${error.stack ?? error.message}`);
  });
  page.on('crash', () => entry.console.push(`${at()} [page crashed]`));
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    active();
    entry.lastUrl = frame.url();
  });
  page.on('requestfailed', (request) => entry.requests.push(`${at()} ${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
  page.on('response', (response) => {
    if (response.status() >= 400) entry.requests.push(`${at()} ${response.request().method()} ${response.url()}: HTTP ${response.status()}`);
  });
  page.on('close', () => (entry.closedAt = Date.now()));
}

/** Watches every page `context` has and will open. */
export function watchContext(context: BrowserContext): void {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  context.on('page', watchPage);
  for (const page of context.pages()) watchPage(page);
}

/** Watches every page of every context `browser` has and will create. */
export function watchBrowser(browser: Browser): void {
  browser.on('context', watchContext);
  for (const context of browser.contexts()) watchContext(context);
}

/**
 * A test starts: pages closed before it are forgotten (their buffers explain nothing in it), pages closed
 * during it still go into its report.
 */
export function markTestStart(): void {
  testStartedAt = Date.now();
  for (const [page, entry] of watched) if (entry.closedAt !== null) watched.delete(page);
}

export interface Capture {
  /** The screenshots written, the page the test drove last first. */
  shots: string[];
  report: string;
}

/** A file name part: letters, digits and dashes, short enough for any file system. */
function slug(text: string): string {
  return (
    text
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 100) || 'test'
  );
}

/** The first line of an error's message (vitest hands the hook a serialized error, not an Error). */
function describeError(error: unknown): string {
  const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
  return message.split('\n')[0]!;
}

/** `text`'s value, its error's first line, or `late` when it takes longer than `ms`. */
function within(text: Promise<string>, ms: number, late: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(late), ms)));
  return Promise.race([text.catch((error: unknown) => `probe failed: ${describeError(error)}`), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether the page's renderer still runs script and draws frames: an action that waits for an element to be
 * stable counts animation frames, and a page that draws none (hidden, or its main thread busy) waits out its
 * whole timeout with no other sign in the call log.
 */
export async function rendererProbe(page: Page): Promise<string> {
  const started = Date.now();
  const state = await within(
    page.evaluate(
      (ms) =>
        new Promise<string>((resolve) => {
          const asked = performance.now();
          const timer = setTimeout(() => resolve(`visibility ${document.visibilityState}, focus ${document.hasFocus()}, no animation frame in ${ms} ms`), ms);
          requestAnimationFrame(() => {
            clearTimeout(timer);
            resolve(`visibility ${document.visibilityState}, focus ${document.hasFocus()}, animation frame after ${Math.round(performance.now() - asked)} ms`);
          });
        }),
      PROBE_MS,
    ),
    PROBE_MS * 2,
    `no answer to script in ${PROBE_MS * 2} ms`,
  );
  return `renderer: ${state} (probe took ${Date.now() - started} ms)`;
}

/**
 * Writes what the watched pages show and reported, named after `name`; null when no page was open during
 * the test (nothing to show). Never throws: what it could not write, the text says.
 */
export async function captureFailure(name: string, error?: unknown): Promise<Capture | null> {
  try {
    const pages = [...watched.values()].filter((entry) => entry.closedAt === null || entry.closedAt >= testStartedAt).sort((a, b) => b.lastActive - a.lastActive);
    if (pages.length === 0) return null;
    mkdirSync(FAILURES_DIR, { recursive: true });
    const base = join(FAILURES_DIR, `${slug(name)}-${at().replace(/[:.]/g, '-')}`);
    const shots: string[] = [];
    let text = `${name}\nfailed at ${at()} (test started ${new Date(testStartedAt).toISOString()})\n`;
    if (error !== undefined) text += `error: ${describeError(error)}\n`;
    for (const [index, entry] of pages.entries()) {
      text += `\npage ${entry.id}: ${entry.closedAt === null ? 'open' : `closed at ${new Date(entry.closedAt).toISOString()}`}\n`;
      if (entry.closedAt === null) {
        const shot = index === 0 ? `${base}.png` : `${base}-page${entry.id}.png`;
        try {
          text += `url: ${entry.page.url()}\n`;
          text += `${await rendererProbe(entry.page)}\n`;
          await entry.page.screenshot({ path: shot, fullPage: true, timeout: SCREENSHOT_MS });
          shots.push(shot);
          text += `screenshot: ${shot}\n`;
        } catch (shotError) {
          text += `no screenshot: ${describeError(shotError)}\n`;
        }
      } else {
        text += `last url: ${entry.lastUrl}\n`;
      }
      text += `console and page errors:\n${entry.console.text()}failed requests and error answers:\n${entry.requests.text()}`;
    }
    const report = `${base}.txt`;
    writeFileSync(report, text);
    const lines = text.split('\n');
    console.error(`${lines.slice(0, ECHOED_LINES).join('\n')}${lines.length > ECHOED_LINES ? `\n… (${lines.length - ECHOED_LINES} more lines in ${report})` : ''}`);
    return { shots, report };
  } catch (captureError) {
    console.error(`failure capture for "${name}" failed: ${describeError(captureError)}`);
    return null;
  }
}

/** Runs `run`; when it throws, captures the pages under `name` and throws the same error. */
export async function withFailureCapture<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const capture = await captureFailure(name, error);
    if (capture) console.error(`failure capture: ${capture.report}`);
    throw error;
  }
}
