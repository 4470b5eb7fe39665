// Investigation on /logs and /photologs (docs/DECISIONS.md "The view in the address, Context and the dense
// table") in headless Chromium against the real all-in-one server: a member's filtered, paged view is a link
// that opens the same view for the owner in another browser and gives a non-member their own server with a
// notice; back and forward step through the views; ?log= opens the logs around a log, it marked and in view;
// the Context action of a log card, a photo card and the player timeline opens the neighbours in place with
// a link to copy; the dense table is remembered after a reload, holds at least 25 rows on a 1440x900 screen
// and moves with j/k and Enter. Screens checked in light and dark, desktop and 375 px (screenshots in
// test-output/e2e/investigation/, axe in each view).
import type { ApiLog, PlayerList } from '@skald/contracts/api';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, signUp, waitFor } from './api.ts';
import { startTeam, type Team } from './team.ts';
import { seedSession } from './session.ts';
import { DESKTOP, hasChromium, POLL, signedInPage, ViewCheck, VIEWS } from './walk.ts';

const stamp = Date.now().toString(36);
const owner = { username: `inv_owner_${stamp}`, password: 'Correct-horse-battery-9' };
const member = { username: `inv_member_${stamp}`, password: 'Correct-horse-battery-9' };
const stranger = { username: `inv_other_${stamp}`, password: 'Correct-horse-battery-9' };
const EVENTS = 60;
const eventName = (i: number) => `Event ${String(i).padStart(2, '0')}`;
const FOREIGN = 'This link names a server you are not a member of, so your current server is shown.';

let team: Team;
let memberContext: BrowserContext;
let page: Page;
let strangerToken: string;
const walk = new ViewCheck('investigation');

async function logId(message: string): Promise<string> {
  const found = await team.api.ok<ApiLog[]>('GET', `/logs/my?serverId=${team.serverId}&search=${encodeURIComponent(message)}`, { token: team.ownerToken });
  const log = found.find((l) => l.message === message);
  if (!log) throw new Error(`no log "${message}"`);
  return log.id;
}

const cards = (on: Page) => on.getByTestId('log-card');
const messages = (on: Page) => cards(on).locator('.log-message').allInnerTexts();
const query = (on: Page) => Object.fromEntries(new URL(on.url()).searchParams);

/** The rows of the table wholly inside the window, as the screen shows them without scrolling. */
function rowsInView(on: Page): Promise<number> {
  return on.evaluate(() => [...document.querySelectorAll('[data-testid="log-row"]')].filter((row) => {
    const box = row.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }).length);
}

