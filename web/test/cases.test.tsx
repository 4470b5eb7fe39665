// Evidence cases in the web app (docs/CASES.md): "Add to case" on a log card (owner and admin only, hidden
// for a user) creates a case with the log or adds it to an open one, showing the server's sentence when
// refused; the /cases list; a case page with each chosen log and its context, notes edit, close and reopen,
// the PDF download and delete after a confirmation; a user reads without the write actions.
import type { Case, CaseList, CaseSummary, ServerRole } from '@skald/contracts/api';
import { CASE_TITLE_REQUIRED, casesFull } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CasePage from '../src/features/cases/CasePage.tsx';
import CasesPage from '../src/features/cases/CasesPage.tsx';
import { CASE_TEXT } from '../src/features/cases/caseText.ts';
import { fileSaver } from '../src/features/exports/exportsApi.ts';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import { apiLog, LEVELS, levelColors, meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function summary(over: Partial<CaseSummary> = {}): CaseSummary {
  return { id: 'c1', title: 'Bank robbery', status: 'open', createdBy: 'u1', createdAt: '2026-01-02T11:00:00.000Z', itemCount: 2, ...over };
}

function caseAnswer(over: Partial<Case> = {}): Case {
  return {
    id: 'c1',
    serverId: 's1',
    title: 'Bank robbery',
    notes: 'Seen by two admins',
    status: 'open',
    createdBy: 'u1',
    createdAt: '2026-01-02T11:00:00.000Z',
    updatedAt: '2026-01-02T11:00:00.000Z',
    itemCount: 1,
    bytes: 2048,
    items: [
      {
        log: apiLog({ id: 'chosen', message: 'Иван robbed the bank', level: 'error', type: 'Robbery', resource: 'heists', metadata: { player: 'Иван' } }),
        before: [apiLog({ id: 'b1', message: 'Иван entered the bank' })],
        after: [apiLog({ id: 'a1', message: 'Police arrived', log_type: 'photo', image_path: '/api/photologs/image/a1?t=x', thumb_path: '/api/photologs/image/a1?t=y' })],
      },
    ],
    ...over,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

function logsApi(role: ServerRole, cases: CaseSummary[] = [summary(), summary({ id: 'c2', title: 'Old one', status: 'closed' })]) {
  const posted: { url: string; body: unknown }[] = [];
  const seen = mockApi({
    'GET /auth/me': () => json(meAnswer({ serverRole: role })),
    'GET /settings/colors': () => json(levelColors()),
    'GET /settings/levels': () => json(LEVELS),
    'GET /logs/my': () => json([apiLog({ id: 'l1', message: 'Bank robbery at Fleeca' })], { headers: { 'X-Total-Count': '1' } }),
    'GET /logs/my/histogram': () => json({ buckets: [], span: null, capped: false, step: 'hour', edges: [] }),
    'GET /cases': () => json({ cases, maxCases: 3 } satisfies CaseList),
    'POST /cases': async (request) => {
      const body = (await request.json()) as { title: string };
      posted.push({ url: '/cases', body });
      if (body.title === 'Too many') return json({ error: casesFull(3, 'Free'), message: casesFull(3, 'Free') }, { status: 403 });
      return json(caseAnswer({ id: 'new', title: body.title }), { status: 201 });
    },
    'POST /cases/c1/logs': async (request) => {
      posted.push({ url: '/cases/c1/logs', body: await request.json() });
      return json(caseAnswer());
    },
  });
  return Object.assign(seen, { posted });
}

async function openDialog() {
  const card = (await screen.findAllByTestId('log-card'))[0]!;
  fireEvent.click(await within(card).findByRole('button', { name: 'Add to case: Bank robbery at Fleeca' }));
  return screen.findByRole('dialog');
}

describe('"Add to case" on a log card', () => {
  it('is not shown to a member with the user role', async () => {
    logsApi('user');
    renderScreen(<LogsPage />, { path: '/logs', session: SIGNED_IN });
    const card = (await screen.findAllByTestId('log-card'))[0]!;
    await within(card).findByRole('button', { name: /Context/ });
    expect(within(card).queryByRole('button', { name: /Add to case/ })).toBeNull();
  });

  it('adds the log to the open case chosen (closed cases are not offered)', async () => {
    const api = logsApi('admin');
    renderScreen(<LogsPage />, { path: '/logs', session: SIGNED_IN });
    const dialog = await openDialog();
    await within(dialog).findByText('Bank robbery (2)');
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    expect(screen.queryByText('Old one (2)')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: CASE_TEXT.add }));
    await waitFor(() => expect(api.posted).toEqual([{ url: '/cases/c1/logs', body: { logIds: ['l1'] } }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('creates a new case with the log; a blank title is refused before sending, the server’s refusal is shown', async () => {
    const api = logsApi('owner', []);
    renderScreen(<LogsPage />, { path: '/logs', session: SIGNED_IN });
    const dialog = await openDialog();
    await within(dialog).findByText(CASE_TEXT.noOpenCases);
    fireEvent.click(within(dialog).getByRole('button', { name: CASE_TEXT.create }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(CASE_TITLE_REQUIRED);
    expect(api.posted).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(CASE_TEXT.titleLabel), { target: { value: 'Too many' } });
    fireEvent.click(within(dialog).getByRole('button', { name: CASE_TEXT.create }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(casesFull(3, 'Free')));

    fireEvent.change(within(dialog).getByLabelText(CASE_TEXT.titleLabel), { target: { value: '  Heist  ' } });
    fireEvent.change(within(dialog).getByLabelText(CASE_TEXT.notesLabel), { target: { value: 'Two cars' } });
    fireEvent.click(within(dialog).getByRole('button', { name: CASE_TEXT.create }));
    await waitFor(() => expect(api.posted.at(-1)).toEqual({ url: '/cases', body: { serverId: 's1', title: 'Heist', notes: 'Two cars', logIds: ['l1'] } }));
  });
});

describe('/cases', () => {
  it('lists the cases with status, logs and the tier count, each linking to its page', async () => {
    mockApi({ 'GET /cases': () => json({ cases: [summary(), summary({ id: 'c2', title: 'Old one', status: 'closed', itemCount: 1 })], maxCases: 3 } satisfies CaseList) });
    renderScreen(<CasesPage />, { path: '/cases', session: SIGNED_IN });
    const rows = await screen.findAllByTestId('case-row');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringMatching(/^Bank robberyOpen2 logs · opened/), expect.stringMatching(/^Old oneClosed1 log · opened/)]);
    expect(screen.getByText('2 / 3 cases')).toBeTruthy();
    expect(within(rows[0]!).getByRole('link', { name: 'Bank robbery' }).getAttribute('href')).toBe('/cases/c1');
  });
});

function caseApi(role: ServerRole) {
  let current = caseAnswer();
  const patched: unknown[] = [];
  const seen = mockApi({
    'GET /auth/me': () => json(meAnswer({ serverRole: role })),
    'GET /settings/colors': () => json(levelColors()),
    'GET /cases/c1': () => json(current),
    'PATCH /cases/c1': async (request) => {
      const body = (await request.json()) as Partial<Case>;
      patched.push(body);
      current = { ...current, ...body };
      return json(current);
    },
    'DELETE /cases/c1': () => json({ message: 'Case deleted' }),
    'GET /cases/c1/pdf': () => new Response(new Blob(['%PDF-1.3 case'], { type: 'application/pdf' }), { status: 200, headers: { 'Content-Type': 'application/pdf' } }),
  });
  return Object.assign(seen, { patched });
}

describe('a case page', () => {
  it('shows each chosen log with its context, the chosen one marked, photos and metadata', async () => {
    caseApi('user');
    renderScreen(<CasePage />, { path: '/cases/c1', route: '/cases/:caseId', session: SIGNED_IN });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Bank robbery');
    const item = (await screen.findAllByTestId('case-item'))[0]!;
    const lines = within(item).getAllByRole('listitem');
    expect(lines.map((line) => line.querySelector('.case-line-message')?.textContent)).toEqual(['Иван entered the bank', 'Иван robbed the bank', 'Police arrived']);
    expect(lines[1]!.getAttribute('aria-current')).toBe('true');
    expect(within(lines[1]!).getByText(CASE_TEXT.chosen)).toBeTruthy();
    expect(within(lines[2]!).getByRole('link', { name: 'Open photo: Police arrived' })).toBeTruthy();
    // A user reads: notes as text, no write action.
    expect(screen.getByText('Seen by two admins')).toBeTruthy();
    expect(screen.queryByRole('button', { name: CASE_TEXT.close })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete case$/ })).toBeNull();
    expect(screen.queryByLabelText(CASE_TEXT.notesLabel, { selector: 'textarea' })).toBeNull();
    expect(screen.getByRole('button', { name: /Download PDF$/ })).toBeTruthy();
  });

  it('an admin edits the notes, closes and reopens', async () => {
    const api = caseApi('admin');
    renderScreen(<CasePage />, { path: '/cases/c1', route: '/cases/:caseId', session: SIGNED_IN });
    const notes = await screen.findByLabelText(CASE_TEXT.notesLabel, { selector: 'textarea' });
    fireEvent.change(notes, { target: { value: 'Banned 7 days' } });
    fireEvent.click(screen.getByRole('button', { name: CASE_TEXT.notesSave }));
    await waitFor(() => expect(api.patched).toEqual([{ notes: 'Banned 7 days' }]));

    fireEvent.click(await screen.findByRole('button', { name: CASE_TEXT.close }));
    await waitFor(() => expect(screen.getByTestId('case-status').textContent).toBe('Closed'));
    fireEvent.click(await screen.findByRole('button', { name: CASE_TEXT.reopen }));
    await waitFor(() => expect(screen.getByTestId('case-status').textContent).toBe('Open'));
    expect(api.patched.slice(1)).toEqual([{ status: 'closed' }, { status: 'open' }]);
  });

  it('an admin downloads the PDF, and deletes the case after a confirmation', async () => {
    const api = caseApi('admin');
    const saved = vi.spyOn(fileSaver, 'save').mockImplementation(() => undefined);
    renderScreen(<CasePage />, { path: '/cases/c1', route: '/cases/:caseId', session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: /Download PDF$/ }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(saved.mock.calls[0]![1]).toBe('case-Bank-robbery.pdf');

    fireEvent.click(await screen.findByRole('button', { name: /Delete case$/ }));
    expect(api.some((request) => request.method === 'DELETE')).toBe(false);
    fireEvent.click(await screen.findByRole('button', { name: CASE_TEXT.confirmDelete }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/cases'));
    expect(api.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });

  it('says so when the case does not exist', async () => {
    mockApi({ 'GET /cases/c1': () => json({ error: 'Case not found.', message: 'Case not found.' }, { status: 404 }) });
    renderScreen(<CasePage />, { path: '/cases/c1', route: '/cases/:caseId', session: SIGNED_IN });
    expect(await screen.findByText(CASE_TEXT.notFound)).toBeTruthy();
  });
});
