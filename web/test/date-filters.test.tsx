import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import PhotoLogsPage from '../src/features/photologs/PhotoLogsPage.tsx';
import { pageParams } from '../src/features/logs/logsApi.ts';
import { EMPTY_FILTERS } from '../src/features/logs/logFilters.ts';
import { apiLog, LEVELS, levelColors, photoLogPage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

// Date from / Date to name the user's local days. This file runs as a user in India
// (UTC+05:30, no daylight saving): the list requests must carry that zone so the server bounds the days there.
const previousTz = process.env['TZ'];
beforeAll(() => {
  process.env['TZ'] = 'Asia/Kolkata';
});
afterAll(() => {
  if (previousTz === undefined) delete process.env['TZ'];
  else process.env['TZ'] = previousTz;
});

const settings = { 'GET /settings/colors': () => json(levelColors()), 'GET /settings/levels': () => json(LEVELS) };
const zoneOf = (seen: Request[], path: string) => {
  const last = seen.filter((r) => new URL(r.url).pathname === `/api${path}`).at(-1);
  return last ? new URL(last.url).searchParams : null;
};

describe('date filters in the user time zone', () => {
  it('the test really runs away from UTC', () => {
    expect(new Date(2026, 0, 2).toISOString()).toBe('2026-01-01T18:30:00.000Z');
  });

  it('adds the browser time zone to a list query with a date, and nothing without one', () => {
    const base = { serverId: 's1', page: 1, pageSize: 10 };
    const zone = pageParams({ ...base, filters: { ...EMPTY_FILTERS, dateFrom: '2026-01-02' } })['timeZone'];
    // ICU may name the zone by its older alias; either names UTC+05:30.
    expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(zone);
    expect(pageParams({ ...base, filters: { ...EMPTY_FILTERS, dateTo: '2026-01-02' } })['timeZone']).toBe(zone);
    expect(pageParams({ ...base, filters: { ...EMPTY_FILTERS, search: 'x' } })).not.toHaveProperty('timeZone');
  });

  it('the logs screen sends Date from and Date to with the time zone', async () => {
    const seen = mockApi({ ...settings, 'GET /logs/my': () => json([apiLog()], { headers: { 'X-Total-Count': '1' } }) });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findAllByTestId('log-card');
    expect(zoneOf(seen, '/logs/my')?.has('timeZone')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));
    fireEvent.change(screen.getByLabelText('Date from'), { target: { value: '2026-01-02' } });
    fireEvent.change(screen.getByLabelText('Date to'), { target: { value: '2026-01-02' } });
    await waitFor(() => {
      const params = zoneOf(seen, '/logs/my');
      expect(params?.get('dateFrom')).toBe('2026-01-02');
      expect(params?.get('dateTo')).toBe('2026-01-02');
      expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(params?.get('timeZone'));
    });
  });

  it('the photo logs screen sends it too', async () => {
    const seen = mockApi({ ...settings, 'GET /photologs/my': () => json(photoLogPage([])) });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    await screen.findByText('No photo logs found.');
    fireEvent.click(screen.getByRole('button', { name: /Show filters/ }));
    fireEvent.change(screen.getByLabelText('Date to'), { target: { value: '2026-01-02' } });
    await waitFor(() => expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(zoneOf(seen, '/photologs/my')?.get('timeZone')));
  });
});
