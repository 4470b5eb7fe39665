import type { MeAnswer, ServerRole, SiteRole } from '@skald/contracts/api';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SessionState } from '../src/app/sessionSlice.ts';
import { AppShell } from '../src/features/shell/AppShell.tsx';
import { RequireRole, RequireToken } from '../src/features/shell/guards.tsx';
import { meAnswer, serverUsage } from './fixtures.ts';
import { json, mockApi, renderInApp, SIGNED_IN } from './helpers.tsx';

const me = (role: SiteRole = 'user', serverRole: ServerRole = 'owner'): MeAnswer => {
  const answer = meAnswer({ role, serverRole });
  return { ...answer, servers: [...answer.servers, { id: 's2', name: 'Beta', role: 'user' }] };
};

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderShell(path: string, session: SessionState) {
  const { store } = renderInApp(
    <>
      <Routes>
        <Route element={<AppShell />}>
          <Route index element={<div>home</div>} />
          <Route element={<RequireToken />}>
            <Route path="/dashboard" element={<div>dash</div>} />
            <Route path="/logs" element={<div>logs</div>} />
          </Route>
          <Route element={<RequireRole allowed={['moderator', 'admin', 'superadmin']} />}>
            <Route path="/admin/dashboard" element={<div>admin area</div>} />
          </Route>
        </Route>
        <Route path="/login" element={<div>login screen</div>} />
      </Routes>
      <Where />
    </>,
    { path, session },
  );
  return store;
}

