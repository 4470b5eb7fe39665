// Saved searches (docs/LOGS_API.md "Saved searches") in headless Chromium against the real all-in-one
// server: a member with the user role saves the filters of /logs under a name and applies the owner's
// search (the list narrows to it); Delete shows only on the member's own search and removes it after a
// confirmation; the owner sees Delete on every search. The open menu is checked in light and dark, desktop
// and 375 px (screenshots in test-output/e2e/saved-searches/, axe in each view).
import type { ApiLog, SavedSearch, SavedSearchList } from '@skald/contracts/api';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './api.ts';
import { startTeam, type Team } from './team.ts';
import { seedSession } from './session.ts';
import { DESKTOP, hasChromium, POLL, signedInPage, ViewCheck, VIEWS } from './walk.ts';

const stamp = Date.now().toString(36);
const owner = { username: `ss_owner_${stamp}`, password: 'Correct-horse-battery-9' };
const member = { username: `ss_member_${stamp}`, password: 'Correct-horse-battery-9' };
const LOGS = [
  { message: 'Bank robbery at Pacific Standard', level: 'error', type: 'Robbery', resource: 'heists' },
  { message: 'Bank robbery at Fleeca', level: 'warn', type: 'Robbery', resource: 'heists' },
  { message: 'Server restarted with an error', level: 'error', type: 'System', resource: 'core' },
  { message: 'Ann said hello', level: 'info', type: 'Chat', resource: 'chat' },
];

let team: Team;
let memberContext: BrowserContext;
let page: Page;
let ownersSearch: SavedSearch;
const walk = new ViewCheck('saved-searches');

const cards = (on: Page) => on.getByTestId('log-card');
const menu = (on: Page) => on.getByRole('region', { name: 'Saved searches' });
const rows = (on: Page) => menu(on).getByTestId('saved-search');

async function openLogs(on: Page): Promise<void> {
  await on.goto('/logs');
  await expect.poll(() => cards(on).count(), POLL).toBe(LOGS.length);
}

async function openMenu(on: Page): Promise<void> {
  await on.getByRole('button', { name: 'Saved searches' }).click();
  await menu(on).waitFor();
}

/** The filters toggle, the saved-search toggle and Per page: one row, side by side, none over another. */
async function toolbarRow(on: Page): Promise<{ oneRow: boolean; inOrder: boolean }> {
  return on.evaluate(() => {
    const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
    const [filters, saved, size] = [box('button[aria-controls="log-filters"]'), box('.saved-searches-toggle'), box('#page-size')];
    const middle = (r: DOMRect) => r.top + r.height / 2;
    return {
      oneRow: [saved, size].every((r) => middle(r) > filters.top && middle(r) < filters.bottom),
      inOrder: filters.right <= saved.left && saved.right <= size.left,
    };
  });
}

function savedSearches(): Promise<SavedSearchList> {
  return team.api.ok<SavedSearchList>('GET', `/saved-searches?serverId=${team.serverId}`, { token: team.ownerToken });
}

