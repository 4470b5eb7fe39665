import type { ServerRole, ServerUsage } from '@skald/contracts/api';

/**
 * The signed-in server screens, in sidebar order (docs/spec/part-1.txt sections 2, 6): the ONE list the routes
 * (AppRoutes.tsx gives every path a page, or a placeholder titled `title` until its screen exists)
 * and the sidebar (navigation.ts `sidebarGroups`) are derived from, so a sidebar link never 404s.
 */
export const SIDEBAR_GROUPS = [
  { key: 'logs', label: 'Logs' },
  { key: 'integrations', label: 'Integrations' },
  { key: 'management', label: 'Management' },
  { key: 'billing', label: 'Billing' },
  { key: 'audit', label: 'Audit' },
] as const;

export type SidebarGroupKey = (typeof SIDEBAR_GROUPS)[number]['key'];

/** Tier limits that lock an entry when the server's tier allows none of it. */
export type TierLimit = keyof Pick<ServerUsage, 'maxWebhooks' | 'maxBackups' | 'maxAlertRules'>;

export interface ServerScreen {
  readonly path: string;
  /** The page's title while the screen is a placeholder. */
  readonly title: string;
  readonly group: SidebarGroupKey;
  /** The sidebar label. */
  readonly label: string;
  /** The lowest server role that sees the entry (owner > admin > user). */
  readonly minRole: ServerRole;
  readonly lockedWithout?: TierLimit;
}

export const SERVER_SCREENS = [
  { path: '/dashboard', title: 'Dashboard', group: 'logs', label: 'Dashboard', minRole: 'user' },
  { path: '/logs', title: 'Logs', group: 'logs', label: 'Logs', minRole: 'user' },
  { path: '/photologs', title: 'Photo Logs', group: 'logs', label: 'Photo Logs', minRole: 'user' },
  { path: '/players', title: 'Players', group: 'logs', label: 'Players', minRole: 'user' },
  // Evidence cases (docs/CASES.md): read by every member, beside the logs they are made from.
  { path: '/cases', title: 'Cases', group: 'logs', label: 'Cases', minRole: 'user' },
  { path: '/webhooks', title: 'Webhooks', group: 'integrations', label: 'Webhooks', minRole: 'admin', lockedWithout: 'maxWebhooks' },
  { path: '/alerts', title: 'Alerts', group: 'integrations', label: 'Alerts', minRole: 'admin', lockedWithout: 'maxAlertRules' },
  { path: '/server-users', title: 'Manage Server Users', group: 'management', label: 'Users', minRole: 'owner' },
  { path: '/backups', title: 'DB Backups', group: 'management', label: 'DB Backups', minRole: 'owner', lockedWithout: 'maxBackups' },
  { path: '/settings', title: 'Server settings', group: 'management', label: 'Settings', minRole: 'admin' },
  { path: '/billing', title: 'Subscription Plans', group: 'billing', label: 'Subscriptions', minRole: 'owner' },
  { path: '/audit-logs', title: 'Audit Logs', group: 'audit', label: 'Audit Logs', minRole: 'admin' },
  { path: '/exports', title: 'Export Logs', group: 'audit', label: 'Export Logs', minRole: 'admin' },
] as const satisfies readonly ServerScreen[];

export type ServerScreenPath = (typeof SERVER_SCREENS)[number]['path'];
