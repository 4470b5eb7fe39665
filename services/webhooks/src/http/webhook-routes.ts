/** GET /webhooks, GET /webhooks/options, POST /webhooks, PUT /webhooks/{id}, DELETE /webhooks/{id} (owner and admin). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CreateWebhookBodySchema, LOG_LEVELS, MessageAnswerSchema, SavedWebhookSchema, UpdateWebhookBodySchema, WebhookListSchema, WebhookOptionsSchema } from '@skald/contracts';
import { HttpError, requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { assertRoomForOneMore, webhookLimitOf } from '../domain/limits.ts';
import { generateSigningSecret } from '../domain/signing.ts';
import { assertDestinationAllowed, settingsFromBody } from '../domain/webhook-input.ts';
import type { WebhooksRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, ServerIdQuerySchema, WebhookParamsSchema } from './route-schemas.ts';
import { WEBHOOK_NOT_FOUND, requireWebhookAdmin } from './resource-access.ts';

/** Creates on one server run one at a time in this process, so two parallel adds cannot both pass the limit. */
function serialisePerServer() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(serverId: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(serverId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(serverId, tail);
    try {
      return await run;
    } finally {
      if (tails.get(serverId) === tail) tails.delete(serverId);
    }
  };
}

export async function registerWebhookRoutes(app: FastifyInstance, deps: WebhooksRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const adminOfServer = [app.authenticate, requireServerRole(deps.directory, 'admin')];
  const adminOfWebhook = [app.authenticate, requireWebhookAdmin(deps.directory, deps.store)];
  const oneAtATime = serialisePerServer();
  const actorOf = (request: Parameters<typeof userIdFromRequest>[0]) => userIdFromRequest(request)!;

  typed.get(
    '/webhooks',
    {
      preHandler: adminOfServer,
      schema: {
        tags: ['webhooks'],
        summary: "The server's webhooks with their delivery state and dead letters, the tier's limit and the count",
        querystring: ServerIdQuerySchema,
        response: { 200: WebhookListSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      // The list holds webhook URLs, which are credentials: no cache keeps it.
      reply.header('cache-control', 'no-store');
      const webhooks = await deps.store.views(serverId);
      return { webhooks, limit: await webhookLimitOf(deps.directory, serverId), count: webhooks.length };
    },
  );

  typed.get(
    '/webhooks/options',
    {
      preHandler: adminOfServer,
      schema: {
        tags: ['webhooks'],
        summary: "Filter choices: the log types and resources seen in the server's logs, and the five levels",
        querystring: ServerIdQuerySchema,
        response: { 200: WebhookOptionsSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const seen = await deps.seen.of(serverAccessOf(request).serverId);
      return { eventTypes: seen.types, logLevels: [...LOG_LEVELS], resources: seen.resources };
    },
  );

  typed.post(
    '/webhooks',
    {
      preHandler: adminOfServer,
      schema: {
        tags: ['webhooks'],
        summary: 'Add a webhook (a generic one answers its signing secret, once)',
        description: "403 at the tier's maxWebhooks (a tier of 0 refuses all); 400 for a URL that is not http(s), holds credentials, or resolves to a private, loopback or link-local address.",
        body: CreateWebhookBodySchema,
        response: { 201: SavedWebhookSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const settings = settingsFromBody(request.body);
      await assertDestinationAllowed(deps.guard, settings.url);
      const secret = settings.platform === 'generic' ? generateSigningSecret() : null;
      const created = await oneAtATime(serverId, async () => {
        assertRoomForOneMore(await webhookLimitOf(deps.directory, serverId), await deps.store.count(serverId));
        return deps.store.create(serverId, settings, secret, deps.now());
      });
      await deps.audit.publish({ actorId: actorOf(request), serverId, action: 'webhook.created', details: { webhookId: created.id, platform: created.platform } });
      const webhook = (await deps.store.view(serverId, created.id))!;
      return reply.code(201).send({ webhook, secret });
    },
  );

  typed.put(
    '/webhooks/:id',
    {
      preHandler: adminOfWebhook,
      schema: {
        tags: ['webhooks'],
        summary: 'Change a webhook (re-enables one a 410 disabled); switching to generic answers a new signing secret, once',
        params: WebhookParamsSchema,
        body: UpdateWebhookBodySchema,
        response: { 200: SavedWebhookSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const current = await deps.store.get(serverId, request.params.id);
      if (current === null) throw new HttpError(404, WEBHOOK_NOT_FOUND);
      const settings = settingsFromBody(request.body);
      await assertDestinationAllowed(deps.guard, settings.url);
      // A generic webhook keeps its secret; one that becomes generic gets its first (shown in this answer only).
      const newSecret = settings.platform === 'generic' && current.secret === null ? generateSigningSecret() : null;
      const secret = settings.platform === 'generic' ? (current.secret ?? newSecret) : null;
      const updated = await deps.store.update(serverId, current.id, settings, secret, deps.now());
      if (updated === null) throw new HttpError(404, WEBHOOK_NOT_FOUND);
      await deps.audit.publish({ actorId: actorOf(request), serverId, action: 'webhook.updated', details: { webhookId: updated.id, platform: updated.platform } });
      return { webhook: (await deps.store.view(serverId, updated.id))!, secret: newSecret };
    },
  );

  typed.delete(
    '/webhooks/:id',
    {
      preHandler: adminOfWebhook,
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook and its dead letters (pending retries end without sending)',
        params: WebhookParamsSchema,
        response: { 200: MessageAnswerSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      if (!(await deps.store.remove(serverId, request.params.id))) throw new HttpError(404, WEBHOOK_NOT_FOUND);
      await deps.audit.publish({ actorId: actorOf(request), serverId, action: 'webhook.deleted', details: { webhookId: request.params.id } });
      return { message: 'Webhook deleted' };
    },
  );
}
