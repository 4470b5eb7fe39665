import { MenuUnfoldOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Suspense, useEffect, useRef, useState, type TouchEvent } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { AdminSidebar } from '../admin/AdminSidebar.tsx';
import { useMeQuery } from '../auth/authApi.ts';
import { endSession } from '../auth/session.ts';
import { AppFooter } from './AppFooter.tsx';
import { AppHeader } from './AppHeader.tsx';
import { SESSION_PROTECTED_PATHS, SWIPE_CLOSE_PX } from './navigation.ts';
import { ServerSidebar } from './ServerSidebar.tsx';
import { useCurrentServerSync } from './useCurrentServerSync.ts';
import { useIsMobile } from './useIsMobile.ts';

export function PageFallback() {
  return (
    <div className="page-loading" role="status" aria-label="Loading">
      <span className="spinner" />
    </div>
  );
}

/** Header, footer and (with a stored token) the server sidebar around every shell page. */
export function AppShell() {
  const token = useAppSelector((s) => s.session.token);
  const { data: me, isError } = useMeQuery(undefined, { skip: !token });
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const isMobile = useIsMobile();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const swipeStartX = useRef<number | null>(null);

  useCurrentServerSync(me?.servers);

  // Session loss (docs/spec/part-1.txt section 4): the current user cannot be loaded on a protected path.
  useEffect(() => {
    if (!token || !isError) return;
    if (!SESSION_PROTECTED_PATHS.some((p) => location.pathname.startsWith(p))) return;
    console.warn('Session lost: could not load the current user; signing out.');
    endSession(dispatch, true);
    navigate('/login', { replace: true });
  }, [token, isError, location.pathname, dispatch, navigate]);

  // The mobile sidebar closes on every route change.
  useEffect(() => setSidebarOpen(false), [location.pathname]);

  const onTouchStart = (e: TouchEvent) => {
    swipeStartX.current = e.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = swipeStartX.current;
    const end = e.changedTouches[0]?.clientX;
    swipeStartX.current = null;
    if (start !== null && end !== undefined && start - end > SWIPE_CLOSE_PX) setSidebarOpen(false);
  };

  const showSidebar = Boolean(token);
  // The admin area shows its own sidebar (docs/spec/part-2.txt section 2): with a token, on paths under /admin.
  const inAdmin = location.pathname.startsWith('/admin');
  return (
    <div className="app-frame">
      <AppHeader />
      <div className={['app-body', showSidebar && 'with-sidebar', isMobile && 'mobile'].filter(Boolean).join(' ')}>
        {/* On mobile the toggle is an ordinary block above the page (not a floating button), so it
            can never cover the footer or the page's own controls. */}
        {showSidebar && isMobile && (
          <Button className="sidebar-toggle" icon={<MenuUnfoldOutlined />} onClick={() => setSidebarOpen(true)} aria-expanded={sidebarOpen} aria-controls="server-sidebar">
            {inAdmin ? 'Admin menu' : 'Server menu'}
          </Button>
        )}
        {showSidebar && (
          <>
            {isMobile && sidebarOpen && <div className="sidebar-backdrop" data-testid="sidebar-backdrop" onClick={() => setSidebarOpen(false)} aria-hidden="true" />}
            <aside
              id="server-sidebar"
              className={`sidebar ${isMobile ? 'mobile' : 'desktop'} ${isMobile && !sidebarOpen ? 'closed' : 'open'}`}
              onTouchStart={onTouchStart}
              onTouchEnd={onTouchEnd}
              aria-hidden={isMobile && !sidebarOpen}
              inert={isMobile && !sidebarOpen}
            >
              {inAdmin ? <AdminSidebar /> : <ServerSidebar />}
            </aside>
          </>
        )}
        <main className="app-main">
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <AppFooter />
    </div>
  );
}
