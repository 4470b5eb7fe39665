import type { AdminLogList, AdminServerAuditPage, AdminServerList, AdminStats, AdminUserList } from '@skald/contracts/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import AdminLogsPage from '../src/features/admin/AdminLogsPage.tsx';
import AdminServerPage from '../src/features/admin/AdminServerPage.tsx';
import AdminServersPage from '../src/features/admin/AdminServersPage.tsx';
import AdminUsersPage from '../src/features/admin/AdminUsersPage.tsx';
import { AuditTab } from '../src/features/admin/tabs/AuditTab.tsx';
import { formatBytes } from '../src/features/admin/adminText.ts';
import { adminServerDetail, meAnswer } from './fixtures.ts';
import { json, mockApi, renderScreen, SIGNED_IN } from './helpers.tsx';

// The chart library draws on a canvas jsdom lacks: capture each chart's series instead.
const drawn: { series: { name: string; data: number[] }[] }[] = [];
vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: { option: { series: { name: string; data: number[] }[] } }) => {
    drawn.push(props.option);
    return <div data-testid="echart" />;
  },
}));
const { default: AdminDashboardPage } = await import('../src/features/admin/AdminDashboardPage.tsx');

const days = ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15'];
const STATS: AdminStats = {
  totalLogs: 1234,
  totalPhotoLogs: 10,
  totalServers: 4,
  totalUsers: 9,
  twoFAAdoption: { usersWith2FA: 3, totalUsers: 9 },
  avgLogsPerServer: 308.5,
  serversWithoutLogs: 1,
  logsPerDay: days.map((date, i) => ({ date, count: i })),
  photoLogsPerDay: days.map((date) => ({ date, count: 0 })),
  newUsers: days.map((date) => ({ date, count: 1 })),
  newServers: days.map((date) => ({ date, count: 0 })),
  topServers: [{ id: 's1', name: 'Alpha', count: 1000 }],
  topPhotoServers: [],
};

const USERS: AdminUserList = {
  users: [
    { id: 'u2', email: 'with@x.io', username: 'with', role: 'user', twoFAEnabled: true, serverCount: 1, active: true, created_at: '2026-01-01T00:00:00.000Z', last_successful_login: null },
    { id: 'u3', email: 'without@x.io', username: 'without', role: 'user', twoFAEnabled: false, serverCount: 0, active: false, created_at: '2026-01-01T00:00:00.000Z', last_successful_login: '2026-02-01T10:00:00.000Z' },
  ],
};

const SERVERS: AdminServerList = {
  servers: [
    { id: 's1', name: 'Alpha', tier: 'pro', userCount: 3, logCount: 100, photoLogCount: 2, auditLogCount: 4, backupCount: 2, totalBackupSize: 2048, is_suspended: false, created_at: '2026-01-01T00:00:00.000Z' },
    { id: 's2', name: 'beta camp', tier: 'free', userCount: 1, logCount: 0, photoLogCount: 0, auditLogCount: 0, backupCount: 0, totalBackupSize: 0, is_suspended: true, created_at: '2026-01-02T00:00:00.000Z' },
  ],
};

const DETAIL = adminServerDetail({ userCount: 1 });

function serverDetailApi(role: 'moderator' | 'admin' | 'superadmin') {
  return mockApi({
    'GET /auth/me': () => json(meAnswer({ role })),
    'GET /admin/servers/s1': () => json(DETAIL),
    'GET /admin/tiers': () => json({ tiers: [{ key: 'free', label: 'Free' }, { key: 'pro', label: 'Pro' }] }),
    'GET /admin/servers/s1/users': () => json({ users: [{ id: 'u1', username: 'ann', email: 'a@x.io', role: 'owner' }] }),
    'PUT /admin/servers/s1/tier': () => json({ error: 'nope', message: 'nope' }, { status: 500 }),
  });
}

