// A walk that fails on purpose leaves what its page showed: a full-page screenshot and a report with the
// address, the console and page errors and the failed requests, written by the wrapper and by the hook every
// test file gets (failure-capture-setup.ts), and the test still fails with its own error.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURES_DIR, withFailureCapture } from './failure-capture.ts';
import { DESKTOP, hasChromium, launchChromium } from './walk.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Named in the hooked test below and looked for by the test after it. */
const HOOKED = 'a failing test leaves a capture without a line of its own';

/** A page that asks for a script the test aborts: a failed request on every load. */
const PAGE = '<!doctype html><title>capture</title><h1>The page under test</h1><script src="/missing.js"></script>';

let site: Server;
let siteUrl = '';
let browser: Browser;
let context: BrowserContext;

/** Captures older than this run (one an interrupted run left) are not this run's. */
const runStarted = Date.now();

/** The capture files of this run whose name starts with `prefix`. */
function capturesOf(prefix: string): { png: string[]; txt: string[] } {
  const names = existsSync(FAILURES_DIR) ? readdirSync(FAILURES_DIR).filter((name) => name.startsWith(prefix) && statSync(join(FAILURES_DIR, name)).mtimeMs >= runStarted) : [];
  return { png: names.filter((n) => n.endsWith('.png')).map((n) => join(FAILURES_DIR, n)), txt: names.filter((n) => n.endsWith('.txt')).map((n) => join(FAILURES_DIR, n)) };
}

/** A screenshot that is a real PNG of the desktop page: the signature, then IHDR's width. */
function expectDesktopPng(path: string): void {
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${path} starts with the PNG signature`).toBe(true);
  expect(bytes.readUInt32BE(16), 'the screenshot is the desktop width').toBe(DESKTOP.width);
  expect(bytes.length).toBeGreaterThan(1_000);
}

/** Opens the page, logs `marker` with console.error and throws in the page, and waits until the page reported all three. */
async function openNoisyPage(marker: string): Promise<Page> {
  const page = await context.newPage();
  await page.route('**/missing.js', (route) => route.abort());
  const failed = page.waitForEvent('requestfailed');
  await page.goto(siteUrl);
  await failed;
  const logged = page.waitForEvent('console', (message) => message.text() === marker);
  const thrown = page.waitForEvent('pageerror');
  await page.evaluate((text) => {
    console.error(text);
    setTimeout(() => {
      throw new Error(`thrown after ${text}`);
    });
  }, marker);
  await Promise.all([logged, thrown]);
  return page;
}

/** The walk's failing check: the heading is not what it expects. */
async function expectOtherHeading(page: Page): Promise<void> {
  expect(await page.locator('h1').innerText(), 'the heading of the page').toBe('Another heading');
}

function expectReport(path: string, marker: string): void {
  const report = readFileSync(path, 'utf8');
  expect(report).toContain(`url: ${siteUrl}`);
  expect(report).toContain(`[console.error] ${marker}`);
  expect(report).toContain(`[page error] Error: thrown after ${marker}`);
  expect(report).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/missing\.js: net::ERR_FAILED/);
  // The page drew frames: a click that waits for a stable element would have had them.
  expect(report).toMatch(/renderer: visibility visible, focus (true|false), animation frame after \d+ ms/);
}

describe.skipIf(!hasChromium)('failure capture of the browser walks', () => {
  beforeAll(async () => {
    site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('the wrapper rethrows the walk own error and leaves a screenshot and a report of the page', async () => {
    const name = `capture proof ${randomUUID().slice(0, 8)}`;
    const marker = `console error for ${name}`;
    const page = await openNoisyPage(marker);
    await expect(withFailureCapture(name, () => expectOtherHeading(page))).rejects.toThrow(/the heading of the page/);
    const files = capturesOf(name.replaceAll(' ', '-'));
    try {
      expect(files.png).toHaveLength(1);
      expect(files.txt).toHaveLength(1);
      expectDesktopPng(files.png[0]!);
      expectReport(files.txt[0]!, marker);
      expect(readFileSync(files.txt[0]!, 'utf8')).toContain(`screenshot: ${files.png[0]}`);
    } finally {
      for (const file of [...files.png, ...files.txt]) rmSync(file, { force: true });
      await page.close();
    }
  });

  // Fails on purpose (vitest counts it as passed only if it fails): the shared hook must capture it.
  it.fails(HOOKED, async () => {
    const page = await openNoisyPage(`console error for ${HOOKED}`);
    await expectOtherHeading(page);
  });

  it('the hook wrote the failed test its screenshot and report', () => {
    const files = capturesOf(`failure-capture-${HOOKED.replaceAll(' ', '-')}-`);
    try {
      expect(files.png).toHaveLength(1);
      expect(files.txt).toHaveLength(1);
      expectDesktopPng(files.png[0]!);
      expectReport(files.txt[0]!, `console error for ${HOOKED}`);
      expect(readFileSync(files.txt[0]!, 'utf8')).toContain('error: the heading of the page');
    } finally {
      for (const file of [...files.png, ...files.txt]) rmSync(file, { force: true });
    }
  });
});
