// Players (docs/PLAYERS.md) in headless Chromium against the real all-in-one server: logs sent with the API
// key name two players (a join and a photo of Ann, a death with Bob as victim and Ann as killer); /players
// lists them and finds each by a name and by an identifier's value; Ann's page shows her names,
// identifiers and a timeline with the photo's thumbnail; an identifier link on /logs opens Bob's page; the
// owner erases Bob after typing ERASE. The list, the player page, a log card's metadata links and the erase
// dialog are checked in light and dark, desktop and 375 px (screenshots in test-output/e2e/players/, axe in
// each view).
import type { PlayerDetail, PlayerList, PlayerLogPage } from '@skald/contracts/api';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAt, createServer, signUp, waitFor, type WalkthroughApi } from './api.ts';
import { buildWeb, startAllInOne, type RunningServer } from './server.ts';
import { gameServer, type GameServer } from './game-server.ts';
import { hasChromium, launchChromium, POLL, signedInPage, ViewCheck, VIEWS } from './walk.ts';

const stamp = Date.now().toString(36);
const owner = { username: `pl_owner_${stamp}`, password: 'Correct-horse-battery-9' };
const ANN = { name: 'Ann Walker', license: `license:a11ce${stamp}`, discord: 'discord:100200300' };
const BOB = { name: 'Bob Stone', license: `license:b0b${stamp}`, discord: 'discord:400500600' };

let server: RunningServer;
let api: WalkthroughApi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let serverId: string;
let game: GameServer;
const walk = new ViewCheck('players');

function players(search = ''): Promise<PlayerList> {
  const query = new URLSearchParams({ serverId, ...(search === '' ? {} : { search }) });
  return api.ok<PlayerList>('GET', `/players?${query.toString()}`, { token });
}

async function playerOf(identifier: string): Promise<PlayerDetail> {
  return api.ok<PlayerDetail>('GET', `/players/by-identifier/${encodeURIComponent(identifier)}?serverId=${serverId}`, { token });
}

const rows = () => page.getByTestId('player-row');

async function search(text: string): Promise<void> {
  await page.getByLabel('Search players').fill(text);
  await page.waitForURL((url) => url.searchParams.get('search') === text);
}

async function openPlayer(name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByTestId('player-timeline').waitFor();
}

