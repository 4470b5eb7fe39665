import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { CreateServerAnswer, DashboardStats, MessageAnswer } from '@skald/contracts/api';
import { describe, expect, it, vi } from 'vitest';
import RegisterPage from '../src/features/auth/RegisterPage.tsx';
import ResetPasswordPage from '../src/features/auth/ResetPasswordPage.tsx';
import CreateServerPage from '../src/features/servers/CreateServerPage.tsx';
import { UsageBar } from '../src/features/shell/UsageBar.tsx';
import { apiLog, dashboardStats, meAnswer, serverUsage } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

vi.mock('../src/features/dashboard/DashboardCharts.tsx', () => ({
  DailyChart: () => <div data-testid="daily-chart" />,
  SplitChart: ({ title, other }: { title: string; other: { names: number } }) => (
    <div data-testid="split-chart" data-other={other.names}>
      {title}
    </div>
  ),
}));
const { default: DashboardPage } = await import('../src/features/dashboard/DashboardPage.tsx');

const me = meAnswer();

describe('Create server', () => {
  it('refuses a blank name without calling the server', async () => {
    const seen = mockApi({});
    renderScreen(<CreateServerPage />, { session: SIGNED_IN });
    fireEvent.change(screen.getByLabelText('Server name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('Give the server a name!')).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('explains a 409 as a taken name', async () => {
    mockApi({ 'POST /server/servers': () => json({ error: 'Conflict' }, { status: 409 }) });
    renderScreen(<CreateServerPage />, { session: SIGNED_IN });
    fireEvent.change(screen.getByLabelText('Server name'), { target: { value: 'Alpha' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('That server name is already taken.')).toBeTruthy();
  });

  it('shows the server error field, else the "Failed to create server." fallback', async () => {
    let answer = json({ error: 'Server limit reached' }, { status: 403 });
    mockApi({ 'POST /server/servers': () => answer });
    renderScreen(<CreateServerPage />, { session: SIGNED_IN });
    fireEvent.change(screen.getByLabelText('Server name'), { target: { value: 'Gamma' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('Server limit reached')).toBeTruthy();
    answer = new Response('upstream down', { status: 502 });
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('Failed to create server.')).toBeTruthy();
    expect(screen.queryByText('Save your API key')).toBeNull();
  });

  it('shows the key once, stores the new server and leaves for /dashboard', async () => {
    mockApi({ 'POST /server/servers': () => json({ id: 's7', name: 'Beta', api_key: 'sk_live_123' } satisfies CreateServerAnswer, { status: 201 }) });
    const { store } = renderScreen(<CreateServerPage />, { session: SIGNED_IN });
    fireEvent.change(screen.getByLabelText('Server name'), { target: { value: ' Beta ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create server' }));
    expect(await screen.findByText('Save your API key')).toBeTruthy();
    expect(screen.getByText('sk_live_123')).toBeTruthy();
    expect(store.getState().session).toMatchObject({ serverId: 's7', serverName: 'Beta' });
    fireEvent.click(screen.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });
});

describe('Register and reset', () => {
  it('shows the server message when registration fails', async () => {
    mockApi({ 'POST /auth/register': () => json({ error: 'Bad Request', message: 'Username already taken' }, { status: 400 }) });
    renderScreen(<RegisterPage />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@x.io' } });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ann' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Username already taken')).toBeTruthy();
  });

  it('requires the register fields before calling the server', async () => {
    const seen = mockApi({});
    renderScreen(<RegisterPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Please enter an e-mail address.')).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('goes to /login 3 seconds after a successful reset', async () => {
    mockApi({ 'POST /auth/reset-password': () => json({ message: 'ok' } satisfies MessageAnswer) });
    renderScreen(<ResetPasswordPage />, { path: '/reset-password/tok', route: '/reset-password/:token' });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'n3w-password' } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
      expect(await screen.findByText('Password changed! Redirecting to login...')).toBeTruthy();
      vi.advanceTimersByTime(2900);
      expect(screen.getByTestId('location').textContent).toBe('/reset-password/tok');
      vi.advanceTimersByTime(200);
      await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Usage bar', () => {
  it('shows the suspended notice when the usage error mentions suspension', async () => {
    mockApi({ 'GET /server/usage/s1': () => json({ error: 'Server suspended', message: 'This server is suspended due to an expired or cancelled payment.' }, { status: 403 }) });
    renderScreen(<UsageBar serverId="s1" />, { session: SIGNED_IN });
    expect(await screen.findByText('Server suspended: This server is suspended due to a expired or cancelled payment.')).toBeTruthy();
  });

  it('caps the bar at 100 percent and colours it red', async () => {
    mockApi({ 'GET /server/usage/s1': () => json(serverUsage({ used: 130, limit: 100, tierLabel: 'Free' })) });
    renderScreen(<UsageBar serverId="s1" />, { session: SIGNED_IN });
    expect(await screen.findByText('100 / 100 logs (100%)')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(document.querySelector('.usage-fill')?.getAttribute('data-color')).toBe('red');
  });
});

const stats = (over: Partial<DashboardStats> = {}) =>
  dashboardStats({
    recentPhotos: [apiLog({ id: 'p1', created_at: '2026-01-01T00:00:00Z', type: 't', resource: 'r', message: 'x'.repeat(80), log_type: 'photo', image_path: '/api/img/1', thumb_path: '/api/img/1t' })],
    ...over,
  });

describe('Dashboard', () => {
  it('shows the cards, a red negative trend, the charts and recent photos cut to 50 characters', async () => {
    const others = { perTypeOther: { names: 4, text: 4, photo: 0 }, perResourceOther: { names: 15, text: 20, photo: 1 } };
    mockApi({ 'GET /logs/stats': () => json(stats(others)), 'GET /auth/me': () => json(me) });
    renderScreen(<DashboardPage />, { session: SIGNED_IN });
    expect(await screen.findByText('Total logs')).toBeTruthy();
    expect(screen.getByText('-25%')).toBeTruthy();
    expect(screen.getByTestId('stat-Trend vs previous week').getAttribute('data-tone')).toBe('down');
    expect(screen.getAllByTestId('split-chart').map((c) => c.textContent)).toEqual(['Logs per type', 'Logs per level', 'Logs per resource']);
    // Each chart gets the server's other bucket of its own breakdown.
    expect(screen.getAllByTestId('split-chart').map((c) => c.getAttribute('data-other'))).toEqual(['4', '0', '15']);
    expect(screen.getByText(`${'x'.repeat(50)}…`)).toBeTruthy();
    expect(await screen.findByText(/Welcome back, ann/)).toBeTruthy();
  });

  it('shows the empty state, the error state and the no-server text', async () => {
    mockApi({ 'GET /logs/stats': () => json(stats({ totals: { all: 0, text: 0, photo: 0 } })), 'GET /auth/me': () => json(me) });
    const a = renderScreen(<DashboardPage />, { session: SIGNED_IN });
    expect(await screen.findByText('This server has no logs yet.')).toBeTruthy();
    a.unmount();
    mockApi({ 'GET /logs/stats': () => json({ error: 'x' }, { status: 500 }), 'GET /auth/me': () => json(me) });
    const b = renderScreen(<DashboardPage />, { session: SIGNED_IN });
    expect(await screen.findByText('Failed to load logs. Check your server or connection.')).toBeTruthy();
    b.unmount();
    mockApi({ 'GET /auth/me': () => json(me) });
    renderScreen(<DashboardPage />, { session: { ...SIGNED_IN, serverId: null, serverName: null } });
    expect(screen.getByText('Select a server to view the panel.')).toBeTruthy();
  });
});
