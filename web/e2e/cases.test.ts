// Evidence cases (docs/CASES.md) in headless Chromium against the real all-in-one server: the owner opens a
// case from a log card with a Cyrillic title, adds a photo card's log and a player timeline's log to it
// (an existing open case), reads it on its page (each chosen log with its context), edits the notes, closes
// and reopens it, downloads the PDF (a real PDF arrives) and deletes it after a confirmation; a member with
// the user role sees no "Add to case" and reads the case without its write actions. The list and the case
// page are checked in light and dark, desktop and 375 px (screenshots in test-output/e2e/cases/, axe in each).
import { readFile } from 'node:fs/promises';
import type { ApiLog, Case, CaseList, PlayerDetail } from '@skald/contracts/api';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './api.ts';
import { startTeam, type Team } from './team.ts';
import { seedSession } from './session.ts';
import { DESKTOP, hasChromium, POLL, signedInPage, ViewCheck, VIEWS } from './walk.ts';

const stamp = Date.now().toString(36);
const owner = { username: `case_owner_${stamp}`, password: 'Correct-horse-battery-9' };
const member = { username: `case_member_${stamp}`, password: 'Correct-horse-battery-9' };
const IVAN = { name: 'Иван Петров', license: `license:1ca${stamp}` };
const TITLE = 'Ограбление банка';
const LOGS = [
  { message: 'Server restarted', level: 'info', type: 'System', resource: 'core' },
  { message: `${IVAN.name} joined`, level: 'info', type: 'Join', resource: 'core', metadata: { player: { name: IVAN.name, identifiers: [IVAN.license] } } },
  { message: `${IVAN.name} robbed the Fleeca bank`, level: 'error', type: 'Robbery', resource: 'heists', metadata: { player: { name: IVAN.name, identifiers: [IVAN.license] }, amount: 25000 } },
  { message: 'Police dispatched to Fleeca', level: 'warn', type: 'Dispatch', resource: 'police' },
];

let team: Team;
let context: BrowserContext;
let page: Page;
let caseId = '';
const walk = new ViewCheck('cases');

function theCase(): Promise<Case> {
  return team.api.ok<Case>('GET', `/cases/${caseId}`, { token: team.ownerToken });
}

const dialog = (on: Page) => on.getByRole('dialog', { name: 'Add to a case' });

/** Opens "Add to case" on the card whose text holds `text`. */
async function addFrom(on: Page, testId: string, text: string): Promise<void> {
  const card = on.getByTestId(testId).filter({ hasText: text }).first();
  await card.getByRole('button', { name: /^Add to case/ }).click();
  await dialog(on).waitFor();
}