describe.skipIf(!hasChromium)('saved searches on /logs: save, apply, delete by who may (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    team = await startTeam({ owner, member, serverName: `Saved ${stamp}` });
    for (const log of LOGS) await team.game.log(log);
    await waitFor(async () => (await team.api.ok<ApiLog[]>('GET', `/logs/my?serverId=${team.serverId}`, { token: team.memberToken })).length === LOGS.length, 'the logs stored and the member let in');
    ownersSearch = await team.api.ok<SavedSearch>('POST', '/saved-searches', { token: team.ownerToken, body: { serverId: team.serverId, name: 'Errors only', query: { level: 'error' } } });

    ({ context: memberContext, page } = await signedInPage(team.browser, team.server.baseUrl, team.memberSession));
  });

  afterAll(async () => {
    await memberContext?.close();
    await team?.stop();
  });

  it("a member saves the page's filters under a name; the owner's search is listed beside it", async () => {
    await openLogs(page);
    await page.getByRole('button', { name: /Show filters/ }).click();
    await page.getByLabel('Search', { exact: true }).fill('bank');
    await page.getByLabel('Type', { exact: true }).fill('Robbery');
    await expect.poll(() => cards(page).count(), POLL).toBe(2);

    await openMenu(page);
    expect(await menu(page).getByText('Saves: Search “bank” · Type Robbery').count()).toBe(1);
    // A blank name is refused with the server's sentence, before anything is sent.
    await menu(page).getByLabel('Name for the current filters').fill('   ');
    await menu(page).getByRole('button', { name: 'Save current filters' }).click();
    await menu(page).getByText('Give the search a name.').waitFor();

    await menu(page).getByLabel('Name for the current filters').fill('  Bank robberies ');
    await menu(page).getByRole('button', { name: 'Save current filters' }).click();
    await menu(page).getByRole('button', { name: 'Apply saved search Bank robberies' }).waitFor();
    await expect.poll(() => rows(page).locator('.saved-search-apply').allInnerTexts(), POLL).toEqual(['Bank robberies', 'Errors only']);
    const stored = (await savedSearches()).searches.find((s) => s.name === 'Bank robberies');
    expect(stored?.query).toEqual({ search: 'bank', type: 'Robbery' });
  });

  it("applying the owner's search replaces the filters: the list narrows to its logs", async () => {
    await openLogs(page);
    await openMenu(page);
    await menu(page).getByRole('button', { name: 'Apply saved search Errors only' }).click();
    await expect.poll(() => cards(page).count(), POLL).toBe(2);
    const messages = await cards(page).allInnerTexts();
    expect(messages.join('\n')).toContain('Server restarted with an error');
    expect(messages.join('\n')).toContain('Bank robbery at Pacific Standard');
    expect(await page.getByRole('button', { name: 'Show filters (1)' }).count()).toBe(1);

    // Then the member's own: search and type, the level gone.
    await openMenu(page);
    await menu(page).getByRole('button', { name: 'Apply saved search Bank robberies' }).click();
    await expect.poll(async () => (await cards(page).allInnerTexts()).filter((text) => text.includes('Bank robbery')).length, POLL).toBe(2);
    expect(await cards(page).count()).toBe(2);
  });

  it('the open menu in light and dark, desktop and 375 px', async () => {
    await walk.views(page, 'menu', async () => {
      await openLogs(page);
      await openMenu(page);
      await expect.poll(() => rows(page).count(), POLL).toBe(2);
      expect(await toolbarRow(page)).toEqual({ oneRow: true, inOrder: true });
      // The delete confirmation as the member sees it.
      await menu(page).getByRole('button', { name: 'Delete saved search Bank robberies' }).click();
      await menu(page).getByText('Delete this saved search for everyone?').waitFor();
      // The toolbar's row is checked at each size: the menu is opened anew in each view.
    }, { eachView: true });
  });

  it("shows Delete only on the member's own search, and deletes it after a confirmation", async () => {
    await openLogs(page);
    await openMenu(page);
    await expect.poll(() => rows(page).count(), POLL).toBe(2);
    expect(await menu(page).getByRole('button', { name: 'Delete saved search Errors only' }).count()).toBe(0);
    await menu(page).getByRole('button', { name: 'Delete saved search Bank robberies' }).click();
    expect((await savedSearches()).searches).toHaveLength(2);
    await menu(page).getByRole('button', { name: 'Confirm delete' }).click();
    await expect.poll(() => rows(page).locator('.saved-search-apply').allInnerTexts(), POLL).toEqual(['Errors only']);
    expect((await savedSearches()).searches.map((s) => s.id)).toEqual([ownersSearch.id]);
  });

  it("the owner sees Delete on every search, the member's included", async () => {
    await team.api.ok('POST', '/saved-searches', { token: team.memberToken, body: { serverId: team.serverId, name: 'Chat', query: { type: 'Chat' } } });
    const ownerContext = await team.browser.newContext({ baseURL: team.server.baseUrl, viewport: DESKTOP });
    try {
      const ownerPage = await ownerContext.newPage();
      ownerPage.setDefaultTimeout(20_000);
      await seedSession(ownerPage, team.ownerSession);
      await openLogs(ownerPage);
      await openMenu(ownerPage);
      await expect.poll(() => menu(ownerPage).getByRole('button', { name: /^Delete saved search / }).count(), POLL).toBe(2);
    } finally {
      await ownerContext.close();
    }
  });

  it('no accessibility violations in the checked views', () => {
    expect(walk.failing().join('\n\n')).toBe('');
    expect(walk.a11y).toHaveLength(VIEWS.length);
  });
});
