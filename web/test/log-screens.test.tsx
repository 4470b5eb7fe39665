import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import PhotoLogsPage, { PHOTO_NOTICE } from '../src/features/photologs/PhotoLogsPage.tsx';
import { wrapIndex } from '../src/features/photologs/PhotoViewer.tsx';
import type { ApiLog } from '@skald/contracts/api';
import { apiLog, LEVELS, levelColors, photoLogPage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function log(i: number, extra: Partial<ApiLog> = {}): ApiLog {
  return apiLog({ id: `l${i}`, level: 'warn', message: `message ${i}`, ...extra });
}

const settings = {
  'GET /settings/colors': () => json(levelColors({ warn: { bg_color: '#123456', text_color: '#abcdef' } })),
  'GET /settings/levels': () => json(LEVELS),
};

describe('Logs screen', () => {
  it('shows cards coloured by level, metadata only when present, and Page n of m from X-Total-Count', async () => {
    const seen = mockApi({
      ...settings,
      'GET /logs/my': () => json([log(1, { metadata: { player: 'ann' } }), log(2)], { headers: { 'X-Total-Count': '23' } }),
    });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    const cards = await screen.findAllByTestId('log-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('WARN')).toBeTruthy();
    expect(within(cards[0]!).getByText('[Type: Join] via core')).toBeTruthy();
    expect(within(cards[0]!).getByText('View metadata')).toBeTruthy();
    expect(within(cards[1]!).queryByText('View metadata')).toBeNull();
    await waitFor(() => expect(cards[0]!.getAttribute('style')).toContain('rgb(18, 52, 86)'));
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeTruthy());
    const last = new URL(seen.filter((r) => r.url.includes('/logs/my')).at(-1)!.url);
    expect(Object.fromEntries(last.searchParams)).toEqual({ serverId: 's1', page: '2', pageSize: '10' });
  });

  it('says m+ pages when the server stopped counting at its cap, and lets Next go past them', async () => {
    mockApi({ ...settings, 'GET /logs/my': () => json([log(1)], { headers: { 'X-Total-Count': '100000', 'X-Total-Capped': 'true' } }) });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findByText('Page 1 of 10000+');
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('sends filled filters to the server and returns to page 1', async () => {
    const seen = mockApi({ ...settings, 'GET /logs/my': () => json([log(1)], { headers: { 'X-Total-Count': '40' } }) });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findAllByTestId('log-card');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 4');
    fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'kick' } });
    fireEvent.change(screen.getByLabelText('Date from'), { target: { value: '2026-01-01' } });
    await waitFor(() => {
      const url = new URL(seen.filter((r) => r.url.includes('/logs/my')).at(-1)!.url);
      expect(url.searchParams.get('search')).toBe('kick');
      expect(url.searchParams.get('dateFrom')).toBe('2026-01-01');
      expect(url.searchParams.get('page')).toBe('1');
      expect(url.searchParams.has('type')).toBe(false);
    });
  });

  it('opens with the filters a link names (an alert links to /logs with its filter)', async () => {
    const seen = mockApi({ ...settings, 'GET /logs/my': () => json([log(1)], { headers: { 'X-Total-Count': '1' } }) });
    renderScreen(<LogsPage />, { path: '/logs?serverId=s1&level=error&type=anticheat&resource=ac&search=speed%20hack', route: '/logs', session: SIGNED_IN });
    await screen.findAllByTestId('log-card');
    const url = new URL(seen.filter((r) => r.url.includes('/logs/my')).at(-1)!.url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ level: 'error', type: 'anticheat', resource: 'ac', search: 'speed hack', page: '1' });
  });

  it('shows the empty and the error state', async () => {
    mockApi({ ...settings, 'GET /logs/my': () => json([], { headers: { 'X-Total-Count': '0' } }) });
    const first = renderScreen(<LogsPage />, { session: SIGNED_IN });
    expect(await screen.findByText('No logs found.')).toBeTruthy();
    first.unmount();
    mockApi({ ...settings, 'GET /logs/my': () => json({ error: 'boom' }, { status: 500 }) });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    expect(await screen.findByText('Failed to load logs. Check your server or connection.')).toBeTruthy();
  });
});

