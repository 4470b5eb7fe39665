import type { SiteRole } from '@skald/contracts/api';

/** Who sees each admin screen (docs/spec/part-2.txt sections 2, 6): one list for the routes' guards and the admin sidebar. */
export const ADMIN_SCREENS = [
  { path: '/admin/dashboard', label: 'Dashboard', roles: ['moderator', 'admin', 'superadmin'] },
  { path: '/admin/users', label: 'Users', roles: ['admin', 'superadmin'] },
  { path: '/admin/servers', label: 'Servers', roles: ['moderator', 'admin', 'superadmin'] },
  { path: '/admin/logs', label: 'Admin Logs', roles: ['superadmin'] },
] as const satisfies readonly { path: string; label: string; roles: readonly SiteRole[] }[];

export type AdminScreenPath = (typeof ADMIN_SCREENS)[number]['path'];

export function adminRolesOf(path: AdminScreenPath): readonly SiteRole[] {
  return ADMIN_SCREENS.find((s) => s.path === path)!.roles;
}

/** The admin screens the site role reaches. */
export function adminScreensFor(role: SiteRole | null | undefined): (typeof ADMIN_SCREENS)[number][] {
  return ADMIN_SCREENS.filter((s) => role !== null && role !== undefined && (s.roles as readonly SiteRole[]).includes(role));
}

/** Tier changes and member changes: admin and superadmin; suspension: superadmin only (docs/spec/part-2.txt section 6). */
export function canManageServers(role: SiteRole | null | undefined): boolean {
  return role === 'admin' || role === 'superadmin';
}

export function canSuspend(role: SiteRole | null | undefined): boolean {
  return role === 'superadmin';
}
