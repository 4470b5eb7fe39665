/**
 * Access to the routes addressed by a resource's id (/webhooks/{id}…, /alerts/{id}…): the resource's server
 * is looked up, then the caller's role on it is checked by the service kit's checkServerRole (admin or
 * owner). A resource that does not exist and one of a server the caller is not a member of answer the SAME
 * 404 with the resource's own sentence, so ids of other tenants cannot be probed; a member below admin gets
 * 403. On success request.serverAccess is set, as requireServerRole does. A guard (the service kit's
 * guards.ts): it runs before validation, reading the id from the params as text.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ALERT_NOT_FOUND } from '@skald/contracts';
import { checkServerRole, guard, sendError, userIdFromRequest } from '@skald/service-kit';
import type { GuardHook } from '@skald/service-kit';
import type { AlertStore } from '../domain/alerts/alert-store.ts';
import type { ServerDirectory } from '../domain/limits.ts';
import type { WebhookStore } from '../domain/webhook-store.ts';

export const WEBHOOK_NOT_FOUND = 'Webhook not found.';

/** Admin or owner of the server the resource `serverOf(id)` names; `notFound` the sentence of its 404. */
export function requireAdminOfResource(directory: ServerDirectory, serverOf: (id: string) => Promise<string | null>, notFound: string): GuardHook {
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { id?: unknown };
    const id = typeof params.id === 'string' ? params.id : '';
    const userId = userIdFromRequest(request);
    const serverId = userId === null || id === '' ? null : await serverOf(id);
    const check = await checkServerRole(directory, userId, serverId, 'admin');
    if (check.ok) {
      request.serverAccess = { serverId: serverId!, role: check.role };
      return undefined;
    }
    return sendError(reply, check.statusCode, check.statusCode === 404 ? notFound : check.error);
  });
}

export const requireWebhookAdmin = (directory: ServerDirectory, store: Pick<WebhookStore, 'serverOf'>): GuardHook =>
  requireAdminOfResource(directory, (id) => store.serverOf(id), WEBHOOK_NOT_FOUND);

export const requireAlertAdmin = (directory: ServerDirectory, alerts: Pick<AlertStore, 'serverOf'>): GuardHook =>
  requireAdminOfResource(directory, (id) => alerts.serverOf(id), ALERT_NOT_FOUND);
