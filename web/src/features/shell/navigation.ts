import type { ServerRole, ServerUsage, SiteRole } from '@skald/contracts/api';
import { SERVER_SCREENS, SIDEBAR_GROUPS, type ServerScreen, type TierLimit } from './screens.ts';

// Sidebar groups and visibility by server role (docs/spec/part-1.txt sections 2, 6), derived from the screen list.
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

const ROLE_RANK: Record<ServerRole, number> = { user: 0, admin: 1, owner: 2 };

function isServerRoleName(role: string): role is ServerRole {
  return Object.hasOwn(ROLE_RANK, role);
}

/** The role's rank; a missing or unknown role sees what a user sees. */
function rankOf(role: string | null | undefined): number {
  const name = (role ?? '').toLowerCase();
  return isServerRoleName(name) ? ROLE_RANK[name] : ROLE_RANK.user;
}

/**
 * Whether a member with `role` may open a screen whose lowest role is `minRole` (screens.ts): the sidebar
 * lists only these, and the route guard sends anyone else to /dashboard (docs/spec/part-1.txt section 6).
 */
export function roleMayOpen(role: string | null | undefined, minRole: ServerRole): boolean {
  return ROLE_RANK[minRole] <= rankOf(role);
}

export function sidebarGroups(role: string | null | undefined, usage: Pick<ServerUsage, TierLimit> | null | undefined): SidebarGroup[] {
  // Locked (greyed with a lock) when the tier allows none or the limit is not known yet.
  const locked = (limit: TierLimit | undefined) => limit !== undefined && !usage?.[limit];
  const screens: readonly ServerScreen[] = SERVER_SCREENS;
  return SIDEBAR_GROUPS.map((group) => ({
    key: group.key,
    label: group.label,
    entries: screens
      .filter((screen) => screen.group === group.key && roleMayOpen(role, screen.minRole))
      .map((screen) => ({ key: screen.path, label: screen.label, path: screen.path, locked: locked(screen.lockedWithout) })),
  })).filter((group) => group.entries.length > 0);
}

/** The site roles that reach the staff admin area; `user`, every account's default role, does not. */
export const STAFF_ROLES: readonly SiteRole[] = ['moderator', 'admin', 'superadmin'];

export function isStaffRole(role: string | null | undefined): boolean {
  return STAFF_ROLES.some((staff) => staff === role);
}

export function roleLabel(role: string | null | undefined): string {
  return role ? role.toUpperCase() : 'UNKNOWN';
}

export interface UsageView {
  percent: number;
  shownUsed: number;
  color: 'blue' | 'yellow' | 'red';
}

/** Usage bar: percent capped at 100, used capped at limit, colour at 80 and 90 percent (docs/spec/part-1.txt section 4). */
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

/** Paths where a failed current-user call means the session is lost (docs/spec/part-1.txt section 4). */
export const SESSION_PROTECTED_PATHS = ['/dashboard', '/logs', '/settings', '/create-server', '/server-users', '/user-settings'];

export const MOBILE_BREAKPOINT_PX = 768;
export const SWIPE_CLOSE_PX = 50;
