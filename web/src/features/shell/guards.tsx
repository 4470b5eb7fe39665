import type { SiteRole } from '@skald/contracts/api';
import { Navigate, Outlet } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { useMeQuery } from '../auth/authApi.ts';
import { PageFallback } from './AppShell.tsx';

/** Token guard: no stored token redirects to / (spec 000 §2). */
export function RequireToken() {
  const { token, lost } = useAppSelector((s) => s.session);
  // After a session loss the user goes to /login rather than the landing page (spec 000 §4).
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
