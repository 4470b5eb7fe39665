/**
 * Staff routes' guard: the caller's site role as the identity read model holds it (auth publishes every
 * change, and a change also revokes the sessions that carried the old role) must reach `minRole`. A guard
 * (the service kit's guards.ts): declared in preHandler, it runs before validation.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SITE_ROLES } from '@skald/contracts';
import type { SiteRole } from '@skald/contracts';
import { guard, ROLE_TOO_LOW, sendError, userIdFromRequest } from '@skald/service-kit';
import type { GuardHook, IdentityReadModel } from '@skald/service-kit';

const rank = (role: SiteRole): number => SITE_ROLES.indexOf(role);

export function requireSiteRole(directory: IdentityReadModel, minRole: SiteRole): GuardHook {
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = userIdFromRequest(request);
    const role = userId === null ? null : await directory.siteRoleOf(userId);
    if (role !== null && rank(role) >= rank(minRole)) return undefined;
    return sendError(reply, 403, ROLE_TOO_LOW);
  });
}
