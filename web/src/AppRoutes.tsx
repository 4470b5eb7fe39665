import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { adminRolesOf } from './features/admin/adminNav.ts';
import { AppShell } from './features/shell/AppShell.tsx';
import { RequireRole, RequireServerRole, RequireToken } from './features/shell/guards.tsx';
import { STAFF_ROLES } from './features/shell/navigation.ts';
import { SERVER_SCREENS, type ServerScreenPath } from './features/shell/screens.ts';

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
const PlayersPage = lazy(() => import('./features/players/PlayersPage.tsx'));
const PlayerPage = lazy(() => import('./features/players/PlayerPage.tsx'));
const CasesPage = lazy(() => import('./features/cases/CasesPage.tsx'));
const CasePage = lazy(() => import('./features/cases/CasePage.tsx'));
const BillingPage = lazy(() => import('./features/billing/BillingPage.tsx'));
const AuditLogsPage = lazy(() => import('./features/audit/AuditLogsPage.tsx'));
const ExportsPage = lazy(() => import('./features/exports/ExportsPage.tsx'));
const WebhooksPage = lazy(() => import('./features/webhooks/WebhooksPage.tsx'));
const AlertsPage = lazy(() => import('./features/alerts/AlertsPage.tsx'));
const BackupsPage = lazy(() => import('./features/backups/BackupsPage.tsx'));
const CreateServerPage = lazy(() => import('./features/servers/CreateServerPage.tsx'));
const UserSettingsPage = lazy(() => import('./features/user/UserSettingsPage.tsx'));
const SettingsPage = lazy(() => import('./features/settings/SettingsPage.tsx'));
const ServerUsersPage = lazy(() => import('./features/serverUsers/ServerUsersPage.tsx'));
const AdminDashboardPage = lazy(() => import('./features/admin/AdminDashboardPage.tsx'));
const AdminUsersPage = lazy(() => import('./features/admin/AdminUsersPage.tsx'));
const AdminServersPage = lazy(() => import('./features/admin/AdminServersPage.tsx'));
const AdminServerPage = lazy(() => import('./features/admin/AdminServerPage.tsx'));
const AdminLogsPage = lazy(() => import('./features/admin/AdminLogsPage.tsx'));
const infoPages = () => import('./features/landing/InfoPage.tsx');
const legalPages = () => import('./features/landing/LegalPages.tsx');
const PrivacyPage = lazy(() => legalPages().then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazy(() => legalPages().then((m) => ({ default: m.TermsPage })));
const NotFoundPage = lazy(() => infoPages().then((m) => ({ default: m.NotFoundPage })));
const NotAvailablePage = lazy(() => infoPages().then((m) => ({ default: m.NotAvailablePage })));

/** The public documentation pages (docs/spec/part-2.txt section 2), one module per group. */
const apiDocs = () => import('./features/docs/ApiDocsPages.tsx');
const featureDocs = () => import('./features/docs/FeatureDocsPages.tsx');
const gameDocs = () => import('./features/docs/GamesPages.tsx');
const DOCS_ROUTES: readonly { path: string; Page: ComponentType }[] = [
  { path: '/docs', Page: lazy(() => featureDocs().then((m) => ({ default: m.DocsOverviewPage }))) },
  { path: '/docsapi/setup', Page: lazy(() => apiDocs().then((m) => ({ default: m.SetupDocsPage }))) },
  { path: '/docsapi/logs', Page: lazy(() => apiDocs().then((m) => ({ default: m.LogsApiDocsPage }))) },
  { path: '/docsapi/photologs', Page: lazy(() => apiDocs().then((m) => ({ default: m.PhotoLogsApiDocsPage }))) },
  { path: '/features', Page: lazy(() => featureDocs().then((m) => ({ default: m.FeaturesDocsPage }))) },
  { path: '/features/apitokens', Page: lazy(() => featureDocs().then((m) => ({ default: m.ApiTokensDocsPage }))) },
  { path: '/features/servers', Page: lazy(() => featureDocs().then((m) => ({ default: m.ServersDocsPage }))) },
  { path: '/features/backups', Page: lazy(() => featureDocs().then((m) => ({ default: m.BackupsDocsPage }))) },
  { path: '/features/webhooks', Page: lazy(() => featureDocs().then((m) => ({ default: m.WebhooksDocsPage }))) },
  { path: '/games/fivem', Page: lazy(() => gameDocs().then((m) => ({ default: m.FiveMDocsPage }))) },
  { path: '/games/minecraft', Page: lazy(() => gameDocs().then((m) => ({ default: m.MinecraftDocsPage }))) },
];

/** The server screens built so far; every other screen of the list shows a placeholder (its issue is pending). */
const SCREEN_PAGES: Partial<Record<ServerScreenPath, ComponentType>> = {
  '/dashboard': DashboardPage,
  '/logs': LogsPage,
  '/photologs': PhotoLogsPage,
  '/players': PlayersPage,
  '/cases': CasesPage,
  '/billing': BillingPage,
  '/settings': SettingsPage,
  '/server-users': ServerUsersPage,
  '/audit-logs': AuditLogsPage,
  '/exports': ExportsPage,
  '/webhooks': WebhooksPage,
  '/alerts': AlertsPage,
  '/backups': BackupsPage,
};

export function AppRoutes() {
  return (
    <Routes>
      {/* Login, register, forgot and reset show no shell (docs/spec/part-1.txt section 2). */}
      <Route path="/login" element={<LoginPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
      <Route element={<AppShell />}>
        <Route index element={<LandingPage />} />
        <Route path="/contact" element={<ContactPage />} />
        {DOCS_ROUTES.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="/privacy-policy" element={<PrivacyPage />} />
        <Route path="/terms-of-service" element={<TermsPage />} />
        <Route element={<RequireToken />}>
          {/* Each screen for the server roles its entry names (screens.ts minRole); others go to /dashboard. */}
          {SERVER_SCREENS.map(({ path, title, minRole }) => {
            const Page = SCREEN_PAGES[path];
            const page = Page ? <Page /> : <NotAvailablePage title={title} />;
            return <Route key={path} path={path} element={minRole === 'user' ? page : <RequireServerRole minRole={minRole}>{page}</RequireServerRole>} />;
          })}
          {/* A player's page, under the Players screen (members of every role, as /players). */}
          <Route path="/players/:playerId" element={<PlayerPage />} />
          {/* A case's page, under the Cases screen (members of every role, as /cases). */}
          <Route path="/cases/:caseId" element={<CasePage />} />
          <Route path="/create-server" element={<CreateServerPage />} />
          <Route path="/user-settings" element={<UserSettingsPage />} />
        </Route>
        {/* The staff admin area (docs/spec/part-2.txt sections 2, 6): each screen for the site roles adminNav.ts lists. */}
        <Route element={<RequireRole allowed={STAFF_ROLES} />}>
          <Route path="/admin/dashboard" element={<AdminDashboardPage />} />
          <Route path="/admin/servers" element={<AdminServersPage />} />
          <Route path="/admin/servers/:id" element={<AdminServerPage />} />
        </Route>
        <Route element={<RequireRole allowed={adminRolesOf('/admin/users')} />}>
          <Route path="/admin/users" element={<AdminUsersPage />} />
        </Route>
        <Route element={<RequireRole allowed={adminRolesOf('/admin/logs')} />}>
          <Route path="/admin/logs" element={<AdminLogsPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