describe('admin dashboard (docs/spec/part-2.txt section 2)', () => {
  it("shows 'Loading stats...', then the cards with 2FA adoption and one decimal, and the top list", async () => {
    mockApi({ 'GET /admin/stats': () => json(STATS) });
    renderScreen(<AdminDashboardPage />, { path: '/admin/dashboard', session: SIGNED_IN });
    expect(screen.getByText('Loading stats...')).toBeTruthy();
    expect((await screen.findByTestId('admin-stat-2FA Adoption')).textContent).toContain('3 / 9');
    expect(screen.getByTestId('admin-stat-Avg Logs per Server').textContent).toContain('308.5');
    expect(screen.getAllByTestId('top-row')[0]!.textContent).toContain('Alpha');
    // New users and new servers share one chart, merged by date.
    expect(drawn.at(-1)?.series.map((s) => [s.name, s.data])).toEqual([
      ['New users', [1, 1, 1, 1, 1, 1, 1]],
      ['New servers', [0, 0, 0, 0, 0, 0, 0]],
    ]);
  });

  it("shows 'Error loading data' when the call fails", async () => {
    mockApi({ 'GET /admin/stats': () => json({ error: 'x', message: 'x' }, { status: 403 }) });
    renderScreen(<AdminDashboardPage />, { path: '/admin/dashboard', session: SIGNED_IN });
    expect(await screen.findByText('Error loading data')).toBeTruthy();
  });
});

describe('admin users (docs/spec/part-2.txt sections 2, 5, 8)', () => {
  it('disables the role selector without 2FA, toggles the active flag and toasts the spec text', async () => {
    const seen = mockApi({
      'GET /admin/users': () => json(USERS),
      'PUT /admin/users/u3/active': () => json({ id: 'u3', role: 'user', active: true }),
      'PUT /admin/users/u2/role': () => json({ error: 'You cannot give a role above your own.', message: 'x' }, { status: 403 }),
    });
    renderScreen(<AdminUsersPage />, { path: '/admin/users', session: SIGNED_IN });
    expect(screen.getByText('Loading users...')).toBeTruthy();
    const rows = await screen.findAllByTestId('admin-user-row');
    const without = rows.find((r) => r.dataset.user === 'without@x.io')!;
    expect((within(without).getByRole('combobox', { name: 'Role of without@x.io' }) as HTMLSelectElement).disabled).toBe(true);
    expect(within(without).getByText('User must have 2FA enabled to change role')).toBeTruthy();
    fireEvent.click(within(without).getByRole('button', { name: 'Enable without@x.io' }));
    expect(await screen.findByText('Successfully updated the users status')).toBeTruthy();
    const put = seen.find((r) => r.method === 'PUT' && r.url.endsWith('/admin/users/u3/active'))!;
    expect(await put.clone().json()).toEqual({ active: true });
    const withRow = rows.find((r) => r.dataset.user === 'with@x.io')!;
    expect(within(withRow).getByText('-')).toBeTruthy();
    fireEvent.change(within(withRow).getByRole('combobox', { name: 'Role of with@x.io' }), { target: { value: 'superadmin' } });
    expect(await screen.findByText('You cannot give a role above your own.')).toBeTruthy();
  });
});

describe('admin servers list (docs/spec/part-2.txt section 2)', () => {
  it('filters by tier and by name (case-insensitive), shows status and backup size', async () => {
    mockApi({ 'GET /admin/servers': () => json(SERVERS) });
    renderScreen(<AdminServersPage />, { path: '/admin/servers', session: SIGNED_IN });
    expect(screen.getByText('Loading servers...')).toBeTruthy();
    expect(await screen.findAllByTestId('admin-server-row')).toHaveLength(2);
    expect(screen.getByText('Suspended').closest('tr')?.className).toBe('admin-row-suspended');
    expect(screen.getByText(`2 / ${formatBytes(2048)}`)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'BETA' } });
    expect(screen.getAllByTestId('admin-server-row').map((r) => r.textContent)).toEqual([expect.stringContaining('beta camp')]);
    fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Tier'), { target: { value: 'pro' } });
    expect(screen.getAllByTestId('admin-server-row')).toHaveLength(1);
  });

  it("shows 'No access or server error' on failure", async () => {
    mockApi({ 'GET /admin/servers': () => json({ error: 'x', message: 'x' }, { status: 403 }) });
    renderScreen(<AdminServersPage />, { path: '/admin/servers', session: SIGNED_IN });
    expect(await screen.findByText('No access or server error')).toBeTruthy();
  });
});