function setMobile(mobile: boolean) {
  window.matchMedia = (query: string) =>
    ({ matches: mobile, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList; // test double: only the members the hook reads
}

describe('shell, guards and session', () => {
  it('shows public links without a token and the token guard sends protected routes to /', async () => {
    setMobile(false);
    mockApi({});
    renderShell('/dashboard', { token: null, serverId: null, serverName: null });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
    expect(screen.getByRole('link', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'User Settings' })).toBeNull();
    expect(screen.queryByLabelText('Server navigation')).toBeNull();
  });

  it('selects the server a link names when the user is a member, and ignores a server the user cannot see', async () => {
    setMobile(false);
    mockApi({ 'GET /auth/me': () => json(me()), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10 })), 'GET /server/usage/s2': () => json(serverUsage({ used: 1, limit: 10 })) });
    const store = renderShell('/logs?serverId=s2&level=error', SIGNED_IN);
    await waitFor(() => expect(store.getState().session).toMatchObject({ serverId: 's2', serverName: 'Beta' }));
    expect(screen.getByTestId('where').textContent).toBe('/logs');

    cleanup();
    // Stored on s2 (not the list's first): a link to a server the user cannot see must leave it there.
    const other = renderShell('/logs?serverId=someone-elses', { ...SIGNED_IN, serverId: 's2', serverName: 'Beta' });
    expect(await screen.findByText('USER')).toBeTruthy();
    expect(other.getState().session).toMatchObject({ serverId: 's2', serverName: 'Beta' });
  });

  it('shows the sidebar with the role in upper case and switching server goes to /dashboard', async () => {
    setMobile(false);
    mockApi({ 'GET /auth/me': () => json(me()), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10, maxWebhooks: 0, maxBackups: 2 })), 'GET /server/usage/s2': () => json(serverUsage({ used: 1, limit: 10 })) });
    const store = renderShell('/logs', SIGNED_IN);
    expect(await screen.findByText('OWNER')).toBeTruthy();
    expect(screen.getByText('Webhooks').closest('[aria-disabled="true"]')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'DB Backups' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Server'), { target: { value: 's2' } });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/dashboard'));
    expect(store.getState().session).toMatchObject({ serverId: 's2', serverName: 'Beta' });
    expect(window.localStorage.getItem('serverId')).toBe('s2');
    expect(await screen.findByText('USER')).toBeTruthy();
  });

  it("locks the Alerts entry on the tier's alert rules (maxAlertRules), whatever its webhooks", async () => {
    setMobile(false);
    mockApi({ 'GET /auth/me': () => json(me()), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10, maxWebhooks: 2, maxBackups: 1, maxAlertRules: 0 })) });
    renderShell('/logs', SIGNED_IN);
    expect(await screen.findByText('OWNER')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Webhooks' })).toBeTruthy());
    expect(screen.getByText('Alerts').closest('[aria-disabled="true"]')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Alerts' })).toBeNull();

    cleanup();
    mockApi({ 'GET /auth/me': () => json(me()), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10, maxWebhooks: 0, maxBackups: 1, maxAlertRules: 3 })) });
    renderShell('/logs', SIGNED_IN);
    expect(await screen.findByRole('link', { name: 'Alerts' })).toBeTruthy();
    expect(screen.getByText('Webhooks').closest('[aria-disabled="true"]')).toBeTruthy();
  });

  it('on mobile the sidebar opens from its toggle and closes on the backdrop and on a left swipe over 50 px', async () => {
    setMobile(true);
    mockApi({ 'GET /auth/me': () => json(me()), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10 })) });
    renderShell('/dashboard', SIGNED_IN);
    const aside = () => document.getElementById('server-sidebar')!;
    expect(aside().className).toContain('closed');
    fireEvent.click(screen.getByRole('button', { name: /Server menu/ }));
    expect(aside().className).toContain('open');
    fireEvent.click(screen.getByTestId('sidebar-backdrop'));
    expect(aside().className).toContain('closed');

    fireEvent.click(screen.getByRole('button', { name: /Server menu/ }));
    fireEvent.touchStart(aside(), { touches: [{ clientX: 200 }] });
    fireEvent.touchEnd(aside(), { changedTouches: [{ clientX: 160 }] });
    expect(aside().className).toContain('open');
    fireEvent.touchStart(aside(), { touches: [{ clientX: 200 }] });
    fireEvent.touchEnd(aside(), { changedTouches: [{ clientX: 140 }] });
    expect(aside().className).toContain('closed');
  });

  it('log out revokes the token on the server, clears local storage and goes to / (docs/spec/part-1.txt section 2)', async () => {
    setMobile(false);
    const seen = mockApi({
      'GET /auth/me': () => json(me()),
      'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10 })),
      'POST /auth/logout': () => json({ message: 'Logged out.' }),
    });
    window.localStorage.setItem('token', 'test-token');
    window.localStorage.setItem('theme', 'dark');
    const store = renderShell('/dashboard', SIGNED_IN);
    fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
    expect(Object.keys(window.localStorage)).toEqual([]);
    expect(store.getState().session.token).toBeNull();
    const logouts = seen.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/auth/logout');
    expect(logouts).toHaveLength(1);
    expect(logouts[0]!.headers.get('Authorization')).toBe('Bearer test-token');
  });

  for (const [failure, answer] of [
    ['answers 500', () => json({ error: 'boom' }, { status: 500 })],
    ['cannot be reached', () => Promise.reject(new TypeError('Failed to fetch'))],
  ] as const) {
    it(`log out still signs out here when the logout call ${failure}`, async () => {
      setMobile(false);
      const seen = mockApi({ 'GET /auth/me': () => json(me()), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10 })), 'POST /auth/logout': answer });
      window.localStorage.setItem('token', 'test-token');
      const store = renderShell('/dashboard', SIGNED_IN);
      fireEvent.click(await screen.findByRole('button', { name: 'Log out' }));
      await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
      await waitFor(() => expect(seen.some((r) => r.url.endsWith('/auth/logout'))).toBe(true));
      expect(window.localStorage.getItem('token')).toBeNull();
      expect(store.getState().session).toMatchObject({ token: null, lost: false });
    });
  }

  it('session loss: a failing current-user call on a protected path clears storage and goes to /login', async () => {
    setMobile(false);
    mockApi({ 'GET /auth/me': () => json({ error: 'gone' }, { status: 500 }) });
    window.localStorage.setItem('token', 'test-token');
    renderShell('/dashboard', SIGNED_IN);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('the role guard admits staff roles only and shows the Admin link to them', async () => {
    setMobile(false);
    mockApi({ 'GET /auth/me': () => json(me('user')), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10 })) });
    renderShell('/admin/dashboard', SIGNED_IN);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
  });

  it('lets a moderator into the admin area', async () => {
    setMobile(false);
    mockApi({ 'GET /auth/me': () => json(me('moderator')), 'GET /server/usage/s1': () => json(serverUsage({ used: 1, limit: 10 })) });
    renderShell('/admin/dashboard', SIGNED_IN);
    expect(await screen.findByText('admin area')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Admin' })).toBeTruthy();
  });
});
