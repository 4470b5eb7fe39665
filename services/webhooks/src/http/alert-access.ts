/**
 * Access to the routes addressed by alert id (/alerts/{id}…), as webhook-access.ts does for webhooks: the
 * rule's server is looked up, then the caller's role on it is checked (admin or owner). A rule that does
 * not exist and one of a server the caller is not a member of answer the SAME 404; a member below admin
 * gets 403. A guard (the service kit's guards.ts): it runs before validation, reading the id as text.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ALERT_NOT_FOUND } from '@skald/contracts';
import { checkServerRole, guard, sendError, userIdFromRequest } from '@skald/service-kit';
import type { GuardHook } from '@skald/service-kit';
import type { AlertStore } from '../domain/alerts/alert-store.ts';
import type { ServerDirectory } from '../domain/limits.ts';

export function requireAlertAdmin(directory: ServerDirectory, alerts: Pick<AlertStore, 'serverOf'>): GuardHook {
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { id?: unknown };
    const id = typeof params.id === 'string' ? params.id : '';
    const userId = userIdFromRequest(request);
    const serverId = userId === null || id === '' ? null : await alerts.serverOf(id);
    const check = await checkServerRole(directory, userId, serverId, 'admin');
    if (check.ok) {
      request.serverAccess = { serverId: serverId!, role: check.role };
      return undefined;
    }
    return sendError(reply, check.statusCode, check.statusCode === 404 ? ALERT_NOT_FOUND : check.error);
  });
}
