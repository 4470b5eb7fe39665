// Which server roles may open which screen, through the real routes (AppRoutes): one list (screens.ts
// minRole) decides both what the sidebar shows and who the route lets in. A member below a screen's role
// who opens it by its address lands on /dashboard (docs/spec/part-1.txt section 6 says so of Settings; the same for Webhooks,
// Alerts, Audit Logs and Export Logs for the role user, and for Users, DB Backups and Subscriptions below owner)
// before the screen asks the server for anything, so the server's 403 never shows as an error state.
import type { ServerRole } from '@skald/contracts/api';
import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../src/AppRoutes.tsx';
import { roleMayOpen, sidebarGroups } from '../src/features/shell/navigation.ts';
import { SERVER_SCREENS } from '../src/features/shell/screens.ts';
import { dashboardStats, meAnswer, serverUsage } from './fixtures.ts';
import { json, mockApi, renderInApp, SIGNED_IN } from './helpers.tsx';

// jsdom has no canvas for echarts; the dashboard's charts are not what these tests look at.
vi.mock('../src/features/dashboard/DashboardCharts.tsx', () => ({ DailyChart: () => <div />, SplitChart: () => <div /> }));

/** What each guarded screen asks the server for first (its own data, refused with 403 below its role). */
const OWN_CALLS: Readonly<Record<string, RegExp>> = {
  '/webhooks': /^\/api\/webhooks/,
  '/alerts': /^\/api\/alerts/,
  '/server-users': /^\/api\/manage\//,
  '/backups': /^\/api\/backups\//,
  '/settings': /^\/api\/settings\//,
  '/billing': /^\/api\/tiers/,
  '/audit-logs': /^\/api\/server\/[^/]+\/audit-logs/,
  '/exports': /^\/api\/exports\//,
};

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderAt(path: string, serverRole: ServerRole) {
  const seen = mockApi({
    'GET /auth/me': () => json(meAnswer({ serverRole })),
    'GET /server/usage/s1': () => json(serverUsage({ maxWebhooks: 3, maxBackups: 3, maxAlertRules: 3 })),
    'GET /logs/stats': () => json(dashboardStats()),
  });
  const utils = renderInApp(
    <>
      <AppRoutes />
      <Where />
    </>,
    { path, session: SIGNED_IN },
  );
  return { seen, ...utils };
}

const GUARDED = SERVER_SCREENS.filter((s) => s.minRole !== 'user');
const ROLES: readonly ServerRole[] = ['user', 'admin', 'owner'];
const refused = ROLES.flatMap((role) => GUARDED.filter((s) => !roleMayOpen(role, s.minRole)).map((s) => [role, s.path] as const));

describe('screens by server role (screens.ts minRole)', () => {
  it('refuses exactly the screens the spec keeps from each role', () => {
    const refusedOf = (role: ServerRole) => refused.filter(([r]) => r === role).map(([, path]) => path).sort();
    expect(refusedOf('user')).toEqual(['/alerts', '/audit-logs', '/backups', '/billing', '/exports', '/server-users', '/settings', '/webhooks']);
    expect(refusedOf('admin')).toEqual(['/backups', '/billing', '/server-users']);
    expect(refusedOf('owner')).toEqual([]);
    // The sidebar shows exactly the screens the route lets in.
    for (const role of ROLES) {
      const listed = sidebarGroups(role, { maxWebhooks: 1, maxBackups: 1, maxAlertRules: 1 }).flatMap((group) => group.entries.map((entry) => entry.path)).sort();
      expect(listed, role).toEqual(SERVER_SCREENS.filter((s) => roleMayOpen(role, s.minRole)).map((s) => s.path).sort());
    }
  });

  it.each(refused)('a member with the role %s who opens %s by its address lands on /dashboard, and the screen asks for nothing', async (role, path) => {
    const { seen, unmount } = renderAt(path, role);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/dashboard'));
    expect(await screen.findByText('Total logs')).toBeTruthy();
    const own = OWN_CALLS[path]!;
    expect(seen.map((r) => new URL(r.url).pathname).filter((p) => own.test(p))).toEqual([]);
    unmount();
  });

  it.each(GUARDED.map((s) => s.path))('the owner opens %s and stays there', async (path) => {
    const { seen, unmount } = renderAt(path, 'owner');
    await waitFor(() => expect(seen.some((r) => OWN_CALLS[path]!.test(new URL(r.url).pathname))).toBe(true));
    expect(screen.getByTestId('where').textContent).toBe(path);
    unmount();
  });

  it('an admin opens Settings, Webhooks, Alerts, Audit Logs and Export Logs', async () => {
    for (const path of ['/settings', '/webhooks', '/alerts', '/audit-logs', '/exports']) {
      const { seen, unmount } = renderAt(path, 'admin');
      await waitFor(() => expect(seen.some((r) => OWN_CALLS[path]!.test(new URL(r.url).pathname))).toBe(true));
      expect(screen.getByTestId('where').textContent).toBe(path);
      unmount();
    }
  });
});
