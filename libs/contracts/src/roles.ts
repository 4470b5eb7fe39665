/**
 * Server roles (owner > admin > user, per server) and site roles (user by default, then moderator, admin,
 * superadmin: the staff admin area). One definition for the events, the access tokens, the routes, every
 * answer and the web app (through '@skald/contracts/api').
 */
export const SERVER_ROLES = ['owner', 'admin', 'user'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

/** Every account's site role until staff give it another: an account, not staff (docs/DECISIONS.md). */
export const DEFAULT_SITE_ROLE = 'user';
export const SITE_ROLES = [DEFAULT_SITE_ROLE, 'moderator', 'admin', 'superadmin'] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

/**
 * The default role's former name. Accounts stored, events published and tokens signed before the rename may
 * carry it: read as the default role (siteRoleFrom), never written again.
 */
export const FORMER_DEFAULT_SITE_ROLE = 'staff';

export function isServerRole(value: unknown): value is ServerRole {
  return typeof value === 'string' && (SERVER_ROLES as readonly string[]).includes(value);
}

export function isSiteRole(value: unknown): value is SiteRole {
  return typeof value === 'string' && (SITE_ROLES as readonly string[]).includes(value);
}

/** A stored or received site role in today's name (the former default name reads as the default); null for anything else. */
export function siteRoleFrom(value: unknown): SiteRole | null {
  if (value === FORMER_DEFAULT_SITE_ROLE) return DEFAULT_SITE_ROLE;
  return isSiteRole(value) ? value : null;
}
