/**
 * Evaluation of alert rules (docs/ALERTS.md), in two halves that share the durable state of alert-store.ts:
 *  - onBatches: the accepted-logs stream (its own consumer group, so a log counts when it is accepted,
 *    whatever the log store's indexing does). A batch counts once: its key (first log id) is remembered,
 *    here and in the store with the counts, so one the bus hands out again is skipped. Counts go to the
 *    rule's window in memory at once and to the store at most once a second per server (flush; before a
 *    firing, at every tick and on stop), so a busy server costs one write a second, not one per batch.
 *    A threshold rule fires the moment its window holds `threshold` logs; an absence rule's clock moves
 *    forward, and a firing absence rule resolves on the first matching log.
 *  - tick: what needs time to pass without logs, run by a repeatable job of the job queue (one run per
 *    period across replicas, durable across restarts): it queues notifications a crash left in an outbox,
 *    folds the recorded batches into the rules' buckets, resolves a firing threshold rule once its window
 *    holds fewer than `threshold` (and fires one whose window, summed over every replica, holds enough), and
 *    fires an absence rule once `windowSeconds` passed since its last matching log (lastMatchAt is stored,
 *    so a restart does not reset the clock).
 * Between bus reads a server's rules stay in memory (alert-server-cache.ts): this replica's writes reload
 * them at once, another replica's within a second (its version read at most once a second per server).
 * Transitions are edge-triggered (the store's conditional updates): one message per transition, none while
 * firing, and no firing within `cooldownSeconds` of the last resolve. Rules are served like webhooks: the
 * oldest maxAlertRules of the server's tier, none while the server is suspended.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ALERT_LIMITS, tierOf } from '@skald/contracts';
import type { AcceptedLog, LogsBatchAccepted } from '@skald/contracts';
import type { JobQueue } from '@skald/ports';
import { enqueueDelivery } from '../delivery.ts';
import type { ServerDirectory } from '../limits.ts';
import type { WebhookLog } from '../platforms/index.ts';
import type { WebhookStore } from '../webhook-store.ts';
import { alertDeliveryId, buildAlertPayload } from './alert-message.ts';
import type { AlertNotice } from './alert-message.ts';
import type { FilterMatches } from './alert-matcher.ts';
import { SeenKeys } from './alert-seen-keys.ts';
import { createServerCache, servedOf } from './alert-server-cache.ts';
import { SEEN_HORIZON_MS, bucketMsOf, bucketStartOf } from './alert-store.ts';
import type { AlertRule, AlertStore, PendingNotice } from './alert-store.ts';

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
  /** `redelivered`: some of the batches were handed out before (the counted keys are read from the store first). */
  onBatches(batches: readonly LogsBatchAccepted[], options?: { readonly redelivered?: boolean }): Promise<void>;
  tick(): Promise<void>;
  /** Writes the counts kept in memory (the service's timer and stop). */
  flush(): Promise<void>;
}

export interface AlertEvaluatorOptions {
  /** Counts are written at most this often per server (wall time); 0 writes after every bus read. Default 1000. */
  readonly flushMs?: number;
  /** Wall clock of the flushes; default performance.now. */
  readonly wallMs?: () => number;
}

/** The absence clock is written at most once a second per rule: a busy server does not rewrite it per batch. */
const TOUCH_EVERY_MS = 1_000;
/** Batch keys remembered in memory at most (the store keeps them for SEEN_HORIZON_MS). */
const MAX_SEEN = 200_000;

/** What one server's batches added since the last flush. */
interface Pending {
  /** Rule id -> matching logs per bucket start (a few buckets a second: arrays, the newest last). */
  readonly counts: Map<string, { readonly starts: number[]; readonly counts: number[] }>;
  readonly keys: string[];
  lastFlush: number;
}

/** The logs kept for an absence rule that is ok: none (its clock moves, no message is made). */
const NO_LOGS: readonly AcceptedLog[] = [];
const NO_RULES: ReadonlyMap<AlertRule, readonly AcceptedLog[]> = new Map();

/** Adds a filter's last matching logs of a batch (`logs`, the array matched) to those a rule kept of this read. */
function keepSample(into: Map<AlertRule, readonly AcceptedLog[]>, rule: AlertRule, found: FilterMatches<AlertRule, AcceptedLog>, logs: readonly AcceptedLog[]): void {
  const earlier = into.get(rule);
  into.set(rule, earlier === undefined ? found.sample(logs) : [...earlier, ...found.sample(logs)].slice(-ALERT_LIMITS.sampleSize));
}

function toWebhookLog(log: AcceptedLog): WebhookLog {
  return { id: log.id, createdAt: log.createdAt, level: log.level, type: log.type, resource: log.resource, message: log.message, metadata: log.metadata, logType: log.logType };
}

