/**
 * Evaluation of alert rules (docs/ALERTS.md), in two halves that share the durable state of alert-store.ts:
 *  - onBatches: the accepted-logs stream (its own consumer group, so a log counts when it is accepted,
 *    whatever the log store's indexing does). Matching logs add to the rule's window; a threshold rule
 *    fires the moment its window holds `threshold` logs; an absence rule's clock moves forward, and a
 *    firing absence rule resolves on the first matching log.
 *  - tick: what needs time to pass without logs, run by a repeatable job of the job queue (one run per
 *    period across replicas, durable across restarts): a firing threshold rule resolves once its window
 *    holds fewer than `threshold`; an absence rule fires once `windowSeconds` passed since its last
 *    matching log (lastMatchAt is stored, so a restart does not reset the clock).
 * Transitions are edge-triggered (the store's conditional updates): one message per transition, none while
 * firing, and no firing within `cooldownSeconds` of the last resolve. Rules are served like webhooks: the
 * oldest maxAlertRules of the server's tier, none while the server is suspended.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ALERT_LIMITS, tierOf } from '@skald/contracts';
import type { AcceptedLog, AlertFilter, LogsBatchAccepted } from '@skald/contracts';
import type { JobQueue } from '@skald/ports';
import { enqueueDelivery } from '../delivery.ts';
import type { ServerDirectory } from '../limits.ts';
import type { WebhookLog } from '../platforms/index.ts';
import type { WebhookStore } from '../webhook-store.ts';
import { compileAlertFilter, prepareLog } from './alert-filter.ts';
import { alertDeliveryId, buildAlertPayload } from './alert-message.ts';
import type { AlertNotice } from './alert-message.ts';
import { bucketMsOf } from './alert-store.ts';
import type { AlertRule, AlertStore } from './alert-store.ts';

export interface AlertEvaluatorDeps {
  readonly alerts: AlertStore;
  readonly webhooks: Pick<WebhookStore, 'byId'>;
  readonly directory: Pick<ServerDirectory, 'server'>;
  readonly jobs: JobQueue;
  readonly publicUrl: string;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
}

export interface AlertEvaluator {
  onBatches(batches: readonly LogsBatchAccepted[]): Promise<void>;
  tick(): Promise<void>;
}

/** The absence clock is written at most once a second per rule: a busy server does not rewrite it per batch. */
const TOUCH_EVERY_MS = 1_000;

function toWebhookLog(log: AcceptedLog): WebhookLog {
  return { id: log.id, createdAt: log.createdAt, level: log.level, type: log.type, resource: log.resource, message: log.message, metadata: log.metadata, logType: log.logType };
}

/** Compiled filters by their text: a rule's filter is compiled once, not once per read. */
const compiled = new Map<string, ReturnType<typeof compileAlertFilter>>();
const MAX_COMPILED = 10_000;
function compiledFilter(filter: AlertFilter): ReturnType<typeof compileAlertFilter> {
  const key = JSON.stringify(filter);
  let test = compiled.get(key);
  if (test === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    test = compileAlertFilter(filter);
    compiled.set(key, test);
  }
  return test;
}

const cooledDown = (rule: AlertRule, at: number) => rule.lastResolvedAt === null || at - rule.lastResolvedAt >= rule.cooldownSeconds * 1000;