describe('admin server detail (docs/spec/part-2.txt sections 2, 6, 8)', () => {
  it('a moderator sees the summary and tabs but no actions', async () => {
    serverDetailApi('moderator');
    renderScreen(<AdminServerPage />, { path: '/admin/servers/s1', route: '/admin/servers/:id', session: SIGNED_IN });
    expect(await screen.findByText('Tier limits')).toBeTruthy();
    expect(screen.queryByText('Actions')).toBeNull();
    expect(screen.queryByRole('button', { name: /Suspend/ })).toBeNull();
    expect(await screen.findByTestId('admin-member-row')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Add user to server' })).toBeNull();
  });

  it('an admin changes the tier (failure: inline text and toast) but has no suspend control; a superadmin has it', async () => {
    serverDetailApi('admin');
    const { unmount } = renderScreen(<AdminServerPage />, { path: '/admin/servers/s1', route: '/admin/servers/:id', session: SIGNED_IN });
    const tier = await screen.findByLabelText('Tier');
    expect(screen.queryByRole('button', { name: /Suspend/ })).toBeNull();
    await waitFor(() => expect(within(tier).getAllByRole('option')).toHaveLength(2));
    fireEvent.change(tier, { target: { value: 'free' } });
    expect(await screen.findByText('Failed to update tier')).toBeTruthy();
    expect(await screen.findByText('Updating server tier failed')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Add user to server' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await screen.findByText('Email and role are required')).toBeTruthy();
    unmount();
    serverDetailApi('superadmin');
    renderScreen(<AdminServerPage />, { path: '/admin/servers/s1', route: '/admin/servers/:id', session: SIGNED_IN });
    expect(await screen.findByRole('button', { name: 'Suspend server' })).toBeTruthy();
  });
});

describe('admin server tabs pager (docs/spec/part-2.txt section 2)', () => {
  it("the Audit Logs tab pages on the server with Prev/Next and 'Page x / y'", async () => {
    const pageOf = (page: number): AdminServerAuditPage => ({
      logs: [{ id: `e${page}`, action: 'server.renamed', created_at: '2026-03-01T00:00:00.000Z', user_id: 'u1', details: { page } }],
      pagination: { page, limit: 50, total: 120 },
    });
    const seen = mockApi({ 'GET /admin/servers/s1/audit-logs': (request) => json(pageOf(Number(new URL(request.url).searchParams.get('page')))) });
    renderScreen(<AuditTab id="s1" />, { session: SIGNED_IN });
    expect(await screen.findByText('Page 1 / 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Prev' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 / 3')).toBeTruthy();
    expect(seen.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(['1', '2']);
    expect(screen.getByRole('button', { name: 'Prev' }).hasAttribute('disabled')).toBe(false);
  });
});

describe('admin logs (docs/spec/part-2.txt section 2)', () => {
  it('filters by user, server and action; options narrow to the filtered logs', async () => {
    const logs: AdminLogList = {
      logs: [
        { id: 'a1', admin_user_id: 'u1', admin_email: 'one@x.io', server_id: 's1', server_name: 'Alpha', action: 'staff.tier-changed', details: { to: 'pro' }, created_at: '2026-03-01T00:00:00.000Z' },
        { id: 'a2', admin_user_id: 'u2', admin_email: 'two@x.io', server_id: null, server_name: null, action: 'user.active-changed', details: 'x', created_at: '2026-03-02T00:00:00.000Z' },
      ],
    };
    mockApi({ 'GET /admin/logs': () => json(logs) });
    renderScreen(<AdminLogsPage />, { path: '/admin/logs', session: SIGNED_IN });
    expect(await screen.findAllByTestId('admin-log-row')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText('User'), { target: { value: 'one@x.io' } });
    expect(screen.getAllByTestId('admin-log-row')).toHaveLength(1);
    expect(within(screen.getByLabelText('Action')).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'staff.tier-changed']);
    fireEvent.change(screen.getByLabelText('User'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Server'), { target: { value: 'Alpha' } });
    expect(screen.getAllByTestId('admin-log-row').map((r) => r.textContent)).toEqual([expect.stringContaining('staff.tier-changed')]);
  });

  it("shows 'No logs found' without staff actions", async () => {
    mockApi({ 'GET /admin/logs': () => json({ logs: [] }) });
    renderScreen(<AdminLogsPage />, { path: '/admin/logs', session: SIGNED_IN });
    expect(await screen.findByText('No logs found')).toBeTruthy();
  });
});
