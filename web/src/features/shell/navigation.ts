import type { ServerUsage } from '../common/types.ts';

// Sidebar groups and visibility by server role (spec 000 §2, §6).
export interface SidebarEntry {
  key: string;
  label: string;
  path: string;
  locked: boolean;
}

export interface SidebarGroup {
  key: string;
  label: string;
  entries: SidebarEntry[];
}

function entry(label: string, path: string, locked = false): SidebarEntry {
  return { key: path, label, path, locked };
}

export function sidebarGroups(role: string | null | undefined, usage: Pick<ServerUsage, 'maxWebhooks' | 'maxBackups'> | null | undefined): SidebarGroup[] {
  const r = (role ?? '').toLowerCase();
  const isOwner = r === 'owner';
  const isManager = isOwner || r === 'admin';
  // Locked (greyed with a lock) when the tier allows none or the limit is unknown.
  const webhooksLocked = !usage?.maxWebhooks;
  const backupsLocked = !usage?.maxBackups;

  const groups: SidebarGroup[] = [
    { key: 'logs', label: 'Logs', entries: [entry('Dashboard', '/dashboard'), entry('Logs', '/logs'), entry('Photo Logs', '/photologs')] },
  ];
  if (isManager) {
    groups.push({ key: 'integrations', label: 'Integrations', entries: [entry('Webhooks', '/webhooks', webhooksLocked)] });
    const management: SidebarEntry[] = [];
    if (isOwner) management.push(entry('Users', '/server-users'), entry('DB Backups', '/backups', backupsLocked));
    management.push(entry('Settings', '/settings'));
    groups.push({ key: 'management', label: 'Management', entries: management });
  }
  if (isOwner) groups.push({ key: 'billing', label: 'Billing', entries: [entry('Subscriptions', '/billing')] });
  if (isManager) groups.push({ key: 'audit', label: 'Audit', entries: [entry('Audit Logs', '/audit-logs'), entry('Export Logs', '/exports')] });
  return groups;
}

export const STAFF_ROLES = ['moderator', 'admin', 'superadmin'] as const;

export function isStaffRole(role: string | null | undefined): boolean {
  return (STAFF_ROLES as readonly string[]).includes((role ?? '').toLowerCase());
}

export function roleLabel(role: string | null | undefined): string {
  return role ? role.toUpperCase() : 'UNKNOWN';
}

export interface UsageView {
  percent: number;
  shownUsed: number;
  color: 'blue' | 'yellow' | 'red';
}

/** Usage bar: percent capped at 100, used capped at limit, colour at 80 and 90 percent (spec 000 §4). */
export function usageView(used: number, limit: number): UsageView {
  const safeUsed = Math.max(0, used);
  const raw = limit > 0 ? (safeUsed / limit) * 100 : safeUsed > 0 ? 100 : 0;
  const percent = Math.min(100, Math.round(raw * 10) / 10);
  const color = percent >= 90 ? 'red' : percent >= 80 ? 'yellow' : 'blue';
  return { percent, shownUsed: limit > 0 ? Math.min(safeUsed, limit) : safeUsed, color };
}

export const SUSPENDED_TEXT = 'Server suspended: This server is suspended due to a expired or cancelled payment.';

export function isSuspendedError(text: string | null | undefined): boolean {
  return (text ?? '').toLowerCase().includes('suspended');
}

/** Paths where a failed current-user call means the session is lost (spec 000 §4). */
export const SESSION_PROTECTED_PATHS = ['/dashboard', '/logs', '/settings', '/create-server', '/server-users', '/user-settings'];

export const MOBILE_BREAKPOINT_PX = 768;
export const SWIPE_CLOSE_PX = 50;
