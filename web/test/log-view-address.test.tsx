// The log screens' view lives in the address (docs/DECISIONS.md "The view in the address, Context and the dense table"): the address sets
// the filters, page, page size and Live; a filter change writes the address (a deliberate change pushes, typing
// replaces once it settles); back and forward bring the form and the list along; a bare /logs gets its
// server; a link to a server the user is not a member of falls back to the current server with a notice;
// ?log= shows the logs around one log. Also the Context drawer and the dense table (its keys, remembered).
import type { LogContext } from '@skald/contracts/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation, useNavigate, useNavigationType } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import { FOREIGN_LINK_TEXT } from '../src/features/logs/useLogView.ts';
import { queryFromView, viewFromQuery, type ViewRules } from '../src/features/logs/logView.ts';
import { EMPTY_FILTERS } from '../src/features/logs/logFilters.ts';
import { rowStep } from '../src/features/logs/LogTable.tsx';
import PhotoLogsPage from '../src/features/photologs/PhotoLogsPage.tsx';
import { apiLog, LEVELS, levelColors, meAnswer, photoLogPage } from './fixtures.ts';
import { json, mockApi, renderInApp, SIGNED_IN } from './helpers.tsx';

const RULES: ViewRules = { sizes: [10, 25, 50], defaultSize: 10, liveAllowed: true };

function Probe() {
  const location = useLocation();
  const action = useNavigationType();
  const navigate = useNavigate();
  return (
    <div>
      <output data-testid="address">{location.search}</output>
      <output data-testid="action">{action}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        test back
      </button>
      <button type="button" onClick={() => void navigate(1)}>
        test forward
      </button>
    </div>
  );
}

function renderAt(path: string, page = <LogsPage />) {
  const { store } = renderInApp(
    <>
      <Routes>
        <Route path="/logs" element={page} />
        <Route path="/photologs" element={page} />
      </Routes>
      <Probe />
    </>,
    { path, session: SIGNED_IN },
  );
  return store;
}

const address = () => new URLSearchParams(screen.getByTestId('address').textContent ?? '');
const action = () => screen.getByTestId('action').textContent;

const LOGS = Array.from({ length: 30 }, (_, i) => apiLog({ id: `l${i}`, message: `line ${i}`, metadata: { n: i } }));

function api(context?: LogContext) {
  return mockApi({
    'GET /auth/me': () => json({ ...meAnswer(), servers: [{ id: 's1', name: 'Alpha', role: 'owner' }, { id: 's2', name: 'Beta', role: 'viewer' }] }),
    'GET /settings/colors': () => json(levelColors()),
    'GET /settings/levels': () => json(LEVELS),
    'GET /logs/my': (request) => {
      const size = Number(new URL(request.url).searchParams.get('pageSize'));
      return json(LOGS.slice(0, size), { headers: { 'X-Total-Count': '300' } });
    },
    'GET /logs/my/histogram': () => json({ buckets: [], span: null, capped: false, step: 'hour', edges: [] }),
    'GET /photologs/my': () => json({ ...photoLogPage([apiLog({ id: 'p1', log_type: 'photo', image_path: '/p.png', thumb_path: '/p.png' })]), total: 40 }),
    'GET /photologs/my/histogram': () => json({ buckets: [], span: null, capped: false, step: 'hour', edges: [] }),
    'GET /saved-searches': () => json({ searches: [] }),
    ...(context ? { [`GET /logs/${context.log.id}/context`]: () => json(context) } : {}),
  });
}

const listQueries = (seen: Request[], path = '/logs/my?') => seen.filter((r) => r.url.includes(path)).map((r) => Object.fromEntries(new URL(r.url).searchParams));

beforeEach(() => {
  window.localStorage.clear();
  Element.prototype.scrollIntoView = vi.fn();
});

