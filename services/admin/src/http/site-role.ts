/**
 * Staff routes' guard: the caller's site role as the identity read model holds it (auth publishes every
 * change, and a change also revokes the sessions that carried the old role) must reach `minRole`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SITE_ROLES } from '@skald/contracts';
import type { SiteRole } from '@skald/contracts';
import { ROLE_TOO_LOW, sendError, userIdFromRequest } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';

const rank = (role: SiteRole): number => SITE_ROLES.indexOf(role);

export function requireSiteRole(directory: IdentityReadModel, minRole: SiteRole) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const userId = userIdFromRequest(request);
    const role = userId === null ? null : await directory.siteRoleOf(userId);
    if (role !== null && rank(role) >= rank(minRole)) return undefined;
    return sendError(reply, 403, ROLE_TOO_LOW);
  };
}
