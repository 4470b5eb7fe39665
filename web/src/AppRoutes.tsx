import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { AppShell } from './features/shell/AppShell.tsx';
import { RequireRole, RequireToken } from './features/shell/guards.tsx';
import { STAFF_ROLES } from './features/shell/navigation.ts';

// Every route's code loads lazily; only the shell is in the initial bundle.
const LandingPage = lazy(() => import('./features/landing/LandingPage.tsx'));
const ContactPage = lazy(() => import('./features/landing/ContactPage.tsx'));
const LoginPage = lazy(() => import('./features/auth/LoginPage.tsx'));
const RegisterPage = lazy(() => import('./features/auth/RegisterPage.tsx'));
const ForgotPasswordPage = lazy(() => import('./features/auth/ForgotPasswordPage.tsx'));
const ResetPasswordPage = lazy(() => import('./features/auth/ResetPasswordPage.tsx'));
const DashboardPage = lazy(() => import('./features/dashboard/DashboardPage.tsx'));
const LogsPage = lazy(() => import('./features/logs/LogsPage.tsx'));
const PhotoLogsPage = lazy(() => import('./features/photologs/PhotoLogsPage.tsx'));
const CreateServerPage = lazy(() => import('./features/servers/CreateServerPage.tsx'));
const UserSettingsPage = lazy(() => import('./features/user/UserSettingsPage.tsx'));
const infoPages = () => import('./features/landing/InfoPage.tsx');
const DocsPage = lazy(() => infoPages().then((m) => ({ default: m.DocsPage })));
const PrivacyPage = lazy(() => infoPages().then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazy(() => infoPages().then((m) => ({ default: m.TermsPage })));
const NotFoundPage = lazy(() => infoPages().then((m) => ({ default: m.NotFoundPage })));
const NotAvailablePage = lazy(() => infoPages().then((m) => ({ default: m.NotAvailablePage })));

/** Signed-in screens that belong to other issues; they exist so sidebar links never 404. */
const PENDING_SCREENS: { path: string; title: string }[] = [
  { path: '/webhooks', title: 'Webhooks' },
  { path: '/backups', title: 'DB Backups' },
  { path: '/server-users', title: 'Manage Server Users' },
  { path: '/settings', title: 'Server settings' },
  { path: '/billing', title: 'Subscription Plans' },
  { path: '/audit-logs', title: 'Audit Logs' },
  { path: '/exports', title: 'Export Logs' },
];

export function AppRoutes() {
  return (
    <Routes>
      {/* Login, register, forgot and reset show no shell (spec 000 §2). */}
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
      <Route element={<AppShell />}>
        <Route index element={<LandingPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/docs" element={<DocsPage />} />
        <Route path="/features" element={<LandingPage />} />
        <Route path="/privacy-policy" element={<PrivacyPage />} />
        <Route path="/terms-of-service" element={<TermsPage />} />
        <Route element={<RequireToken />}>
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/logs" element={<LogsPage />} />
          <Route path="/photologs" element={<PhotoLogsPage />} />
          <Route path="/create-server" element={<CreateServerPage />} />
          <Route path="/user-settings" element={<UserSettingsPage />} />
          {PENDING_SCREENS.map((s) => (
            <Route key={s.path} path={s.path} element={<NotAvailablePage title={s.title} />} />
          ))}
        </Route>
        <Route element={<RequireRole allowed={STAFF_ROLES} />}>
          <Route path="/admin/dashboard" element={<NotAvailablePage title="Admin Dashboard" />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