describe.skipIf(!hasChromium)('investigation: the view in the address, context around a log, the dense table (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    team = await startTeam({ owner, member, serverName: `Investigation ${stamp}` });
    strangerToken = await signUp(team.api, stranger);
    await createServer(team.api, strangerToken, `Elsewhere ${stamp}`);

    // One batch: every fifth event a robbery (12 of them), the rest chat; one names a player.
    const batch = Array.from({ length: EVENTS }, (_, n) => {
      const i = n + 1;
      return i % 5 === 0
        ? { message: eventName(i), level: 'error', type: 'Robbery', resource: 'heists', metadata: { i } }
        : { message: eventName(i), level: 'info', type: 'Chat', resource: 'chat', metadata: { i, ...(i === 7 ? { player: { name: 'Ann Walker', identifiers: [`license:a11ce${stamp}`] } } : {}) } };
    });
    await team.game.log(batch);
    await team.game.photo({ message: 'Screenshot at the bank', width: 320, height: 180 });
    await waitFor(async () => (await team.api.ok<ApiLog[]>('GET', `/logs/my?serverId=${team.serverId}&pageSize=100`, { token: team.memberToken })).length === EVENTS, 'the logs stored and the member let in');

    ({ context: memberContext, page } = await signedInPage(team.browser, team.server.baseUrl, team.memberSession));
    await memberContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: team.server.baseUrl });
  });

  afterAll(async () => {
    await memberContext?.close();
    await team?.stop();
  });

  it('a filtered, paged view is a link: the owner opens the same view elsewhere, a non-member gets their own server', async () => {
    await page.goto('/logs');
    await page.waitForURL((url) => url.searchParams.get('serverId') === team.serverId);
    await expect.poll(() => cards(page).count(), POLL).toBe(10);
    await page.getByRole('button', { name: /Show filters/ }).click();
    await page.getByLabel('Type', { exact: true }).fill('Robbery');
    await page.waitForURL((url) => url.searchParams.get('type') === 'Robbery');
    await page.getByLabel('Date from').fill('2020-01-01');
    await page.waitForURL((url) => url.searchParams.get('dateFrom') === '2020-01-01');
    await expect.poll(() => page.getByText('Page 1 of 2').count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => messages(page), POLL).toEqual([eventName(10), eventName(5)]);
    const link = page.url();
    expect(query(page)).toEqual({ serverId: team.serverId, type: 'Robbery', dateFrom: '2020-01-01', page: '2' });

    const ownerContext = await team.browser.newContext({ baseURL: team.server.baseUrl, viewport: DESKTOP });
    try {
      const ownerPage = await ownerContext.newPage();
      ownerPage.setDefaultTimeout(20_000);
      await seedSession(ownerPage, team.ownerSession);
      await ownerPage.goto(link);
      await expect.poll(() => messages(ownerPage), POLL).toEqual([eventName(10), eventName(5)]);
      await ownerPage.getByText('Page 2 of 2').waitFor();
      await ownerPage.getByRole('button', { name: 'Show filters (2)' }).click();
      expect(await ownerPage.getByLabel('Type', { exact: true }).inputValue()).toBe('Robbery');
      expect(await ownerPage.getByLabel('Date from').inputValue()).toBe('2020-01-01');
      expect(ownerPage.url()).toBe(link);

      // Someone who is not a member: their own server, never this one's logs.
      const strangerPage = await ownerContext.newPage();
      await seedSession(strangerPage, { token: strangerToken, serverId: null, serverName: null });
      await strangerPage.goto(link);
      await strangerPage.getByText(FOREIGN).waitFor();
      await strangerPage.waitForURL((url) => url.searchParams.get('serverId') !== team.serverId);
      await strangerPage.getByText('No logs found.').waitFor();
    } finally {
      await ownerContext.close();
    }
  });

  it('back and forward step through the views, the form and the list following', async () => {
    // The history of the last test: the typed type (replaced), then the date (pushed), then page 2 (pushed).
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('page') === null && url.searchParams.get('dateFrom') === '2020-01-01');
    await expect.poll(() => cards(page).count(), POLL).toBe(10);
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('dateFrom') === null && url.searchParams.get('type') === 'Robbery');
    await expect.poll(() => page.getByLabel('Date from').inputValue(), POLL).toBe('');
    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('Robbery');
    await page.goForward();
    await expect.poll(() => page.getByLabel('Date from').inputValue(), POLL).toBe('2020-01-01');
    await page.goForward();
    await expect.poll(() => messages(page), POLL).toEqual([eventName(10), eventName(5)]);
  });

  it('?log= opens the logs around a log, it marked and in view, with a way back to the list', async () => {
    const id = await logId(eventName(30));
    await page.goto(`/logs?serverId=${team.serverId}&log=${id}`);
    const view = page.getByTestId('context-view');
    await expect.poll(() => view.getByTestId('log-card').count(), POLL).toBe(41);
    const marked = view.locator('[data-testid="log-card"][aria-current="true"]');
    expect(await marked.locator('.log-message').innerText()).toBe(eventName(30));
    await expect.poll(() => marked.evaluate((card) => {
      const box = card.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }), POLL).toBe(true);
    // Oldest first: Event 10 … Event 50 (the photo log came later).
    expect((await view.locator('.log-message').allInnerTexts())[0]).toBe(eventName(10));

    await walk.views(page, 'log-link', async () => {
      await page.goto(`/logs?serverId=${team.serverId}&log=${id}`);
      await expect.poll(() => page.getByTestId('context-view').getByTestId('log-card').count(), POLL).toBe(41);
    });

    await page.getByRole('button', { name: /Back to the list/ }).click();
    await page.waitForURL((url) => url.searchParams.get('log') === null);
    await expect.poll(() => cards(page).count(), POLL).toBe(10);
  });

  it("a card's Context opens its neighbours in place, the line marked, and copies the ?log= link", async () => {
    const id = await logId(eventName(58));
    await page.goto(`/logs?serverId=${team.serverId}`);
    const card = cards(page).filter({ hasText: eventName(58) });
    await card.getByRole('button', { name: `Context: logs around ${eventName(58)}` }).click();
    const drawer = page.getByRole('dialog', { name: 'Logs around this log' });
    await expect.poll(() => drawer.getByTestId('context-line').count(), POLL).toBe(24);
    expect(await drawer.locator('[aria-current="true"] .context-message').innerText()).toBe(eventName(58));
    expect(await drawer.getByText('[Photo] Screenshot at the bank').count()).toBe(1);
    await drawer.getByRole('button', { name: /Copy link/ }).click();
    await drawer.getByRole('button', { name: /Link copied/ }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${team.server.baseUrl}/logs?serverId=${team.serverId}&log=${id}`);

    await walk.views(page, 'context-drawer', async () => {
      await page.goto(`/logs?serverId=${team.serverId}`);
      await cards(page).filter({ hasText: eventName(58) }).getByRole('button', { name: /Context/ }).click();
      await expect.poll(() => page.getByRole('dialog').getByTestId('context-line').count(), POLL).toBe(24);
    });

    // "Open in Logs" goes to the same view as the link.
    await drawer.getByRole('button', { name: 'Open in Logs' }).click();
    await page.waitForURL((url) => url.searchParams.get('log') === id);
    await page.getByTestId('context-view').waitFor();
  });

  it('a photo card and the player timeline have the Context action too; /photologs keeps its filters in the address', async () => {
    await page.goto(`/photologs?serverId=${team.serverId}&search=bank`);
    const photo = page.getByTestId('photo-card');
    await expect.poll(() => photo.count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Show filters (1)' }).click();
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('bank');
    await photo.getByRole('button', { name: /Context/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Logs around this log' });
    expect(await drawer.locator('[aria-current="true"] .context-message').innerText()).toBe('[Photo] Screenshot at the bank');
    await page.keyboard.press('Escape');

    await waitFor(async () => (await team.api.ok<PlayerList>('GET', `/players?serverId=${team.serverId}`, { token: team.memberToken })).total === 1, 'the player recorded');
    const list = await team.api.ok<PlayerList>('GET', `/players?serverId=${team.serverId}`, { token: team.memberToken });
    await page.goto(`/players/${list.players[0]!.id}`);
    const timeline = page.getByTestId('player-timeline');
    await timeline.getByRole('button', { name: `Context: logs around ${eventName(7)}` }).click();
    await expect.poll(() => page.getByRole('dialog').locator('[aria-current="true"] .context-message').innerText(), POLL).toBe(eventName(7));
  });

  it('the dense table: remembered after a reload, at least 25 rows on a 1440x900 screen, j/k and Enter', async () => {
    await page.goto(`/logs?serverId=${team.serverId}`);
    await expect.poll(() => cards(page).count(), POLL).toBe(10);
    await page.getByText('Table', { exact: true }).click();
    await page.getByTestId('log-table').waitFor();
    await page.reload();
    await page.getByTestId('log-table').waitFor();
    await expect.poll(() => page.getByTestId('log-row').count(), POLL).toBe(50);
    expect(await cards(page).count()).toBe(0);
    const inView = await rowsInView(page);
    console.log(`table rows in view at 1440x900: ${inView}`);
    expect(inView).toBeGreaterThanOrEqual(25);

    const rows = page.getByTestId('log-row');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('j');
    expect(await rows.nth(0).evaluate((row) => row === document.activeElement)).toBe(true);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await rows.nth(1).evaluate((row) => row === document.activeElement)).toBe(true);
    // The focused row shows its ring.
    expect(await rows.nth(1).evaluate((row) => getComputedStyle(row).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    expect(await rows.nth(1).getByRole('button', { name: 'Hide details' }).getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('.log-row-detail').innerText()).toContain('"i": 59');

    await walk.views(page, 'table', async () => {
      await page.goto(`/logs?serverId=${team.serverId}`);
      await expect.poll(() => page.getByTestId('log-row').count(), POLL).toBe(50);
      await page.getByTestId('log-row').nth(0).click();
    });
    await page.getByText('Cards', { exact: true }).click();
    await page.reload();
    await expect.poll(() => cards(page).count(), POLL).toBeGreaterThan(0);
  });

  it('the filtered list in light and dark, desktop and 375 px', async () => {
    await page.evaluate(() => window.localStorage.setItem('logDisplay', 'cards'));
    await walk.views(page, 'filtered-link', async () => {
      await page.goto(`/logs?serverId=${team.serverId}&type=Robbery&page=2`);
      await expect.poll(() => messages(page), POLL).toEqual([eventName(10), eventName(5)]);
    });
  });

  it('no accessibility violations in the checked views', () => {
    expect(walk.failing().join('\n\n')).toBe('');
    expect(walk.a11y).toHaveLength(VIEWS.length * 4);
  });
});
