// The FiveM guide (/games/fivem) in headless Chromium against the real all-in-one server: the server.cfg
// lines addressed to this installation, the tables of built-in and txAdmin logs with their types and
// levels, the export API and the Fivemanage mapping, in light and dark, desktop and 375 px: no sideways
// scrolling on the phone, no axe finding, no console error. Screenshots go to test-output/e2e/.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, formatViolations } from './accessibility.ts';
import { buildWeb, REPO_ROOT, startAllInOne, type RunningServer } from './server.ts';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(REPO_ROOT, 'test-output', 'e2e');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const VIEWS = [
  ['light', 'desktop', { width: 1440, height: 900 }],
  ['dark', 'desktop', { width: 1440, height: 900 }],
  ['light', 'mobile', { width: 375, height: 812 }],
  ['dark', 'mobile', { width: 375, height: 812 }],
] as const;
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

/** The rows of the table whose caption is `caption`, as the text of their cells. */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) });
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td, th')).map((cell) => (cell.textContent ?? '').trim())));
}

describe.skipIf(!hasChromium)('the game guides (FiveM, Minecraft) in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    buildWeb();
    server = await startAllInOne();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows install lines, the logs with type and level, the exports and the Fivemanage mapping in every theme and size', { timeout: 180_000 }, async () => {
    const findings: string[] = [];
    for (const [theme, device, viewport] of VIEWS) {
      const context = await browser.newContext({ baseURL: server.baseUrl, viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto('/games/fivem');
      await page.evaluate((t) => window.localStorage.setItem('theme', t), theme);
      await page.reload();
      await page.locator(`.skald-${theme}`).first().waitFor();
      await page.getByRole('heading', { level: 1, name: 'FiveM', exact: true }).waitFor();
      const view = `games-fivem-guide-${theme}-${device}`;

      // Addressed to this installation, with baseevents for deaths.
      const cfg = await page.getByRole('group', { name: 'server.cfg lines' }).innerText();
      expect(cfg.split('\n'), view).toEqual(['ensure baseevents', 'ensure screenshot-basic', `set skald_url "${server.baseUrl}"`, 'set skald_api_key "YOUR_API_KEY"', 'ensure skald']);
      for (const heading of ['Settings', 'What it logs', 'Metadata', 'Logging from your resources', 'Moving from Fivemanage', 'Batching, retries and outages']) {
        await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
      }
      const builtIn = await tableRows(page, 'Built-in logs');
      expect(builtIn.map((cells) => [cells[1], cells[2]]), view).toEqual([
        ['Join', 'info'],
        ['Leave', 'info'],
        ['Chat', 'info'],
        ['Death', 'warning'],
        ['Death', 'warning'],
        ['Death', 'warning'],
      ]);
      expect(builtIn.map((cells) => cells[3]?.slice(0, 7)), view).toEqual(['[JOIN] ', '[LEAVE]', 'Name: t', '[DEATH]', '[DEATH]', '[DEATH]']);
      const txAdmin = await tableRows(page, 'txAdmin events');
      expect(txAdmin.map((cells) => cells[1]), view).toEqual(['Ban', 'AdminWarning', 'Kick', 'Heal', 'DirectMessage', 'Whitelist', 'Revoke', 'Announcement', 'Restart', 'Shutdown']);
      expect(txAdmin.map((cells) => cells[2]), view).toEqual(['warning', 'warning', 'warning', 'info', 'info', 'info', 'info', 'info', 'info', 'warning']);
      const exportsCode = await page.getByRole('group', { name: 'the exports from Lua' }).innerText();
      expect(exportsCode, view).toContain("exports.skald:log('error', 'Bank desync on account 12', { account = 12 }, 'Economy')");
      expect(exportsCode, view).toContain("exports.skald:screenshot(source, 'Reported for cheating', { reportId = 42 })");
      const fivemanage = (await tableRows(page, 'Fivemanage exports')).map((cells) => cells[0]);
      expect(fivemanage, view).toEqual(['LogMessage(level, message, metadata)', 'Log(datasetId, level, message, metadata)', 'Info, Warn, Error(datasetId, message, metadata)', 'metadata.playerSource, targetSource', 'takeImage, takeServerImage']);

      if (device === 'mobile') {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${view} overflows horizontally at 375 px`).toBeLessThanOrEqual(1);
      }
      const { violations } = await checkAccessibility(page);
      if (violations.length > 0) findings.push(formatViolations(view, violations));
      await page.screenshot({ path: join(SHOTS, `${view}.png`), fullPage: true });
      expect(errors, `${view}: console errors`).toEqual([]);
      await context.close();
    }
    expect(findings.join('\n'), 'accessibility findings').toBe('');
  });

  // The Minecraft guide (/games/minecraft): the build command, the plugin's config and the log4j2.xml lines
  // addressed to this installation, the console lines with their types and levels.
  it('shows the Minecraft guide: download, plugin config, log4j2.xml lines and what each line becomes, in every theme and size', { timeout: 180_000 }, async () => {
    const findings: string[] = [];
    for (const [theme, device, viewport] of VIEWS) {
      const context = await browser.newContext({ baseURL: server.baseUrl, viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto('/games/minecraft');
      await page.evaluate((t) => window.localStorage.setItem('theme', t), theme);
      await page.reload();
      await page.locator(`.skald-${theme}`).first().waitFor();
      await page.getByRole('heading', { level: 1, name: 'Minecraft', exact: true }).waitFor();
      const view = `games-minecraft-guide-${theme}-${device}`;
      expect(await page.getByText('coming soon').count(), view).toBe(0);
      for (const heading of ['Download', 'Paper, Spigot and Folia: the plugin', 'Any server: log4j2.xml', 'What it logs', 'Metadata', 'Batching, retries and outages']) {
        await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
      }
      expect(await page.getByRole('group', { name: 'build the jar' }).innerText(), view).toContain('integrations/minecraft/build.sh');
      const config = await page.getByRole('group', { name: 'plugins/Skald/config.yml' }).innerText();
      expect(config.split('\n')[0], view).toBe(`url: "${server.baseUrl}"`);
      const xml = await page.getByRole('group', { name: 'log4j2.xml lines' }).innerText();
      expect(xml.split('\n'), view).toEqual([
        '<!-- in <Appenders> -->',
        `<Skald name="Skald" url="${server.baseUrl}" apiKeyEnv="SKALD_API_KEY" level="INFO"/>`,
        '<!-- in <Root> -->',
        '<AppenderRef ref="Skald"/>',
      ]);
      const lines = await tableRows(page, 'Console lines');
      const typeOf = (start: string) => lines.find((cells) => cells[0]?.startsWith(start))?.slice(1, 3);
      expect(typeOf('Steve joined the game'), view).toEqual(['Join', 'info']);
      expect(typeOf('<Steve> hello'), view).toEqual(['Chat', 'info']);
      expect(typeOf('Steve was slain by Zombie'), view).toEqual(['Death', 'warn']);
      expect(typeOf('Steve issued server command'), view).toEqual(['Command', 'info']);
      expect(typeOf('Done ('), view).toEqual(['ServerStart', 'info']);
      expect(typeOf('Stopping server'), view).toEqual(['ServerStop', 'info']);
      expect((await tableRows(page, 'Appender settings')).map((cells) => cells[0]), view).toEqual(['url', 'apiKey, apiKeyEnv', 'level', 'batchSize', 'queueCapacity', 'logAddresses', 'resource']);

      if (device === 'mobile') {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${view} overflows horizontally at 375 px`).toBeLessThanOrEqual(1);
      }
      const { violations } = await checkAccessibility(page);
      if (violations.length > 0) findings.push(formatViolations(view, violations));
      await page.screenshot({ path: join(SHOTS, `${view}.png`), fullPage: true });
      expect(errors, `${view}: console errors`).toEqual([]);
      await context.close();
    }
    expect(findings.join('\n'), 'accessibility findings').toBe('');
  });
});