export function createAlertEvaluator(deps: AlertEvaluatorDeps): AlertEvaluator {
  /** The rules a server's logs are evaluated against: enabled, within the tier's limit, none while suspended. */
  async function servedRules(serverId: string, rules?: readonly AlertRule[]): Promise<AlertRule[]> {
    const server = await deps.directory.server(serverId);
    if (server === null || server.suspended) return [];
    const limit = tierOf(server.tier).maxAlertRules;
    if (limit <= 0) return [];
    const all = rules ?? (await deps.alerts.list(serverId));
    return all.slice(0, limit).filter((rule) => rule.enabled);
  }

  async function notify(rule: AlertRule, state: 'firing' | 'resolved', count: number, sample: readonly WebhookLog[], at: number): Promise<void> {
    const kept = sample.slice(-ALERT_LIMITS.sampleSize);
    await deps.alerts.addEvent(rule.id, {
      at,
      state,
      count,
      sample: kept.map((log) => ({ id: log.id, createdAt: new Date(log.createdAt).toISOString(), level: log.level, type: log.type, resource: log.resource, message: log.message })),
    });
    const serverName = (await deps.directory.server(rule.serverId))?.name ?? rule.serverId;
    const notice: AlertNotice = { rule, state, count, sample: kept, at, serverName, publicUrl: deps.publicUrl };
    for (const webhookId of rule.webhookIds) {
      const webhook = await deps.webhooks.byId(webhookId);
      // A webhook deleted since (or of another server) is skipped; the others still hear of it.
      if (webhook === null || webhook.serverId !== rule.serverId) continue;
      const deliveryId = alertDeliveryId(notice, webhookId);
      const payload = JSON.stringify(buildAlertPayload(webhook.platform, notice, webhookId));
      await enqueueDelivery(deps.jobs, { deliveryId, webhookId, payload, attempt: 1, throttles: 0, acceptedAt: at, logCount: kept.length });
    }
    deps.log.info({ ruleId: rule.id, serverId: rule.serverId, state, count }, `alerts: rule ${state}`);
  }

  async function fire(rule: AlertRule, count: number, sample: readonly WebhookLog[], at: number): Promise<void> {
    if (!cooledDown(rule, at)) return;
    const fired = await deps.alerts.fire(rule, at);
    if (fired !== null) await notify(fired, 'firing', count, sample, at);
  }

  async function resolve(rule: AlertRule, count: number, sample: readonly WebhookLog[], at: number, lastMatchAt?: number): Promise<boolean> {
    const resolved = await deps.alerts.resolve(rule, at, lastMatchAt);
    if (resolved === null) return false;
    await notify(resolved, 'resolved', count, sample, at);
    return true;
  }

  async function onMatches(rule: AlertRule, matched: readonly WebhookLog[], at: number): Promise<void> {
    if (rule.kind === 'threshold') {
      const count = await deps.alerts.addAndCount(rule, at, matched.length);
      if (rule.state === 'ok' && count >= (rule.threshold ?? Number.POSITIVE_INFINITY)) await fire(rule, count, matched, at);
      return;
    }
    const silence = Math.max(0, Math.floor((at - rule.lastMatchAt) / 1000));
    if (rule.state === 'firing' && (await resolve(rule, silence, matched, at, at))) return;
    if (at - rule.lastMatchAt >= TOUCH_EVERY_MS) await deps.alerts.touch(rule.id, at);
  }

  return {
    async onBatches(batches) {
      // The batches of one read of the bus are evaluated together, per server: one read of its rules, and
      // per rule one window update for all its matching logs (a consumer that is behind catches up with
      // fewer writes). Their state is re-checked by every transition.
      const at = deps.now();
      const byServer = new Map<string, AcceptedLog[]>();
      for (const batch of batches) {
        const logs = byServer.get(batch.serverId);
        if (logs === undefined) byServer.set(batch.serverId, [...batch.logs]);
        else for (const log of batch.logs) logs.push(log);
      }
      for (const [serverId, accepted] of byServer) {
        const served = await servedRules(serverId);
        if (served.length === 0) continue;
        const logs = accepted.map(toWebhookLog);
        const prepared = logs.map(prepareLog);
        for (const rule of served) {
          const matches = compiledFilter(rule.filter);
          const matched = logs.filter((_, i) => matches(prepared[i]!));
          if (matched.length > 0) await onMatches(rule, matched, at);
        }
      }
    },

    async tick() {
      const at = deps.now();
      const byServer = new Map<string, AlertRule[]>();
      for (const rule of await deps.alerts.enabled()) byServer.set(rule.serverId, [...(byServer.get(rule.serverId) ?? []), rule]);
      for (const [serverId, enabled] of byServer) {
        const ordered = [...enabled].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
        for (const rule of await servedRules(serverId, await servedOrder(deps.alerts, serverId, ordered))) {
          try {
            await tickRule(rule, at);
          } catch (error) {
            deps.log.error({ err: error, ruleId: rule.id }, 'alerts: evaluation of a rule failed');
          }
        }
      }
    },
  };

  async function tickRule(rule: AlertRule, at: number): Promise<void> {
    if (rule.kind === 'threshold') {
      const count = await deps.alerts.countWindow(rule, at);
      const threshold = rule.threshold ?? Number.POSITIVE_INFINITY;
      if (rule.state === 'firing' && count < threshold) await resolve(rule, count, [], at);
      else if (rule.state === 'ok' && count >= threshold) await fire(rule, count, [], at);
      await deps.alerts.prune(rule.id, at - rule.windowSeconds * 1000 - bucketMsOf(rule.windowSeconds));
      return;
    }
    const silenceMs = at - rule.lastMatchAt;
    if (rule.state === 'ok' && silenceMs >= rule.windowSeconds * 1000) await fire(rule, Math.floor(silenceMs / 1000), [], at);
  }
}

/**
 * The tier's limit counts a server's rules oldest first, disabled ones included (as the list shows them):
 * the tick reads only enabled rules, so it asks for the whole list when the server has disabled ones.
 */
async function servedOrder(alerts: AlertStore, serverId: string, enabled: readonly AlertRule[]): Promise<readonly AlertRule[]> {
  const count = await alerts.count(serverId);
  return count === enabled.length ? enabled : alerts.list(serverId);
}
