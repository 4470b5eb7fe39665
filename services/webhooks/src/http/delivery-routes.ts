/**
 * POST /webhooks/{id}/test, POST /webhooks/{id}/replay/{deadLetterId}, and clearing the dead-letter queue:
 * DELETE /webhooks/{id}/dead-letters/{deadLetterId} and DELETE /webhooks/{id}/dead-letters (owner and admin).
 * Test and replay send at once and answer how the receiver took it: 200 with its status, or 502 with the
 * reason (a status code, a timeout, a refused destination; never the URL).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DeadLettersClearedSchema, DeliveryResultSchema } from '@skald/contracts';
import { HttpError, sendError, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { replayDeadLetter, sendTest } from '../domain/manual-delivery.ts';
import type { WebhooksRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, DELIVERY_ERRORS, DeadLetterParamsSchema, WebhookParamsSchema } from './route-schemas.ts';
import { WEBHOOK_NOT_FOUND, requireWebhookAdmin } from './resource-access.ts';

export const DEAD_LETTER_NOT_FOUND = 'Dead letter not found.';
export const TEST_FAILED = 'Webhook test failed';
export const REPLAY_FAILED = 'Replay failed';

export async function registerDeliveryRoutes(app: FastifyInstance, deps: WebhooksRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const adminOfWebhook = [app.authenticate, requireWebhookAdmin(deps.directory, deps.store)];
  const manual = { store: deps.store, guard: deps.guard, settings: deps.send, now: deps.now };

  const webhookOf = async (serverId: string, id: string) => {
    const webhook = await deps.store.get(serverId, id);
    if (webhook === null) throw new HttpError(404, WEBHOOK_NOT_FOUND);
    return webhook;
  };

  typed.post(
    '/webhooks/:id/test',
    {
      preHandler: adminOfWebhook,
      schema: {
        tags: ['webhooks'],
        summary: 'Send a sample log to the webhook now; a failure is dead-lettered (replayable)',
        params: WebhookParamsSchema,
        response: { 200: DeliveryResultSchema, ...DELIVERY_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const webhook = await webhookOf(serverId, request.params.id);
      const server = await deps.directory.server(serverId);
      const result = await sendTest(manual, webhook, server?.name ?? serverId);
      await deps.audit.publish({ actorId: userIdFromRequest(request)!, serverId, action: 'webhook.tested', details: { webhookId: webhook.id, delivered: result.ok } });
      // sendError, not a thrown HttpError: the error handler masks every thrown 5xx.
      if (!result.ok) return sendError(reply, 502, TEST_FAILED, result.error);
      return { message: 'Test sent', status_code: result.statusCode };
    },
  );

  typed.post(
    '/webhooks/:id/replay/:deadLetterId',
    {
      preHandler: adminOfWebhook,
      schema: {
        tags: ['webhooks'],
        summary: "Send a dead letter's payload again (same delivery id); success removes it",
        params: DeadLetterParamsSchema,
        response: { 200: DeliveryResultSchema, ...DELIVERY_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const webhook = await webhookOf(serverId, request.params.id);
      const deadLetter = await deps.store.deadLetter(serverId, webhook.id, request.params.deadLetterId);
      if (deadLetter === null) throw new HttpError(404, DEAD_LETTER_NOT_FOUND);
      const result = await replayDeadLetter(manual, webhook, deadLetter);
      await deps.audit.publish({ actorId: userIdFromRequest(request)!, serverId, action: 'webhook.replayed', details: { webhookId: webhook.id, deadLetterId: deadLetter.id, delivered: result.ok } });
      if (!result.ok) return sendError(reply, 502, REPLAY_FAILED, result.error);
      return { message: 'Replay sent', status_code: result.statusCode };
    },
  );

  typed.delete(
    '/webhooks/:id/dead-letters/:deadLetterId',
    {
      preHandler: adminOfWebhook,
      schema: {
        tags: ['webhooks'],
        summary: 'Remove one dead letter without sending it',
        params: DeadLetterParamsSchema,
        response: { 200: DeadLettersClearedSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const webhook = await webhookOf(serverId, request.params.id);
      if (!(await deps.store.removeDeadLetter(serverId, webhook.id, request.params.deadLetterId))) throw new HttpError(404, DEAD_LETTER_NOT_FOUND);
      await deps.audit.publish({ actorId: userIdFromRequest(request)!, serverId, action: 'webhook.dead-letters-cleared', details: { webhookId: webhook.id, removed: 1 } });
      return { message: 'Dead letter removed', removed: 1 };
    },
  );

  typed.delete(
    '/webhooks/:id/dead-letters',
    {
      preHandler: adminOfWebhook,
      schema: {
        tags: ['webhooks'],
        summary: "Empty the webhook's dead-letter queue without sending",
        params: WebhookParamsSchema,
        response: { 200: DeadLettersClearedSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const webhook = await webhookOf(serverId, request.params.id);
      const removed = await deps.store.clearDeadLetters(serverId, webhook.id);
      await deps.audit.publish({ actorId: userIdFromRequest(request)!, serverId, action: 'webhook.dead-letters-cleared', details: { webhookId: webhook.id, removed } });
      return { message: 'Dead letters removed', removed };
    },
  );
}