describe.skipIf(!hasChromium)('evidence cases: add to case, the list, a case page, the PDF (all-in-one server, headless Chromium)', () => {
  beforeAll(async () => {
    team = await startTeam({ owner, member, serverName: `Cases ${stamp}` });
    for (const log of LOGS) await team.game.log(log);
    await team.game.photo({ message: `Screenshot of ${IVAN.name} at the vault`, level: 'warn', metadata: { player: { name: IVAN.name, identifiers: [IVAN.license] } } });
    await waitFor(async () => (await team.api.ok<ApiLog[]>('GET', `/logs/my/combined?serverId=${team.serverId}`, { token: team.memberToken })).length === LOGS.length + 1, 'the logs stored and the member let in');

    ({ context, page } = await signedInPage(team.browser, team.server.baseUrl, team.ownerSession, { acceptDownloads: true }));
  });

  afterAll(async () => {
    await context?.close();
    await team?.stop();
  });

  it('the owner opens a case from a log card, with a title in Cyrillic', async () => {
    await page.goto('/logs');
    await addFrom(page, 'log-card', 'robbed the Fleeca bank');
    await dialog(page).getByText('No open case yet: create one.').waitFor();
    await dialog(page).getByLabel('Case title').fill(TITLE);
    await dialog(page).getByLabel('Notes').fill('Seen by two admins');
    await dialog(page).getByRole('button', { name: 'Create case' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    const list = await team.api.ok<CaseList>('GET', `/cases?serverId=${team.serverId}`, { token: team.ownerToken });
    expect(list.cases.map((c) => [c.title, c.itemCount])).toEqual([[TITLE, 1]]);
    caseId = list.cases[0]!.id;
    const opened = await theCase();
    expect(opened.items[0]!.log.message).toBe(`${IVAN.name} robbed the Fleeca bank`);
    // Every other log of the server is its context.
    expect(opened.items[0]!.before.length + opened.items[0]!.after.length).toBe(LOGS.length);
  });

  it('adds a photo card’s log and a player timeline’s log to the open case', async () => {
    await page.goto('/photologs');
    await addFrom(page, 'photo-card', 'at the vault');
    await dialog(page).getByText(`${TITLE} (1)`).waitFor();
    await dialog(page).getByRole('button', { name: 'Add', exact: true }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    await expect.poll(async () => (await theCase()).itemCount, POLL).toBe(2);

    let player: PlayerDetail | null = null;
    await waitFor(async () => {
      const res = await team.api.call('GET', `/players/by-identifier/${encodeURIComponent(IVAN.license)}?serverId=${team.serverId}`, { token: team.ownerToken });
      if (res.status === 200) player = res.body as unknown as PlayerDetail;
      return res.status === 200;
    }, 'Иван to be recorded as a player');
    await page.goto(`/players/${encodeURIComponent(player!.id)}`);
    await page.getByTestId('player-timeline').waitFor();
    await addFrom(page, 'log-card', `${IVAN.name} joined`);
    await dialog(page).getByRole('button', { name: 'Add', exact: true }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    await expect.poll(async () => (await theCase()).items.map((i) => i.log.message), POLL).toEqual([
      `${IVAN.name} joined`,
      `${IVAN.name} robbed the Fleeca bank`,
      `Screenshot of ${IVAN.name} at the vault`,
    ]);
  });

  it('the case page: items with their context, notes saved, closed and reopened, the PDF downloaded', async () => {
    await page.goto('/dashboard');
    await page.locator('#server-sidebar').getByRole('link', { name: 'Cases', exact: true }).click();
    await page.getByTestId('case-row').first().getByRole('link', { name: TITLE }).click();
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await expect.poll(() => page.getByTestId('case-item').count(), POLL).toBe(3);
    expect(await page.getByTestId('case-chosen-line').allInnerTexts()).toEqual([
      expect.stringContaining(`${IVAN.name} joined`),
      expect.stringContaining('robbed the Fleeca bank'),
      expect.stringContaining('at the vault'),
    ]);
    await page.getByTestId('case-item').nth(2).getByRole('link', { name: /^Open photo:/ }).waitFor();

    await page.getByRole('textbox', { name: 'Notes' }).fill('Banned for 7 days');
    await page.getByRole('button', { name: 'Save notes' }).click();
    await expect.poll(async () => (await theCase()).notes, POLL).toBe('Banned for 7 days');
    await page.getByRole('button', { name: 'Close case' }).click();
    await expect.poll(() => page.getByTestId('case-status').innerText(), POLL).toBe('Closed');
    expect((await theCase()).status).toBe('closed');
    await page.getByRole('button', { name: 'Reopen case' }).click();
    await expect.poll(() => page.getByTestId('case-status').innerText(), POLL).toBe('Open');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Download PDF$/ }).click()]);
    expect(download.suggestedFilename()).toBe(`case-${TITLE.replace(' ', '-')}.pdf`);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(10_000);
  });

  it('the list and the case page in light and dark, desktop and 375 px', async () => {
    await walk.views(page, 'list', async () => {
      await page.goto('/cases');
      await expect.poll(() => page.getByTestId('case-row').count(), POLL).toBe(1);
    });
    await walk.views(page, 'case', async () => {
      await page.goto(`/cases/${caseId}`);
      await expect.poll(() => page.getByTestId('case-item').count(), POLL).toBe(3);
    });
    await walk.views(page, 'add-dialog', async () => {
      await page.goto('/logs');
      await addFrom(page, 'log-card', 'Police dispatched');
    });
  });

  it('a member with the user role sees no "Add to case" and reads the case without its write actions', async () => {
    const memberContext = await team.browser.newContext({ baseURL: team.server.baseUrl, viewport: DESKTOP });
    try {
      const memberPage = await memberContext.newPage();
      memberPage.setDefaultTimeout(20_000);
      await seedSession(memberPage, team.memberSession);
      await memberPage.goto('/logs');
      await expect.poll(() => memberPage.getByTestId('log-card').count(), POLL).toBe(LOGS.length);
      await memberPage.getByTestId('log-card').first().getByRole('button', { name: /^Context/ }).waitFor();
      expect(await memberPage.getByRole('button', { name: /^Add to case/ }).count()).toBe(0);
      await memberPage.goto(`/cases/${caseId}`);
      await memberPage.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      await memberPage.getByText('Banned for 7 days').waitFor();
      expect(await memberPage.getByRole('button', { name: /Close case|Delete case|Save notes/ }).count()).toBe(0);
      expect(await memberPage.getByRole('button', { name: /Download PDF$/ }).count()).toBe(1);
    } finally {
      await memberContext.close();
    }
  });

  it('deletes the case after a confirmation', async () => {
    await page.goto(`/cases/${caseId}`);
    await page.getByRole('button', { name: /Delete case$/ }).click();
    expect((await team.api.call('GET', `/cases/${caseId}`, { token: team.ownerToken })).status).toBe(200);
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await page.waitForURL((url) => url.pathname === '/cases');
    await page.getByText('No cases yet.', { exact: false }).waitFor();
    expect((await team.api.call('GET', `/cases/${caseId}`, { token: team.ownerToken })).status).toBe(404);
  });

  it('no accessibility violations in the checked views', () => {
    expect(walk.failing().join('\n\n')).toBe('');
    expect(walk.a11y).toHaveLength(3 * VIEWS.length);
  });
});