describe('the view as an address', () => {
  it('reads every field, leaves defaults and nonsense out, and writes the same address back', () => {
    const params = new URLSearchParams('serverId=s1&search=bank&level=error&page=3&pageSize=25&live=1&log=l9&timeFrom=2026-01-01T00:00:00Z');
    const view = viewFromQuery(params, RULES);
    // Half a time range is no range.
    expect(view).toEqual({ filters: { ...EMPTY_FILTERS, search: 'bank', level: 'error' }, page: 3, pageSize: 25, live: true, log: 'l9' });
    expect(queryFromView('s1', view, RULES).toString()).toBe('serverId=s1&search=bank&level=error&page=3&pageSize=25&live=1&log=l9');
    const odd = viewFromQuery(new URLSearchParams('page=-2&pageSize=33&live=yes'), { ...RULES, absentSize: 50 });
    expect(odd).toMatchObject({ page: 1, pageSize: 50, live: false, log: null });
    expect(queryFromView('s1', { ...odd, pageSize: 10 }, RULES).toString()).toBe('serverId=s1');
    expect(viewFromQuery(new URLSearchParams('live=1'), { ...RULES, liveAllowed: false }).live).toBe(false);
  });

  it('opens the view a link names: filters in the form, page and page size in the list request', async () => {
    const seen = api();
    renderAt('/logs?serverId=s1&search=bank&dateFrom=2026-01-05&page=3&pageSize=25');
    await screen.findAllByTestId('log-card');
    expect(listQueries(seen).at(-1)).toMatchObject({ serverId: 's1', search: 'bank', dateFrom: '2026-01-05', page: '3', pageSize: '25' });
    fireEvent.click(screen.getByRole('button', { name: /Show filters \(2\)/ }));
    expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe('bank');
    expect(screen.getByLabelText<HTMLInputElement>('Date from').value).toBe('2026-01-05');
    expect(screen.getByText('Page 3 of 12')).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Per page').value).toBe('25');
  });

  it('gives a bare /logs its server, replacing the entry', async () => {
    api();
    renderAt('/logs');
    await waitFor(() => expect(address().get('serverId')).toBe('s1'));
    expect(action()).toBe('REPLACE');
  });

  it('pushes a deliberate change, replaces settled typing, and follows back and forward', async () => {
    const seen = api();
    renderAt('/logs?serverId=s1');
    await screen.findAllByTestId('log-card');
    fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));

    fireEvent.change(screen.getByLabelText('Date from'), { target: { value: '2026-01-05' } });
    expect(address().get('dateFrom')).toBe('2026-01-05');
    expect(action()).toBe('PUSH');

    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ban' } });
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'bank' } });
    // Not at once: the address (and the list) wait for the typing to settle.
    expect(address().get('search')).toBeNull();
    await waitFor(() => expect(address().get('search')).toBe('bank'));
    expect(action()).toBe('REPLACE');
    await waitFor(() => expect(listQueries(seen).at(-1)).toMatchObject({ search: 'bank', dateFrom: '2026-01-05' }));
    expect(listQueries(seen).some((q) => q['search'] === 'ban')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(address().get('page')).toBe('2');
    fireEvent.change(screen.getByLabelText('Per page'), { target: { value: '50' } });
    expect(address().get('pageSize')).toBe('50');
    expect(address().get('page')).toBeNull();

    // Back: page 2 at 10 a page; back again: the search and the date (the typing replaced the entry).
    fireEvent.click(screen.getByRole('button', { name: 'test back' }));
    expect(address().get('page')).toBe('2');
    expect(address().get('pageSize')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'test back' }));
    expect(address().get('page')).toBeNull();
    expect(address().get('search')).toBe('bank');
    fireEvent.click(screen.getByRole('button', { name: 'test back' }));
    expect(address().toString()).toBe('serverId=s1');
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe(''));
    expect(screen.getByLabelText<HTMLInputElement>('Date from').value).toBe('');
    // No filter counted any more (the list itself comes from the cache of the first request).
    expect(screen.getByRole('button', { name: /Hide filters$/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'test forward' }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe('bank'));
    expect(screen.getByLabelText<HTMLInputElement>('Date from').value).toBe('2026-01-05');
  });

  it('turns Live on through the address, and a link with live=1 opens live', async () => {
    api();
    renderAt('/logs?serverId=s1');
    await screen.findAllByTestId('log-card');
    fireEvent.click(screen.getByRole('switch'));
    expect(address().get('live')).toBe('1');
    expect(action()).toBe('PUSH');
    expect(await screen.findByTestId('live-status')).toBeTruthy();
  });

  it('opens a linked server the user is a member of, and falls back with a notice for any other', async () => {
    const seen = api();
    const store = renderAt('/logs?serverId=s2&type=Join');
    await screen.findAllByTestId('log-card');
    expect(listQueries(seen).every((q) => q['serverId'] === 's2')).toBe(true);
    expect(screen.getByRole('heading', { name: 'Logs – Beta' })).toBeTruthy();
    expect(store.getState().session.serverId).toBe('s1'); // the shell, not the page, changes the current server
    cleanupAndUnmount();

    const other = api();
    renderAt('/logs?serverId=stranger&type=Join');
    expect(await screen.findByText(FOREIGN_LINK_TEXT)).toBeTruthy();
    await waitFor(() => expect(address().toString()).toBe('serverId=s1&type=Join'));
    expect(other.some((r) => r.url.includes('serverId=stranger'))).toBe(false);
  });

  it('keeps /photologs in the address too: a linked page stays when its first answer arrives', async () => {
    const seen = api();
    renderAt('/photologs?serverId=s1&page=3&pageSize=12', <PhotoLogsPage />);
    await screen.findAllByTestId('photo-card');
    expect(listQueries(seen, '/photologs/my?').at(-1)).toMatchObject({ page: '3', pageSize: '12' });
    expect(address().get('page')).toBe('3');
  });
});

function cleanupAndUnmount() {
  document.body.innerHTML = '';
}

const CONTEXT: LogContext = {
  before: [apiLog({ id: 'b1', message: 'before one' }), apiLog({ id: 'b2', message: 'before two' })],
  log: apiLog({ id: 'l5', message: 'the suspicious line' }),
  after: [apiLog({ id: 'a1', message: 'after one', log_type: 'photo', image_path: '/x.png', thumb_path: '/x.png' })],
};

