// The saved-search menu of /logs (docs/LOGS_API.md "Saved searches"): save the current filters under a
// name (the server's sentences shown, nothing sent without a filter or a name), apply one (every filter of
// the page replaced, the list asked again with them), delete shown only to its creator and the server's
// owner and admins, after a confirmation.
import type { SavedSearch, SavedSearchList, ServerRole } from '@skald/contracts/api';
import { SAVED_SEARCH_NAME_REQUIRED, SAVED_SEARCH_NAME_TAKEN, SAVED_SEARCH_NO_FILTER } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import { filtersOfQuery, queryOfFilters, querySummary } from '../src/features/logs/savedSearchForm.ts';
import { EMPTY_FILTERS } from '../src/features/logs/logFilters.ts';
import { apiLog, LEVELS, levelColors, meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function saved(over: Partial<SavedSearch> = {}): SavedSearch {
  return { id: 'ss1', name: 'Bank robberies', query: { search: 'bank', level: 'error' }, createdBy: 'u2', createdAt: '2026-01-01T10:00:00.000Z', ...over };
}

function api({ role = 'user' as ServerRole, searches = [saved(), saved({ id: 'ss2', name: 'My deaths', query: { type: 'Death', dateFrom: '2026-01-01' }, createdBy: 'u1' })] } = {}) {
  let list: SavedSearchList = { searches };
  const posted: unknown[] = [];
  const seen = mockApi({
    'GET /auth/me': () => json(meAnswer({ serverRole: role })),
    'GET /settings/colors': () => json(levelColors()),
    'GET /settings/levels': () => json(LEVELS),
    'GET /logs/my': () => json([apiLog({ id: 'l1' })], { headers: { 'X-Total-Count': '1' } }),
    'GET /logs/my/histogram': () => json({ buckets: [], span: null, capped: false, step: 'hour', edges: [] }),
    'GET /saved-searches': () => json(list),
    'POST /saved-searches': async (request) => {
      const body = (await request.json()) as { name: string; query: SavedSearch['query'] };
      posted.push(body);
      if (list.searches.some((s) => s.name.toLowerCase() === body.name.toLowerCase())) return json({ error: SAVED_SEARCH_NAME_TAKEN, message: SAVED_SEARCH_NAME_TAKEN }, { status: 409 });
      const created = saved({ id: 'new', name: body.name, query: body.query, createdBy: 'u1' });
      list = { searches: [...list.searches, created] };
      return json(created, { status: 201 });
    },
    'DELETE /saved-searches/ss2': () => {
      list = { searches: list.searches.filter((s) => s.id !== 'ss2') };
      return json({ message: 'Saved search deleted' });
    },
  });
  return Object.assign(seen, { posted });
}

const lastListQuery = (seen: Request[]) => Object.fromEntries(new URL(seen.filter((r) => r.url.includes('/logs/my?')).at(-1)!.url).searchParams);

async function openMenu() {
  await screen.findAllByTestId('log-card');
  fireEvent.click(screen.getByRole('button', { name: 'Saved searches' }));
  return screen.findByRole('region', { name: 'Saved searches' });
}

describe('saved-search menu on /logs', () => {
  it('lists the server’s searches with what each filters, and applies one: every filter replaced, the list asked again', async () => {
    const seen = api();
    renderScreen(<LogsPage />, { path: '/logs?type=Join&timeFrom=2026-01-01T00:00:00Z', route: '/logs', session: SIGNED_IN });
    const panel = await openMenu();
    const rows = await within(panel).findAllByTestId('saved-search');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('Search “bank” · Level error'), expect.stringContaining('Type Death · from 2026-01-01')]);
    expect(within(panel).getByText('2 / 50 saved')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Apply saved search Bank robberies' }));
    await waitFor(() => expect(lastListQuery(seen)).toMatchObject({ search: 'bank', level: 'error', page: '1' }));
    // The page's own type filter is gone: a saved search replaces the filters, it does not add to them.
    expect(lastListQuery(seen)).not.toHaveProperty('type');
    expect(screen.queryByRole('region', { name: 'Saved searches' })).toBeNull();
    expect(screen.getByRole('button', { name: /Show filters \(2\)/ })).toBeTruthy();
  });

  it('saves the current filters under the name typed; says why when there is no filter, no name or a taken name', async () => {
    const seen = api();
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    let panel = await openMenu();
    // No filter set: nothing is sent.
    expect(within(panel).getByText(SAVED_SEARCH_NO_FILTER)).toBeTruthy();
    fireEvent.change(within(panel).getByLabelText('Name for the current filters'), { target: { value: 'Anything' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save current filters' }));
    expect(await within(panel).findByRole('alert')).toHaveProperty('textContent', SAVED_SEARCH_NO_FILTER);

    fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: ' speed hack ' } });
    fireEvent.change(screen.getByLabelText('Date to'), { target: { value: '2026-02-01' } });
    panel = screen.getByRole('region', { name: 'Saved searches' });
    expect(within(panel).getByText('Saves: Search “speed hack” · until 2026-02-01')).toBeTruthy();

    fireEvent.change(within(panel).getByLabelText('Name for the current filters'), { target: { value: '   ' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save current filters' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(SAVED_SEARCH_NAME_REQUIRED);
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(panel).getByLabelText('Name for the current filters'), { target: { value: 'bank robberies' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save current filters' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(SAVED_SEARCH_NAME_TAKEN);

    fireEvent.change(within(panel).getByLabelText('Name for the current filters'), { target: { value: '  Speed hacks  ' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save current filters' }));
    await within(panel).findByRole('button', { name: 'Apply saved search Speed hacks' });
    expect(seen.posted.at(-1)).toEqual({ serverId: 's1', name: 'Speed hacks', query: { search: 'speed hack', dateTo: '2026-02-01' } });
    expect((within(panel).getByLabelText('Name for the current filters') as HTMLInputElement).value).toBe('');
  });

  it('shows Delete only on the searches a user saved; deletes after a confirmation', async () => {
    const seen = api({ role: 'user' });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const panel = await openMenu();
    await within(panel).findAllByTestId('saved-search');
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Delete saved search My deaths' })).toBeTruthy());
    expect(within(panel).queryByRole('button', { name: 'Delete saved search Bank robberies' })).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Delete saved search My deaths' }));
    expect(within(panel).getByText('Delete this saved search for everyone?')).toBeTruthy();
    expect(seen.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(within(panel).getByRole('button', { name: 'Confirm delete' }));
    await waitFor(() => expect(within(panel).queryByRole('button', { name: 'Apply saved search My deaths' })).toBeNull());
    expect(seen.filter((r) => r.method === 'DELETE').map((r) => new URL(r.url).pathname)).toEqual(['/api/saved-searches/ss2']);
  });

  it.each(['owner', 'admin'] as const)('shows Delete on every search to the server’s %s', async (role) => {
    api({ role });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const panel = await openMenu();
    await waitFor(() => expect(within(panel).getAllByRole('button', { name: /^Delete saved search / })).toHaveLength(2));
  });

  it('says so when the server has none', async () => {
    api({ searches: [] });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const panel = await openMenu();
    expect(await within(panel).findByText(/No saved searches yet/)).toBeTruthy();
  });
});

describe('saved-search form logic', () => {
  it('keeps only the six filters set, trimmed; a histogram bar’s range is not kept', () => {
    expect(queryOfFilters({ ...EMPTY_FILTERS, search: ' a ', level: 'warn', resource: '  ', timeFrom: '2026-01-01T00:00:00Z', timeTo: '2026-01-02T00:00:00Z' })).toEqual({ search: 'a', level: 'warn' });
    expect(filtersOfQuery({ type: 'Join' })).toEqual({ ...EMPTY_FILTERS, type: 'Join' });
    expect(querySummary({ resource: 'core', dateFrom: '2026-01-01', dateTo: '2026-01-31' })).toBe('Resource core · 2026-01-01 to 2026-01-31');
  });
});
