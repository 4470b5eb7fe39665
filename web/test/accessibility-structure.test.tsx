// Accessibility in the component tree: one level-one heading per view and no skipped
// levels, Log out rendered like the header links, the server switcher's tooltip, and the note under
// level-coloured logs when a level's colours read below WCAG AA. (The rendered sizes, layout and
// contrast are measured in the browser walkthrough, web/e2e.)
import type { ApiLog, LevelColors } from '@skald/contracts/api';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import DashboardPage from '../src/features/dashboard/DashboardPage.tsx';
import { DocsOverviewPage } from '../src/features/docs/FeatureDocsPages.tsx';
import { NotFoundPage } from '../src/features/landing/InfoPage.tsx';
import LogsPage from '../src/features/logs/LogsPage.tsx';
import { describeLowContrast, lowContrastLevels } from '../src/features/logs/levelContrast.ts';
import PhotoLogsPage from '../src/features/photologs/PhotoLogsPage.tsx';
import { AppHeader } from '../src/features/shell/AppHeader.tsx';
import { ServerSidebar } from '../src/features/shell/ServerSidebar.tsx';
import UserSettingsPage from '../src/features/user/UserSettingsPage.tsx';
import { apiLog, dashboardStats, LEVELS, levelColors, meAnswer, photoLogPage, serverUsage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

// jsdom has no canvas for echarts; the charts are not what these tests look at.
vi.mock('../src/features/dashboard/DashboardCharts.tsx', () => ({ DailyChart: () => <div />, SplitChart: () => <div /> }));

/** The heading levels in document order (h1 → 1): each test states the whole outline it expects. */
function headingLevels(): number[] {
  return Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((h) => Number(h.tagName.slice(1)));
}

const SPEC_WARN = { bg_color: '#fee2b3', text_color: '#b45309' };
const SPEC_COLORS: LevelColors = levelColors({ info: { bg_color: '#f0f0f0', text_color: '#333' }, warn: SPEC_WARN });

describe('headings: one h1 per view, no skipped levels', () => {
  it('user settings: h1 then its sections as h2 (was h2 then h4)', async () => {
    mockApi({ 'GET /auth/me': () => json(meAnswer()) });
    renderScreen(<UserSettingsPage />, { path: '/user-settings', session: SIGNED_IN });
    await screen.findByRole('heading', { name: 'Change Username' });
    expect(headingLevels()).toEqual([1, 2, 2, 2, 2]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('User settings');
  });

  it('dashboard: the server name is the h1, and without a server the view still has one', async () => {
    mockApi({ 'GET /auth/me': () => json(meAnswer()), 'GET /logs/stats': () => json(dashboardStats()) });
    const withServer = renderScreen(<DashboardPage />, { session: SIGNED_IN });
    await screen.findByText('Total logs');
    expect(headingLevels()).toEqual([1]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Alpha');
    withServer.unmount();

    renderScreen(<DashboardPage />, { session: { ...SIGNED_IN, serverId: null, serverName: null } });
    expect(screen.getByText('Select a server to view the panel.')).toBeTruthy();
    expect(headingLevels()).toEqual([1]);
  });

  it('logs and photo logs: the title is the one h1 (also before a server is chosen)', async () => {
    mockApi({ 'GET /settings/colors': () => json(SPEC_COLORS), 'GET /settings/levels': () => json(LEVELS), 'GET /logs/my': () => json([apiLog()], { headers: { 'X-Total-Count': '1' } }) });
    const logs = renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findAllByTestId('log-card');
    expect(headingLevels()).toEqual([1]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Logs – Alpha');
    logs.unmount();

    renderScreen(<PhotoLogsPage />, { session: { ...SIGNED_IN, serverId: null, serverName: null } });
    expect(screen.getByText('Select a server.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Photo Logs');
  });

  it('info pages title with an h1', () => {
    const docs = renderScreen(<DocsOverviewPage />);
    expect(headingLevels()).toEqual([1]);
    docs.unmount();
    renderScreen(<NotFoundPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Page not found');
  });
});

describe('shell', () => {
  it('Log out is a plain button styled as the header links, not an antd link button', async () => {
    mockApi({ 'GET /auth/me': () => json(meAnswer()) });
    renderScreen(<AppHeader />, { session: SIGNED_IN });
    const logout = await screen.findByRole('button', { name: 'Log out' });
    expect(logout.className).toBe('header-link-button');
    expect(logout.classList.contains('ant-btn')).toBe(false);
  });

  it('the server switcher carries the full server name as its tooltip (the sidebar cuts long names)', async () => {
    const long = 'A very long server name that the sidebar cannot show whole';
    const me = { ...meAnswer(), servers: [{ id: 's1', name: long, role: 'owner' as const }] };
    mockApi({ 'GET /auth/me': () => json(me), 'GET /server/usage/s1': () => json(serverUsage()) });
    renderScreen(<ServerSidebar />, { session: { ...SIGNED_IN, serverName: long } });
    const switcher = await screen.findByRole('combobox', { name: 'Server' });
    await waitFor(() => expect(switcher.getAttribute('title')).toBe(long));
    expect(screen.getByRole('option', { name: long }).getAttribute('title')).toBe(long);
  });
});

describe('level colours below WCAG AA (the spec keeps warn #b45309 on #fee2b3 as its default)', () => {
  it('finds the spec default warn pair at 4.0:1 and says it is the default', () => {
    const low = lowContrastLevels(['info', 'warn', 'warn'], SPEC_COLORS);
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({ level: 'warn', specDefault: true });
    expect(describeLowContrast(low[0]!)).toBe('The warn colours (#b45309 on #fee2b3) measure 4.0:1, below the 4.5:1 WCAG AA asks of text. They are the default warn colours.');
  });

  it('names a low pair a user picked without calling it a default, and nothing while colours load', () => {
    const low = lowContrastLevels(['error'], levelColors({ error: { bg_color: '#ffffff', text_color: '#aaaaaa' } }));
    expect(low).toEqual([expect.objectContaining({ level: 'error', specDefault: false })]);
    expect(describeLowContrast(low[0]!)).not.toContain('default');
    expect(lowContrastLevels(['warn'], undefined)).toEqual([]);
  });

  const page = (logs: ApiLog[]) => ({
    'GET /settings/colors': () => json(SPEC_COLORS),
    'GET /settings/levels': () => json(LEVELS),
    'GET /logs/my': () => json(logs, { headers: { 'X-Total-Count': String(logs.length) } }),
    'GET /photologs/my': () => json(photoLogPage(logs)),
  });

  it('the logs screen shows the note under warn logs and none when no shown level is affected', async () => {
    mockApi(page([apiLog({ id: 'a', level: 'warn' }), apiLog({ id: 'b', level: 'info' })]));
    const warn = renderScreen(<LogsPage />, { session: SIGNED_IN });
    expect((await screen.findByTestId('contrast-note')).textContent).toContain('The warn colours (#b45309 on #fee2b3) measure 4.0:1');
    warn.unmount();

    mockApi(page([apiLog({ id: 'b', level: 'info' })]));
    renderScreen(<LogsPage />, { session: SIGNED_IN });
    await screen.findAllByTestId('log-card');
    expect(screen.queryByTestId('contrast-note')).toBeNull();
  });

  it('the photo logs screen shows it too', async () => {
    mockApi(page([apiLog({ id: 'p', level: 'warn', log_type: 'photo', image_path: '/api/photologs/p.png' })]));
    renderScreen(<PhotoLogsPage />, { session: SIGNED_IN });
    expect((await screen.findByTestId('contrast-note')).textContent).toContain('They are the default warn colours.');
  });
});
