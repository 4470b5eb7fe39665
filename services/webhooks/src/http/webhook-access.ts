/**
 * Access to the routes addressed by webhook id (/webhooks/{id}…): the webhook's server is looked up, then
 * the caller's role on it is checked by the service kit's checkServerRole. A webhook that does not exist
 * and one of a server the caller is not a member of answer the SAME 404, so ids of other tenants cannot be
 * probed; a member below admin gets 403. On success request.serverAccess is set, as requireServerRole does.
 * A guard (the service kit's guards.ts): it runs before validation, reading the id from the params as text.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkServerRole, guard, sendError, userIdFromRequest } from '@skald/service-kit';
import type { GuardHook } from '@skald/service-kit';
import type { ServerDirectory } from '../domain/limits.ts';
import type { WebhookStore } from '../domain/webhook-store.ts';

export const WEBHOOK_NOT_FOUND = 'Webhook not found.';

export function requireWebhookAdmin(directory: ServerDirectory, store: Pick<WebhookStore, 'serverOf'>): GuardHook {
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { id?: unknown };
    const id = typeof params.id === 'string' ? params.id : '';
    const userId = userIdFromRequest(request);
    const serverId = userId === null || id === '' ? null : await store.serverOf(id);
    const check = await checkServerRole(directory, userId, serverId, 'admin');
    if (check.ok) {
      request.serverAccess = { serverId: serverId!, role: check.role };
      return undefined;
    }
    return sendError(reply, check.statusCode, check.statusCode === 404 ? WEBHOOK_NOT_FOUND : check.error);
  });
}