describe('context around a log', () => {
  it('?log= shows the logs around it, it marked, and Back to the list drops it from the address', async () => {
    const seen = api(CONTEXT);
    renderAt('/logs?serverId=s1&log=l5');
    const view = await screen.findByTestId('context-view');
    await waitFor(() => expect(within(view).getAllByTestId('log-card')).toHaveLength(4));
    const cards = within(view).getAllByTestId('log-card');
    expect(cards.map((card) => card.getAttribute('aria-current'))).toEqual([null, null, 'true', null]);
    expect(cards[2]!.textContent).toContain('the suspicious line');
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
    expect(seen.some((r) => new URL(r.url).pathname.endsWith('/logs/l5/context') && new URL(r.url).searchParams.get('serverId') === 's1')).toBe(true);
    expect(listQueries(seen)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: /Back to the list/ }));
    expect(address().get('log')).toBeNull();
    expect(action()).toBe('PUSH');
    await waitFor(() => expect(listQueries(seen).length).toBeGreaterThan(0));
  });

  it("a card's Context opens its neighbours in place, the line marked, with a link to copy", async () => {
    api({ ...CONTEXT, log: LOGS[0]! });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderAt('/logs?serverId=s1');
    const [first] = await screen.findAllByTestId('log-card');
    fireEvent.click(within(first!).getByRole('button', { name: 'Context: logs around line 0' }));
    const drawer = await screen.findByRole('dialog', { name: 'Logs around this log' });
    await waitFor(() => expect(within(drawer).getAllByTestId('context-line')).toHaveLength(4));
    const marked = within(drawer).getAllByTestId('context-line').filter((line) => line.getAttribute('aria-current') === 'true');
    expect(marked.map((line) => line.textContent)).toEqual([expect.stringContaining('line 0')]);
    expect(within(drawer).getByText(/\[Photo\] after one/)).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: /Copy link/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/logs?serverId=s1&log=l0`));
    expect(await within(drawer).findByRole('button', { name: /Link copied/ })).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Open in Logs' }));
    expect(address().toString()).toBe('serverId=s1&log=l0');
  });
});

describe('the dense table', () => {
  it('moves with j/k and the arrows, stops at the ends', () => {
    expect(rowStep('j', 0, 3)).toBe(1);
    expect(rowStep('j', 2, 3)).toBe(2);
    expect(rowStep('k', 0, 3)).toBe(0);
    expect(rowStep('ArrowUp', 2, 3)).toBe(1);
    expect(rowStep('End', 0, 3)).toBe(2);
    expect(rowStep('x', 0, 3)).toBeNull();
  });

  it('is chosen by the toggle and remembered by the browser; a bare address then asks 50 a page', async () => {
    const seen = api();
    renderAt('/logs?serverId=s1');
    await screen.findAllByTestId('log-card');
    fireEvent.click(screen.getByText('Table'));
    expect(window.localStorage.getItem('logDisplay')).toBe('table');
    expect(await screen.findByTestId('log-table')).toBeTruthy();
    await waitFor(() => expect(address().get('pageSize')).toBe('50'));
    await waitFor(() => expect(listQueries(seen).at(-1)).toMatchObject({ pageSize: '50' }));
    cleanupAndUnmount();

    api();
    renderAt('/logs?serverId=s1&pageSize=25');
    // Remembered; a link's own page size wins.
    await waitFor(() => expect(screen.getAllByTestId('log-row')).toHaveLength(25));
    expect(screen.queryByTestId('log-card')).toBeNull();
  });

  it('j/k move the focus between rows (one tab stop), Enter expands the metadata and Context', async () => {
    window.localStorage.setItem('logDisplay', 'table');
    api();
    renderAt('/logs?serverId=s1');
    await waitFor(() => expect(screen.getAllByTestId('log-row').length).toBe(30));
    const rows = screen.getAllByTestId('log-row');
    expect(rows.filter((row) => row.tabIndex === 0)).toEqual([rows[0]]);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Time', 'Level', 'Type', 'Resource', 'Message']);

    // j from the page enters the table.
    act(() => {
      document.body.focus();
      fireEvent.keyDown(document.body, { key: 'j' });
    });
    expect(document.activeElement).toBe(rows[0]);
    fireEvent.keyDown(rows[0]!, { key: 'j' });
    fireEvent.keyDown(rows[1]!, { key: 'j' });
    expect(document.activeElement).toBe(rows[2]);
    fireEvent.keyDown(rows[2]!, { key: 'k' });
    expect(document.activeElement).toBe(rows[1]);
    expect(rows[1]!.tabIndex).toBe(0);
    expect(rows[0]!.tabIndex).toBe(-1);

    expect(rows[1]!.querySelector('button')!.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    expect(rows[1]!.querySelector('button')!.getAttribute('aria-expanded')).toBe('true');
    const detail = rows[1]!.nextElementSibling as HTMLElement;
    expect(detail.textContent).toContain('"n": 1');
    expect(within(detail).getByRole('button', { name: 'Context: logs around line 1' })).toBeTruthy();
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    expect(rows[1]!.querySelector('button')!.getAttribute('aria-expanded')).toBe('false');
  });
});