function photo(i: number) {
  return log(i, { log_type: 'photo', image_path: `/api/photologs/image/p${i}?t=x`, thumb_path: `/api/photologs/image/p${i}?t=thumb`, message: `photo ${i}` });
}

describe('Photo logs screen', () => {
  it('shows the notice, the count line and no pager for a single page', async () => {
    mockApi({ ...settings, 'GET /photologs/my': () => json(photoLogPage([photo(1), photo(2)], 25), { headers: { 'X-Total-Count': '2' } }) });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    expect(screen.getByText('Loading photologs...')).toBeTruthy();
    expect(await screen.findByText('2 / 25 photologs stored.')).toBeTruthy();
    expect(screen.getByText(PHOTO_NOTICE)).toBeTruthy();
    expect(screen.getAllByTestId('photo-card')).toHaveLength(2);
    expect(screen.queryByText(/Page 1 of/)).toBeNull();
    expect(screen.getByAltText('photo 1').getAttribute('src')).toBe('/api/photologs/image/p1?t=thumb');
  });

  it('counts the photos stored, not the ones the filters match', async () => {
    // One photo is stored; a level filter that matches nothing must not make the line read 0.
    const seen = mockApi({
      ...settings,
      'GET /photologs/my': (request) => {
        const filtered = new URL(request.url).searchParams.get('level') === 'error';
        return json(filtered ? photoLogPage([], 10, 1) : photoLogPage([photo(1)], 10, 1), { headers: { 'X-Total-Count': filtered ? '0' : '1' } });
      },
    });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    expect(await screen.findByText('1 / 10 photologs stored.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Level' }));
    fireEvent.click(await screen.findByTitle('error'));
    await waitFor(() => expect(seen.some((r) => new URL(r.url).searchParams.get('level') === 'error')).toBe(true));
    expect(await screen.findByText('No photo logs found.')).toBeTruthy();
    expect(screen.getByText('1 / 10 photologs stored.')).toBeTruthy();
    expect(screen.queryByText('0 / 10 photologs stored.')).toBeNull();
  });

  it('opens the full-screen viewer and wraps around with the keyboard', async () => {
    mockApi({ ...settings, 'GET /photologs/my': () => json(photoLogPage([photo(1), photo(2), photo(3)]), { headers: { 'X-Total-Count': '3' } }) });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: 'Open photo: photo 1' }));
    const viewer = screen.getByRole('dialog', { name: 'Photo viewer' });
    expect(within(viewer).getByText('1 / 3 — photo 1')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(within(viewer).getByText('3 / 3 — photo 3')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(within(viewer).getByText('1 / 3 — photo 1')).toBeTruthy();
    fireEvent.click(within(viewer).getByRole('button', { name: 'Next photo' }));
    expect(within(viewer).getByText('2 / 3 — photo 2')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Photo viewer' })).toBeNull();
    expect(wrapIndex(0, 3, -1)).toBe(2);
  });

  it('shows the empty, the error and the no-server states', async () => {
    mockApi({ ...settings, 'GET /photologs/my': () => json(photoLogPage([]), { headers: { 'X-Total-Count': '0' } }) });
    const a = renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    expect(await screen.findByText('No photo logs found.')).toBeTruthy();
    a.unmount();
    mockApi({ ...settings, 'GET /photologs/my': () => json({ error: 'x' }, { status: 500 }) });
    const b = renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    expect(await screen.findByText('Error while getting photologs.')).toBeTruthy();
    b.unmount();
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderScreen(<PhotoLogsPage />, { session: { ...SIGNED_IN, serverId: null, serverName: null } });
    expect(screen.getByText('Select a server.')).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
