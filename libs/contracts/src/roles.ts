/**
 * Server roles (owner > admin > user, per server) and site roles (staff by default, then moderator,
 * admin, superadmin: the staff admin area). One definition for the events, the access tokens, the
 * routes and the web app (through '@skald/contracts/api').
 */
export const SERVER_ROLES = ['owner', 'admin', 'user'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

export const SITE_ROLES = ['staff', 'moderator', 'admin', 'superadmin'] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

export function isServerRole(value: unknown): value is ServerRole {
  return typeof value === 'string' && (SERVER_ROLES as readonly string[]).includes(value);
}

export function isSiteRole(value: unknown): value is SiteRole {
  return typeof value === 'string' && (SITE_ROLES as readonly string[]).includes(value);
}

