/**
 * Alert rules (docs/ALERTS.md), owner and admin of the server: GET /alerts, POST /alerts,
 * PUT /alerts/{id}, DELETE /alerts/{id}, POST /alerts/{id}/test, GET /alerts/{id}/history.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  ALERTS_NOT_IN_TIER,
  ALERT_LIMITS,
  ALERT_NOT_FOUND,
  ALERT_NO_WEBHOOKS,
  AlertHistorySchema,
  AlertListSchema,
  AlertTestResultSchema,
  ApiAlertRuleSchema,
  CreateAlertBodySchema,
  MessageAnswerSchema,
  UpdateAlertBodySchema,
  alertLimitReached,
} from '@skald/contracts';
import { HttpError, requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { alertLimitOf, alertSettingsFrom } from '../domain/alerts/alert-input.ts';
import { buildAlertPayload } from '../domain/alerts/alert-message.ts';
import { toApiRule } from '../domain/alerts/alert-store.ts';
import type { AlertStore } from '../domain/alerts/alert-store.ts';
import { sendDelivery } from '../domain/send.ts';
import type { WebhooksRouteDeps } from './deps.ts';
import { requireAlertAdmin } from './resource-access.ts';
import { ADMIN_ERRORS, ServerIdQuerySchema } from './route-schemas.ts';

export interface AlertRouteDeps extends WebhooksRouteDeps {
  readonly alerts: AlertStore;
  readonly minWindowSeconds: number;
  readonly publicUrl: string;
}

const AlertParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const HistoryQuerySchema = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ALERT_LIMITS.maxHistory })) }, { additionalProperties: false });
const RuleAnswerSchema = Type.Object({ alert: ApiAlertRuleSchema }, { additionalProperties: false });

export async function registerAlertRoutes(app: FastifyInstance, deps: AlertRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const adminOfServer = [app.authenticate, requireServerRole(deps.directory, 'admin')];
  const adminOfRule = [app.authenticate, requireAlertAdmin(deps.directory, deps.alerts)];
  const actorOf = (request: Parameters<typeof userIdFromRequest>[0]) => userIdFromRequest(request)!;
  const creating = new Map<string, Promise<unknown>>();
  const context = (serverId: string) => ({ serverId, minWindowSeconds: deps.minWindowSeconds, webhooks: deps.store });

  typed.get(
    '/alerts',
    {
      preHandler: adminOfServer,
      schema: { tags: ['alerts'], summary: "The server's alert rules with their state, the tier's limit and the count", querystring: ServerIdQuerySchema, response: { 200: AlertListSchema, ...ADMIN_ERRORS } },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const alerts = (await deps.alerts.list(serverId)).map(toApiRule);
      return { alerts, limit: await alertLimitOf(deps.directory, serverId), count: alerts.length };
    },
  );

  typed.post(
    '/alerts',
    {
      preHandler: adminOfServer,
      schema: {
        tags: ['alerts'],
        summary: 'Add an alert rule',
        description: "403 at the tier's maxAlertRules (Free has none); 400 for a window outside ALERT_MIN_WINDOW_SECONDS..86400, a threshold rule without threshold, or a webhook of another server.",
        body: CreateAlertBodySchema,
        response: { 201: RuleAnswerSchema, ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const settings = await alertSettingsFrom(request.body, context(serverId));
      // Creates on one server run one at a time in this process, so two parallel adds cannot both pass the limit.
      const previous = creating.get(serverId) ?? Promise.resolve();
      const run = previous.then(async () => {
        const limit = await alertLimitOf(deps.directory, serverId);
        if (limit <= 0) throw new HttpError(403, ALERTS_NOT_IN_TIER);
        if ((await deps.alerts.count(serverId)) >= limit) throw new HttpError(403, alertLimitReached(limit));
        return deps.alerts.create(serverId, settings, deps.now());
      });
      creating.set(serverId, run.catch(() => undefined));
      const rule = await run;
      await deps.audit.publish({ actorId: actorOf(request), serverId, action: 'alert.created', details: { alertId: rule.id, kind: rule.kind } });
      return reply.code(201).send({ alert: toApiRule(rule) });
    },
  );

  typed.put(
    '/alerts/:id',
    {
      preHandler: adminOfRule,
      schema: { tags: ['alerts'], summary: 'Change an alert rule (it starts over: state ok, window cleared)', params: AlertParamsSchema, body: UpdateAlertBodySchema, response: { 200: RuleAnswerSchema, ...ADMIN_ERRORS } },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const settings = await alertSettingsFrom(request.body, context(serverId));
      const rule = await deps.alerts.update(serverId, request.params.id, settings, deps.now());
      if (rule === null) throw new HttpError(404, ALERT_NOT_FOUND);
      await deps.audit.publish({ actorId: actorOf(request), serverId, action: 'alert.updated', details: { alertId: rule.id, kind: rule.kind } });
      return { alert: toApiRule(rule) };
    },
  );

  typed.delete(
    '/alerts/:id',
    {
      preHandler: adminOfRule,
      schema: { tags: ['alerts'], summary: 'Delete an alert rule and its history', params: AlertParamsSchema, response: { 200: MessageAnswerSchema, ...ADMIN_ERRORS } },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      if (!(await deps.alerts.remove(serverId, request.params.id))) throw new HttpError(404, ALERT_NOT_FOUND);
      await deps.audit.publish({ actorId: actorOf(request), serverId, action: 'alert.deleted', details: { alertId: request.params.id } });
      return { message: 'Alert rule deleted' };
    },
  );

  typed.get(
    '/alerts/:id/history',
    {
      preHandler: adminOfRule,
      schema: { tags: ['alerts'], summary: "The rule's transitions, newest first", params: AlertParamsSchema, querystring: HistoryQuerySchema, response: { 200: AlertHistorySchema, ...ADMIN_ERRORS } },
    },
    async (request) => {
      const events = await deps.alerts.history(request.params.id, request.query.limit ?? ALERT_LIMITS.defaultHistory);
      return { events: events.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) };
    },
  );

  typed.post(
    '/alerts/:id/test',
    {
      preHandler: adminOfRule,
      schema: {
        tags: ['alerts'],
        summary: "Send a test notification (a firing message marked as a test) to each of the rule's webhooks, now",
        params: AlertParamsSchema,
        response: { 200: AlertTestResultSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const rule = await deps.alerts.get(serverId, request.params.id);
      if (rule === null) throw new HttpError(404, ALERT_NOT_FOUND);
      if (rule.webhookIds.length === 0) throw new HttpError(400, ALERT_NO_WEBHOOKS);
      const serverName = (await deps.directory.server(serverId))?.name ?? serverId;
      const at = deps.now();
      const notice = { rule: { ...rule, name: `[Test] ${rule.name}` }, state: 'firing' as const, count: rule.kind === 'threshold' ? (rule.threshold ?? 0) : rule.windowSeconds, sample: [], at, serverName, publicUrl: deps.publicUrl };
      const results = [];
      for (const webhookId of rule.webhookIds) {
        const webhook = await deps.store.byId(webhookId);
        if (webhook === null || webhook.serverId !== serverId) {
          results.push({ webhookId, ok: false, statusCode: null, error: 'The webhook no longer exists.' });
          continue;
        }
        const deliveryId = `alert_test_${rule.id}_${at}_${webhookId}`;
        const outcome = await sendDelivery(deps.guard, webhook, deliveryId, JSON.stringify(buildAlertPayload(webhook.platform, notice, webhookId)), deps.send, deps.now);
        results.push(
          outcome.kind === 'delivered'
            ? { webhookId, ok: true, statusCode: outcome.statusCode, error: null }
            : { webhookId, ok: false, statusCode: outcome.kind === 'refused' ? null : outcome.statusCode, error: outcome.kind === 'throttled' ? `The receiver answered HTTP ${outcome.statusCode} (rate limited).` : outcome.error },
        );
      }
      await deps.audit.publish({ actorId: actorOf(request), serverId, action: 'alert.tested', details: { alertId: rule.id } });
      return { results };
    },
  );
}
