import type { ServerRole, SiteRole } from '@skald/contracts/api';
import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { useMeQuery } from '../auth/authApi.ts';
import { PageFallback } from './AppShell.tsx';
import { roleMayOpen } from './navigation.ts';

/** Token guard: no stored token redirects to / (docs/spec/part-1.txt section 2). */
export function RequireToken() {
  const { token, lost } = useAppSelector((s) => s.session);
  // After a session loss the user goes to /login rather than the landing page (docs/spec/part-1.txt section 4).
  if (!token) return <Navigate to={lost ? '/login' : '/'} replace />;
  return <Outlet />;
}

/** Role guard: loads the current user and redirects to / unless the site role is allowed. */
export function RequireRole({ allowed }: { allowed: readonly SiteRole[] }) {
  const token = useAppSelector((s) => s.session.token);
  const { data, isLoading, isError } = useMeQuery(undefined, { skip: !token });
  if (!token) return <Navigate to="/" replace />;
  if (isLoading) return <PageFallback />;
  if (isError || !data || !allowed.includes(data.user.role)) return <Navigate to="/" replace />;
  return <Outlet />;
}

/**
 * Server-role guard of a screen (screens.ts `minRole`, docs/spec/part-1.txt section 6): a member below it who opens the
 * screen by its address goes to /dashboard, as the spec says of Settings, instead of meeting the server's
 * 403 as an error state. Without a current server the page shows its own 'select a server' state; while
 * the user's servers load, the fallback shows and the page's own calls wait.
 */
export function RequireServerRole({ minRole, children }: { minRole: ServerRole; children: ReactNode }) {
  const serverId = useAppSelector((s) => s.session.serverId);
  const { data, isError } = useMeQuery(undefined);
  if (!serverId || isError) return children;
  if (!data) return <PageFallback />;
  const role = data.servers.find((server) => server.id === serverId)?.role;
  if (!roleMayOpen(role, minRole)) return <Navigate to="/dashboard" replace />;
  return children;
}
