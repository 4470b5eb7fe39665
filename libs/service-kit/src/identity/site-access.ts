/**
 * Site role checks for the staff admin area (docs/spec/part-2.txt section 6), declared per route like requireServerRole:
 *
 *   app.put('/admin/servers/:id/tier', { onRequest: [app.authenticate, requireSiteRole('admin', 'superadmin')] }, handler)
 *
 * The role is the access token's `role` claim. It is current: every change of a site role revokes the
 * user's tokens (auth's setSiteRole bumps the token version, and app.authenticate checks revocation on
 * every request), so a demoted staff member's old token no longer passes authenticate at all.
 * Callers without the role get 403; run it after app.authenticate (401 without a valid token). A guard
 * (guards.ts): in preHandler too, it runs before validation.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SiteRole } from '@skald/contracts';
import { AUTH_REQUIRED_MESSAGE } from '../auth-plugin.ts';
import { sendError } from '../errors.ts';
import { guard } from '../guards.ts';
import type { GuardHook } from '../guards.ts';
import { ROLE_TOO_LOW } from './server-access.ts';

export function requireSiteRole(...allowed: readonly SiteRole[]): GuardHook {
  if (allowed.length === 0) throw new Error('requireSiteRole needs at least one role');
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const role = (request as { user?: { role?: unknown } }).user?.role;
    if (role === undefined) return sendError(reply, 401, AUTH_REQUIRED_MESSAGE);
    if (!(allowed as readonly unknown[]).includes(role)) return sendError(reply, 403, ROLE_TOO_LOW);
    return undefined;
  });
}