describe.skipIf(!hasChromium)('players: list, search, page, timeline, links from /logs and erasure (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    buildWeb();
    server = await startAllInOne();
    api = apiAt(server.baseUrl);
    browser = await launchChromium();
    token = await signUp(api, owner);
    const created = await createServer(api, token, `Players ${stamp}`);
    serverId = created.id;
    game = gameServer(server.baseUrl, created.api_key);

    await game.log({ message: `${ANN.name} joined`, level: 'info', type: 'Join', resource: 'core', metadata: { player: { name: ANN.name, identifiers: [ANN.license, ANN.discord] } } });
    await game.log({
      message: `${ANN.name} killed ${BOB.name}`,
      level: 'warn',
      type: 'Death',
      resource: 'baseevents',
      metadata: { victim: { name: BOB.name, identifiers: [BOB.license, BOB.discord] }, killer: { name: ANN.name, identifiers: [ANN.license] }, weapon: 'WEAPON_PISTOL' },
    });
    await game.photo({ message: `Screenshot of ${ANN.name}`, metadata: { player: { name: ANN.name, identifiers: [ANN.license] } } });
    await waitFor(async () => {
      const list = await players();
      return list.total === 2 && list.players.find((p) => p.name === ANN.name)?.photoCount === 1;
    }, 'both players recorded, with the photo');

    ({ context, page } = await signedInPage(browser, server.baseUrl, { token, serverId, serverName: created.name }));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('lists the players from the sidebar, and finds each by a name and by an identifier value', async () => {
    await page.goto('/dashboard');
    await page.locator('#server-sidebar').getByRole('link', { name: 'Players', exact: true }).click();
    await page.waitForURL('**/players');
    await expect.poll(() => rows().count(), POLL).toBe(2);
    const names = await rows().locator('.player-row-name').allInnerTexts();
    expect(names.sort()).toEqual([ANN.name, BOB.name].sort());
    const ann = rows().filter({ hasText: ANN.name });
    expect(await ann.innerText()).toContain(ANN.license);
    expect(await ann.innerText()).toContain(ANN.discord);
    expect(await ann.innerText()).toContain('2 logs · 1 photo log');

    await search('bob st');
    await expect.poll(() => rows().count(), POLL).toBe(1);
    expect(await rows().first().locator('.player-row-name').innerText()).toBe(BOB.name);

    // An identifier's value without its kind.
    await search(ANN.license.slice('license:'.length));
    await expect.poll(() => rows().locator('.player-row-name').allInnerTexts(), POLL).toEqual([ANN.name]);

    await search('nobody-has-this-name');
    await page.getByText('No players match this search.').waitFor();

    await walk.views(page, 'players-list', async () => {
      await page.goto('/players');
      await expect.poll(() => rows().count(), POLL).toBe(2);
    });
  });

  it("opens a player: names, identifiers with first and last seen, and a timeline with the photo's thumbnail", async () => {
    await page.goto('/players');
    await rows().filter({ hasText: ANN.name }).getByRole('link', { name: ANN.name }).click();
    await openPlayer(ANN.name);
    expect(await page.getByTestId('player-names').innerText()).toContain(ANN.name);
    const identifiers = await page.getByTestId('player-identifiers').innerText();
    expect(identifiers).toContain(ANN.license);
    expect(identifiers).toContain(ANN.discord);
    expect(identifiers).toContain('First seen');

    const timeline = page.getByTestId('player-timeline');
    await expect.poll(() => timeline.getByTestId('log-card').count(), POLL).toBe(3);
    const thumbnail = timeline.getByRole('img', { name: `Screenshot of ${ANN.name}` });
    await expect.poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), POLL).toBe(true);
    await timeline.getByRole('button', { name: `Open photo: Screenshot of ${ANN.name}` }).click();
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await expect.poll(() => viewer.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth), POLL).toBe(640);
    await page.keyboard.press('Escape');

    // One kind at a time.
    await page.locator('.player-timeline').getByText('Photo logs', { exact: true }).click();
    await expect.poll(() => timeline.getByTestId('log-card').count(), POLL).toBe(1);

    const annId = (await playerOf(ANN.license)).id;
    await walk.views(page, 'player-page', async () => {
      await page.goto(`/players/${annId}`);
      await openPlayer(ANN.name);
      await expect.poll(() => page.getByTestId('player-timeline').getByTestId('log-card').count(), POLL).toBe(3);
      await page.getByTestId('player-timeline').getByRole('img').first().evaluate((img) => (img as HTMLImageElement).decode());
    });
  });

  it("follows an identifier and a player name in a log's metadata on /logs to the player", async () => {
    const bobId = (await playerOf(BOB.license)).id;
    await page.goto('/logs');
    const death = page.getByTestId('log-card').filter({ hasText: `${ANN.name} killed ${BOB.name}` });
    await death.getByText('View metadata').click();
    const identifierLink = death.getByRole('link', { name: BOB.discord });
    expect(await identifierLink.getAttribute('href')).toBe(`/players?serverId=${serverId}&identifier=${encodeURIComponent(BOB.discord)}`);
    expect(await death.getByRole('link', { name: BOB.name }).getAttribute('href')).toBe(`/players?serverId=${serverId}&identifier=${encodeURIComponent(BOB.license)}`);
    await walk.views(page, 'logs-metadata-links', async () => {
      await page.goto('/logs');
      await death.getByText('View metadata').click();
      await death.getByRole('link', { name: BOB.discord }).waitFor();
    });
    await page.goto('/logs');
    await death.getByText('View metadata').click();
    await identifierLink.click();
    await page.waitForURL(`**/players/${bobId}`);
    await openPlayer(BOB.name);

    // The killer's name links to Ann.
    await page.goto('/logs');
    await death.getByText('View metadata').click();
    const killer = death.getByRole('link', { name: ANN.name });
    await killer.click();
    await openPlayer(ANN.name);

    // An identifier no player of the server has.
    await page.goto(`/players?identifier=${encodeURIComponent('steam:110000100000001')}`);
    await page.getByRole('heading', { level: 1, name: 'Player not found' }).waitFor();
  });

  it('the owner erases a player after typing ERASE: the count, back to /players, its logs gone', async () => {
    const bob = await playerOf(BOB.license);
    const dialog = page.getByRole('dialog', { name: `Erase ${BOB.name}?` });
    const confirm = dialog.getByRole('button', { name: 'Erase', exact: true });
    const typed = dialog.getByLabel('Type ERASE to confirm');
    // Each view opens the page anew and the dialog, and checks the confirmation's typed guard again.
    await walk.views(page, 'erase-dialog', async () => {
      await page.goto(`/players/${bob.id}`);
      await openPlayer(BOB.name);
      await page.getByRole('button', { name: 'Erase player' }).click();
      expect(await confirm.isDisabled()).toBe(true);
      await typed.fill('erase');
      expect(await confirm.isDisabled()).toBe(true);
      await typed.fill('ERASE');
      expect(await confirm.isDisabled()).toBe(false);
    }, { eachView: true });
    // Nothing was erased while the dialog stood open.
    expect((await playerOf(BOB.license)).logCount).toBe(1);

    await confirm.click();
    await page.getByText('Player erased: 1 log deleted.', { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/players');
    await expect.poll(() => rows().locator('.player-row-name').allInnerTexts(), POLL).toEqual([ANN.name]);

    // The death log is gone for Ann too; her join and her photo stay.
    const ann = await playerOf(ANN.license);
    expect({ logCount: ann.logCount, photoCount: ann.photoCount }).toEqual({ logCount: 1, photoCount: 1 });
    const timeline = await api.ok<PlayerLogPage>('GET', `/players/${ann.id}/logs?serverId=${serverId}`, { token });
    expect(timeline.logs.map((log) => log.message).sort()).toEqual([`${ANN.name} joined`, `Screenshot of ${ANN.name}`].sort());
    expect((await api.call('GET', `/players/by-identifier/${encodeURIComponent(BOB.license)}?serverId=${serverId}`, { token })).status).toBe(404);
  });

  it('no accessibility violations in the checked views', () => {
    expect(walk.failing().join('\n\n')).toBe('');
    expect(walk.a11y).toHaveLength(VIEWS.length * 4);
  });
});
