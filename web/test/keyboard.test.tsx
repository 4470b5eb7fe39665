import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import PhotoLogsPage from '../src/features/photologs/PhotoLogsPage.tsx';
import type { ApiLog } from '@skald/contracts/api';
import { apiLog, LEVELS, levelColors, photoLogPage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

function log(i: number, extra: Partial<ApiLog> = {}): ApiLog {
  return apiLog({ id: `l${i}`, message: `message ${i}`, ...extra });
}
function photo(i: number) {
  return log(i, { log_type: 'photo', image_path: `/api/photologs/image/p${i}`, message: `photo ${i}` });
}

const settings = {
  'GET /settings/colors': () => json(levelColors()),
  'GET /settings/levels': () => json(LEVELS),
};

/** Tabs through the page and returns a readable name for every element that got focus, in order. */
async function tabStops(user: ReturnType<typeof userEvent.setup>, count: number): Promise<string[]> {
  const stops: string[] = [];
  for (let i = 0; i < count; i++) {
    await user.tab();
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) break;
    const label = el instanceof HTMLSelectElement || el instanceof HTMLInputElement ? el.labels?.[0]?.textContent : null;
    stops.push(el.getAttribute('aria-label') ?? label ?? el.textContent?.trim() ?? el.tagName);
  }
  return stops;
}

describe('Log screens by keyboard', () => {
  it('reaches and operates the filters toggle, page size, Next and the metadata toggle', async () => {
    const user = userEvent.setup();
    const seen = mockApi({ ...settings, 'GET /logs/my': () => json([log(1, { metadata: { player: 'ann' } })], { headers: { 'X-Total-Count': '30' } }) });
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findAllByTestId('log-card');

    const stops = await tabStops(user, 12);
    expect(stops).toEqual(expect.arrayContaining(['Show filters', 'Per page', 'View metadata', 'Context: logs around message 1', 'Next']));
    // Previous is disabled on page 1, so it is not a tab stop.
    expect(stops).not.toContain('Previous');

    // Filters toggle with Enter.
    const toggle = screen.getByRole('button', { name: /Show filters/ });
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: /Hide filters/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByLabelText('Search')).toBeTruthy();

    // Metadata toggle: a native <summary>, which browsers activate with Enter and Space (jsdom and
    // user-event do not emulate that activation, so the e2e run presses Enter in Chromium).
    const summary = screen.getByText('View metadata');
    expect(summary.tagName).toBe('SUMMARY');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    await user.click(summary);
    expect(details.open).toBe(true);

    // Next with the keyboard, then Previous becomes reachable and works with Space.
    screen.getByRole('button', { name: 'Next' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    const previous = screen.getByRole('button', { name: 'Previous' });
    previous.focus();
    await user.keyboard(' ');
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();

    // Page size from the keyboard: a native select, so choosing an option is what the keys do.
    const pageSize = screen.getByLabelText('Per page') as HTMLSelectElement;
    expect(pageSize.tagName).toBe('SELECT');
    pageSize.focus();
    await user.selectOptions(pageSize, '25');
    expect(pageSize.value).toBe('25');
    await waitFor(() => {
      const url = new URL(seen.filter((r) => r.url.includes('/logs/my')).at(-1)!.url);
      expect(url.searchParams.get('pageSize')).toBe('25');
    });
  });
});

describe('Photo viewer by keyboard', () => {
  it('opens from a focused photo card with Enter, keeps focus inside, and closes with Escape back on the card', async () => {
    const user = userEvent.setup();
    mockApi({ ...settings, 'GET /photologs/my': () => json(photoLogPage([photo(1), photo(2)]), { headers: { 'X-Total-Count': '2' } }) });
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    await screen.findAllByTestId('photo-card');

    const stops = await tabStops(user, 6);
    expect(stops).toEqual(expect.arrayContaining(['Open photo: photo 1', 'Open photo: photo 2']));

    const card = screen.getByRole('button', { name: 'Open photo: photo 2' });
    card.focus();
    await user.keyboard('{Enter}');
    const viewer = screen.getByRole('dialog', { name: 'Photo viewer' });
    expect(within(viewer).getByText('2 / 2 — photo 2')).toBeTruthy();
    expect(document.activeElement).toBe(within(viewer).getByRole('button', { name: 'Close viewer' }));

    // Tab cycles within the dialog instead of escaping to the page behind it.
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(viewer.contains(document.activeElement)).toBe(true);
    }
    await user.tab({ shift: true });
    expect(viewer.contains(document.activeElement)).toBe(true);

    await user.keyboard('{ArrowRight}');
    expect(within(viewer).getByText('1 / 2 — photo 1')).toBeTruthy();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Photo viewer' })).toBeNull();
    expect(document.activeElement).toBe(card);
  });
});