const cooledDown = (rule: AlertRule, at: number) => rule.lastResolvedAt === null || at - rule.lastResolvedAt >= rule.cooldownSeconds * 1000;

export function createAlertEvaluator(deps: AlertEvaluatorDeps, options: AlertEvaluatorOptions = {}): AlertEvaluator {
  const flushMs = options.flushMs ?? 1_000;
  const wallMs = options.wallMs ?? (() => performance.now());
  const cache = createServerCache({ alerts: deps.alerts, directory: deps.directory, wallMs });
  const pending = new Map<string, Pending>();
  const seen = new SeenKeys(MAX_SEEN);
  /** Servers whose counted keys were read from the store by this process. */
  const seeded = new Set<string>();

  /** The keys every replica counted lately, so that a batch handed out again is not counted again. */
  async function seed(serverId: string, at: number): Promise<void> {
    seeded.add(serverId);
    const keys = seen.of(serverId);
    for (const key of await deps.alerts.countedKeys(serverId, at - SEEN_HORIZON_MS)) seen.remember(serverId, keys, key);
  }

  /** Writes a server's counts kept in memory (taken first, so a batch evaluated meanwhile starts a new set). */
  async function flushServer(serverId: string, at: number): Promise<void> {
    const current = pending.get(serverId);
    if (current === undefined || current.keys.length === 0) return;
    pending.set(serverId, { counts: new Map(), keys: [], lastFlush: wallMs() });
    const counts: Record<string, Record<string, number>> = {};
    for (const [ruleId, buckets] of current.counts) counts[ruleId] = Object.fromEntries(buckets.starts.map((start, i) => [String(start), buckets.counts[i]!]));
    try {
      await deps.alerts.addDelta(serverId, at, counts, current.keys);
    } catch (error) {
      // Kept for the next flush: added back to what was counted meanwhile.
      const next = pending.get(serverId)!;
      for (const [ruleId, buckets] of current.counts) buckets.starts.forEach((start, i) => addCount(next, ruleId, start, buckets.counts[i]!));
      next.keys.push(...current.keys);
      throw error;
    }
  }

  function addCount(into: Pending, ruleId: string, start: number, n: number): void {
    const buckets = into.counts.get(ruleId);
    if (buckets === undefined) {
      into.counts.set(ruleId, { starts: [start], counts: [n] });
      return;
    }
    // Batches arrive in time order: almost always the newest bucket.
    const last = buckets.starts.length - 1;
    const at = buckets.starts[last] === start ? last : buckets.starts.indexOf(start);
    if (at >= 0) buckets.counts[at]! += n;
    else {
      buckets.starts.push(start);
      buckets.counts.push(n);
    }
  }

  async function servedRules(serverId: string, rules: readonly AlertRule[]): Promise<AlertRule[]> {
    const server = await deps.directory.server(serverId);
    if (server === null || server.suspended) return [];
    return servedOf(rules, tierOf(server.tier).maxAlertRules);
  }

  /** Queues the notification in the rule's outbox (history, one message per webhook), then empties it. */
  async function deliver(rule: AlertRule): Promise<void> {
    const pending = rule.outbox;
    if (pending === null) return;
    const sample = pending.sample;
    await deps.alerts.addEvent(rule.id, `${rule.fires}.${pending.state}`, {
      at: pending.at,
      state: pending.state,
      count: pending.count,
      sample: sample.map((log) => ({ id: log.id, createdAt: new Date(log.createdAt).toISOString(), level: log.level, type: log.type, resource: log.resource, message: log.message })),
    });
    const serverName = (await deps.directory.server(rule.serverId))?.name ?? rule.serverId;
    const notice: AlertNotice = { rule, state: pending.state, count: pending.count, sample, at: pending.at, serverName, publicUrl: deps.publicUrl };
    for (const webhookId of rule.webhookIds) {
      const webhook = await deps.webhooks.byId(webhookId);
      // A webhook deleted since (or of another server) is skipped; the others still hear of it.
      if (webhook === null || webhook.serverId !== rule.serverId) continue;
      const deliveryId = alertDeliveryId(notice, webhookId);
      const payload = JSON.stringify(buildAlertPayload(webhook.platform, notice, webhookId));
      // Deterministic job ids: queueing again after a crash before clearOutbox does not send twice.
      await enqueueDelivery(deps.jobs, { deliveryId, webhookId, payload, attempt: 1, throttles: 0, acceptedAt: pending.at, logCount: sample.length });
    }
    await deps.alerts.clearOutbox(rule);
    deps.log.info({ ruleId: rule.id, serverId: rule.serverId, state: pending.state, count: pending.count }, `alerts: rule ${pending.state}`);
  }

  const noticeOf = (state: PendingNotice['state'], count: number, sample: readonly WebhookLog[], at: number): PendingNotice => ({ state, at, count, sample: sample.slice(-ALERT_LIMITS.sampleSize) });

  async function fire(rule: AlertRule, count: number, sample: readonly WebhookLog[], at: number): Promise<void> {
    if (!cooledDown(rule, at)) return;
    // The counts behind a firing are stored first: the tick, deciding from the store, must not see less.
    await flushServer(rule.serverId, at);
    const fired = await deps.alerts.fire(rule, noticeOf('firing', count, sample, at));
    // Lost to another replica (or the rule changed there): this replica's copy of the rules is behind.
    if (fired === null) cache.invalidate(rule.serverId);
    else await deliver(fired);
  }

  async function resolve(rule: AlertRule, count: number, sample: readonly WebhookLog[], at: number, lastMatchAt?: number): Promise<void> {
    const resolved = await deps.alerts.resolve(rule, noticeOf('resolved', count, sample, at), lastMatchAt);
    if (resolved === null) cache.invalidate(rule.serverId);
    else await deliver(resolved);
  }

  async function evaluateServer(serverId: string, batches: readonly LogsBatchAccepted[], at: number, redelivered: boolean): Promise<void> {
    const state = await cache.get(serverId, at);
    if (state === null) return;
    if (redelivered || !seeded.has(serverId)) await seed(serverId, at);
    let buffer = pending.get(serverId);
    if (buffer === undefined) pending.set(serverId, (buffer = { counts: new Map(), keys: [], lastFlush: wallMs() }));
    const keys = seen.of(serverId);
    // Per rule that may take a transition in this read, its last matching logs, as accepted: turned into a
    // message's logs only by the transition. Absence rules that are ok only move their clock: no logs kept.
    // Made when a batch first needs them (most reads of a busy server need `absent` only).
    let counted: Map<AlertRule, readonly AcceptedLog[]> | null = null;
    let absent: Map<AlertRule, readonly AcceptedLog[]> | null = null;
    // Logs of the read after the current batch: a threshold rule whose window plus all of them stays below
    // its threshold cannot fire in this read, so its logs are not kept.
    let logsLeft = 0;
    for (const batch of batches) logsLeft += batch.logs.length;
    // No await in this loop: the flush timer swaps the buffer between reads, never in the middle of one.
    for (const batch of batches) {
      logsLeft -= batch.logs.length;
      const logs = batch.logs;
      const matches = state.matcher.match(logs);
      if (matches.length === 0) continue;
      // A batch handed out again (at least once delivery) does not count again; it still stops a silence.
      // It is looked up only when a threshold rule matched (absence rules alone do not count).
      const id = logs[0]!.id;
      let fresh: boolean | null = null;
      let thresholds = 0;
      for (const found of matches) {
        for (const rule of found.rules) {
          if (rule.kind === 'absence') {
            absent ??= new Map();
            if (rule.state === 'firing') keepSample(absent, rule, found, logs);
            else if (!absent.has(rule)) absent.set(rule, NO_LOGS);
            continue;
          }
          fresh ??= !keys.has(id);
          if (!fresh) continue;
          thresholds += 1;
          const window = state.windows.get(rule.id);
          window?.add(at, found.count);
          addCount(buffer, rule.id, bucketStartOf(rule.windowSeconds, at), found.count);
          if (rule.state === 'ok' && cooledDown(rule, at) && (window?.count(at) ?? 0) + logsLeft >= (rule.threshold ?? Number.POSITIVE_INFINITY)) keepSample((counted ??= new Map()), rule, found, logs);
        }
      }
      if (fresh === true && thresholds > 0) {
        seen.rememberNew(serverId, keys, id);
        buffer.keys.push(id);
      }
    }
    for (const [rule, sample] of counted ?? NO_RULES) {
      if (rule.state !== 'ok' || !cooledDown(rule, at)) continue;
      const count = state.windows.get(rule.id)?.count(at) ?? 0;
      if (count >= (rule.threshold ?? Number.POSITIVE_INFINITY)) await fire(rule, count, sample.map(toWebhookLog), at);
    }
    let touch: string[] | null = null;
    for (const [rule, sample] of absent ?? NO_RULES) {
      if (rule.state === 'firing') {
        await resolve(rule, Math.max(0, Math.floor((at - rule.lastMatchAt) / 1000)), sample.map(toWebhookLog), at, at);
        continue;
      }
      if (at - (state.touched.get(rule.id) ?? rule.lastMatchAt) >= TOUCH_EVERY_MS) {
        (touch ??= []).push(rule.id);
        state.touched.set(rule.id, at);
      }
    }
    if (touch !== null) await deps.alerts.touch(touch, at);
    if (flushMs === 0 || wallMs() - buffer.lastFlush >= flushMs) await flushServer(serverId, at);
  }

  return {
    async onBatches(batches, options = {}) {
      // The batches of one read of the bus are evaluated together, per server, against the rules kept in
      // memory; their state is re-checked by every transition.
      const at = deps.now();
      const byServer = new Map<string, LogsBatchAccepted[]>();
      for (const batch of batches) {
        const list = byServer.get(batch.serverId);
        if (list === undefined) byServer.set(batch.serverId, [batch]);
        else list.push(batch);
      }
      for (const [serverId, list] of byServer) await evaluateServer(serverId, list, at, options.redelivered === true);
    },

    async flush() {
      const at = deps.now();
      for (const serverId of [...pending.keys()]) await flushServer(serverId, at);
    },

    async tick() {
      const at = deps.now();
      // This replica's counts first: the windows below are read from the store.
      for (const serverId of [...pending.keys()]) {
        try {
          await flushServer(serverId, at);
        } catch (error) {
          deps.log.error({ err: error, serverId }, 'alerts: writing counts failed');
        }
      }
      // Notifications a crash left between a transition and its queueing.
      for (const rule of await deps.alerts.withOutbox()) {
        try {
          await deliver(rule);
        } catch (error) {
          deps.log.error({ err: error, ruleId: rule.id }, 'alerts: queueing a notification failed');
        }
      }
      await deps.alerts.dropDeltasBefore(at - SEEN_HORIZON_MS);
      const byServer = new Map<string, AlertRule[]>();
      for (const rule of await deps.alerts.enabled()) byServer.set(rule.serverId, [...(byServer.get(rule.serverId) ?? []), rule]);
      for (const [serverId, enabled] of byServer) {
        try {
          const ordered = [...enabled].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
          const served = await servedRules(serverId, await servedOrder(deps.alerts, serverId, ordered));
          await deps.alerts.fold(serverId, served);
          const windows = await deps.alerts.windows(serverId, served, at);
          for (const rule of served) {
            try {
              await tickRule(rule, at, windowCount(windows.get(rule.id), rule, at));
            } catch (error) {
              deps.log.error({ err: error, ruleId: rule.id }, 'alerts: evaluation of a rule failed');
            }
          }
        } catch (error) {
          deps.log.error({ err: error, serverId }, 'alerts: evaluation of a server failed');
        }
      }
    },
  };

  async function tickRule(rule: AlertRule, at: number, count: number): Promise<void> {
    if (rule.kind === 'threshold') {
      const threshold = rule.threshold ?? Number.POSITIVE_INFINITY;
      if (rule.state === 'firing' && count < threshold) await resolve(rule, count, [], at);
      else if (rule.state === 'ok' && count >= threshold) await fire(rule, count, [], at);
      await deps.alerts.prune(rule.id, at - rule.windowSeconds * 1000 - bucketMsOf(rule.windowSeconds));
      return;
    }
    const silenceMs = at - rule.lastMatchAt;
    if (rule.state === 'ok' && silenceMs >= rule.windowSeconds * 1000) await fire(rule, Math.floor(silenceMs / 1000), [], at);
    // A matching log after the firing that only moved the clock: the replica that took it still had the rule
    // as ok in memory (another replica fired it within the last REFRESH_MS). The silence: the firing's (from
    // the history; the window when it is missing) plus the time from the firing to that log.
    else if (rule.state === 'firing' && rule.lastFiredAt !== null && rule.lastMatchAt > rule.lastFiredAt) {
      const firing = (await deps.alerts.history(rule.id, 1))[0];
      const silenceAtFiring = firing?.state === 'firing' ? firing.count : rule.windowSeconds;
      await resolve(rule, silenceAtFiring + Math.floor((rule.lastMatchAt - rule.lastFiredAt) / 1000), [], at);
    }
  }
}

/** The matching logs of a rule's window ending at `at`, from its stored buckets. */
function windowCount(buckets: ReadonlyMap<number, number> | undefined, rule: AlertRule, at: number): number {
  let sum = 0;
  const after = at - rule.windowSeconds * 1000;
  for (const [start, count] of buckets ?? []) if (start > after) sum += count;
  return sum;
}

/**
 * The tier's limit counts a server's rules oldest first, disabled ones included (as the list shows them):
 * the tick reads only enabled rules, so it asks for the whole list when the server has disabled ones.
 */
async function servedOrder(alerts: AlertStore, serverId: string, enabled: readonly AlertRule[]): Promise<readonly AlertRule[]> {
  const count = await alerts.count(serverId);
  return count === enabled.length ? enabled : alerts.list(serverId);
}
