// The game guides (/games/fivem, /games/minecraft) in headless Chromium against the real all-in-one server:
// FiveM's server.cfg lines addressed to this installation, the tables of built-in and txAdmin logs with their
// types and levels, the export API and the Fivemanage mapping; Minecraft's build command, plugin config,
// log4j2.xml lines and console lines. Each in light and dark, desktop and 375 px: no sideways scrolling of the
// page or of a code box on the phone, no axe finding, no console error. Screenshots go to test-output/e2e/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, formatViolations } from './accessibility.ts';
import { buildWeb, REPO_ROOT, startAllInOne, type RunningServer } from './server.ts';
import { DESKTOP, expectNoSidewaysScroll, hasChromium, launchChromium, sameSize, settled, switchTheme, viewShot, VIEWS } from './walk.ts';

const SHOTS = join(REPO_ROOT, 'test-output', 'e2e');

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
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * Opens /games/<slug> (light, desktop), then shows it in each theme and size (a resize and the header's theme
   * toggle: the guide's state is its address), waits for its heading, runs `check`, then asks of every view: no
   * sideways scrolling of the page, nor of any code box, at 375 px; no axe finding (all collected, then reported
   * together); no console error; a screenshot.
   */
  async function walkGuide(slug: string, title: string, check: (page: Page, view: string) => Promise<void>): Promise<void> {
    const findings: string[] = [];
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`/games/${slug}`);
    await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
    for (const [theme, device, viewport] of VIEWS) {
      if (!sameSize(page.viewportSize(), viewport)) await page.setViewportSize(viewport);
      await switchTheme(page, theme);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      await settled(page);
      const view = `games-${slug}-guide-${theme}-${device}`;
      await check(page, view);

      if (device === 'mobile') {
        await expectNoSidewaysScroll(page, view);
        const scrollingCode = await page.locator('pre[role="group"]').evaluateAll((boxes) =>
          boxes.filter((box) => box.scrollWidth - box.clientWidth > 1).map((box) => box.getAttribute('aria-label')),
        );
        expect(scrollingCode, `${view}: code boxes that scroll sideways at 375 px`).toEqual([]);
      }
      const { violations } = await checkAccessibility(page);
      if (violations.length > 0) findings.push(formatViolations(view, violations));
      await viewShot(page, SHOTS, view);
      expect(errors, `${view}: console errors`).toEqual([]);
    }
    await context.close();
    expect(findings.join('\n'), 'accessibility findings').toBe('');
  }

  it('shows install lines, the logs with type and level, the exports and the Fivemanage mapping in every theme and size', { timeout: 180_000 }, async () => {
    await walkGuide('fivem', 'FiveM', async (page, view) => {
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
    });
  });

  // The Minecraft guide (/games/minecraft): the build command, the plugin's config and the log4j2.xml lines
  // addressed to this installation, the console lines with their types and levels.
  it('shows the Minecraft guide: download, plugin config, log4j2.xml lines and what each line becomes, in every theme and size', { timeout: 180_000 }, async () => {
    await walkGuide('minecraft', 'Minecraft', async (page, view) => {
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
    });
  });
});
