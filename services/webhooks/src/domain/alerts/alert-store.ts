/**
 * Alert rules and their durable evaluation state, in the service's DocumentStore (SQLite all-in-one,
 * MongoDB distributed), shared by every replica (docs/ALERTS.md):
 *  - alert_rules: the rule, its state (ok | firing), lastFiredAt / lastResolvedAt, lastMatchAt (the
 *    absence clock), `fires` (how many times it fired: names each firing's notifications) and `outbox`:
 *    the notification of its last transition, kept until it is queued;
 *  - alert_versions: per server, a counter that every write evaluation depends on moves (a rule created,
 *    edited or deleted, a transition), so each replica keeps a server's rules in memory and reads them
 *    again only when it moved;
 *  - alert_deltas: what one replica counted since its last write (at most about a second): per threshold
 *    rule and bucket of time the matching logs, and the keys (first log ids) of the batches counted, kept
 *    for SEEN_HORIZON_MS so that a batch the bus hands out again, to any replica, is known and not counted
 *    twice;
 *  - alert_buckets: the deltas folded per rule and bucket of time by the tick (the deltas marked folded and
 *    the buckets incremented all or none), so a window is read from a few hundred documents at most;
 *  - alert_events: the history of transitions, under ids a repeated write cannot double.
 * A transition is a conditional update on the state (ok -> firing, firing -> ok) that also writes the
 * notification into the outbox and moves the server's version, all or none: when two replicas, or a batch
 * and the tick, decide the same transition at once, exactly one applies and only that one notifies; a
 * crash before the notification is queued leaves it in the outbox, and the next tick queues it.
 */
import { randomUUID } from 'node:crypto';
import type { AlertFilter, AlertKind, AlertState, ApiAlertRule, AlertEvent } from '@skald/contracts';
import { DuplicateKeyError } from '@skald/ports';
import type { Collection, DocumentStore, GuardedUpdate } from '@skald/ports';
import type { WebhookLog } from '../platforms/index.ts';

export interface AlertSettings {
  readonly name: string;
  readonly kind: AlertKind;
  readonly filter: AlertFilter;
  readonly threshold: number | null;
  readonly windowSeconds: number;
  readonly webhookIds: readonly string[];
  readonly cooldownSeconds: number;
  readonly enabled: boolean;
}

/** A transition's notification waiting in the rule's outbox until its messages are queued. */
export interface PendingNotice {
  readonly state: 'firing' | 'resolved';
  readonly at: number;
  readonly count: number;
  readonly sample: readonly WebhookLog[];
}

/** What a rule answers and its stored document hold alike: its settings, its server and its evaluation so far. */
export interface AlertRuleBase extends AlertSettings {
  readonly serverId: string;
  readonly state: AlertState;
  readonly lastFiredAt: number | null;
  readonly lastResolvedAt: number | null;
  /** Epoch ms of the last matching log (or of the rule's start): the absence clock. */
  readonly lastMatchAt: number;
  readonly fires: number;
  readonly createdAt: number;
}

export interface AlertRule extends AlertRuleBase {
  readonly id: string;
  /** Epoch ms the rule was created or last edited: its window counts nothing from before. */
  readonly windowFrom: number;
  readonly outbox: PendingNotice | null;
}

interface RuleDoc extends AlertRuleBase {
  readonly _id: string;
  readonly updatedAt: number;
  /** Absent on rules stored before the outbox existed (read as null). */
  readonly outbox?: PendingNotice | null;
}

interface VersionDoc {
  readonly _id: string;
  readonly version?: number;
}

/** Rule id -> bucket start (epoch ms, as text) -> matching logs. */
export type DeltaCounts = Readonly<Record<string, Readonly<Record<string, number>>>>;

interface DeltaDoc {
  readonly _id: string;
  readonly serverId: string;
  /** Epoch ms it was written (evaluation clock). */
  readonly at: number;
  readonly counts: DeltaCounts;
  /** Keys of the batches counted in it. */
  readonly keys: readonly string[];
  readonly folded: boolean;
}

interface BucketDoc {
  readonly _id: string;
  readonly ruleId: string;
  /** Epoch ms the bucket starts. */
  readonly start: number;
  readonly count: number;
}

export interface StoredEvent {
  readonly at: number;
  readonly state: 'firing' | 'resolved';
  readonly count: number;
  readonly sample: AlertEvent['sample'];
}

interface EventDoc extends StoredEvent {
  readonly _id: string;
  readonly ruleId: string;
}

/** A rule's window as stored: counts per bucket start (folded buckets and deltas not yet folded). */
export type WindowBuckets = Map<string, Map<number, number>>;

export interface AlertStore {
  create(serverId: string, settings: AlertSettings, now: number): Promise<AlertRule>;
  /** Replaces the settings; the rule starts over (state ok, counts cleared, absence clock from now). */
  update(serverId: string, id: string, settings: AlertSettings, now: number): Promise<AlertRule | null>;
  remove(serverId: string, id: string): Promise<boolean>;
  get(serverId: string, id: string): Promise<AlertRule | null>;
  serverOf(id: string): Promise<string | null>;
  /** The server's rules, oldest first. */
  list(serverId: string): Promise<AlertRule[]>;
  count(serverId: string): Promise<number>;
  /** Every enabled rule (the tick). */
  enabled(): Promise<AlertRule[]>;
  /** Rules whose last transition's notification is not queued yet (enabled or not). */
  withOutbox(): Promise<AlertRule[]>;
  /** The server's version: moves with every rule write and transition (created at 0 on first sight). */
  version(serverId: string): Promise<number>;
  /**
   * Calls `listener` after each write of THIS store object that moved a server's version (a rule written,
   * a transition): the evaluator of the same replica follows it at once, without reading the version.
   */
  onVersionMoved(listener: (serverId: string) => void): void;
  /** Records what was counted since the last write (counts and the keys of the batches counted), in one write. */
  addDelta(serverId: string, at: number, counts: DeltaCounts, keys: readonly string[]): Promise<void>;
  /** Keys of the batches the server's deltas since `since` counted (every replica's). */
  countedKeys(serverId: string, since: number): Promise<string[]>;
  /** Folds the server's recorded deltas into the rules' buckets (all or none), then drops them. */
  fold(serverId: string, rules: readonly AlertRule[]): Promise<void>;
  /** Drops deltas written before `before`, folded or not (a server whose rules were all disabled keeps none). */
  dropDeltasBefore(before: number): Promise<void>;
  /** The windows of the rules ending at `at`, per bucket (for evaluation from memory). */
  windows(serverId: string, rules: readonly AlertRule[], at: number): Promise<WindowBuckets>;
  /** Moves the absence clocks forward (never back). */
  touch(ids: readonly string[], at: number): Promise<void>;
  /** ok -> firing with its notice in the outbox; null when another evaluation did it first (or the rule changed). */
  fire(rule: AlertRule, notice: PendingNotice): Promise<AlertRule | null>;
  /** firing -> ok with its notice in the outbox; null when another evaluation did it first. */
  resolve(rule: AlertRule, notice: PendingNotice, lastMatchAt?: number): Promise<AlertRule | null>;
  /** Empties the outbox once its messages are queued. */
  clearOutbox(rule: AlertRule): Promise<void>;
  /** Removes the rule's buckets older than `before` (no window needs them any more). */
  prune(ruleId: string, before: number): Promise<void>;
  /** Records a transition in the history; `key` names it, so recording it again changes nothing. */
  addEvent(ruleId: string, key: string, event: StoredEvent): Promise<void>;
  history(ruleId: string, limit: number): Promise<StoredEvent[]>;
}

/** Buckets of 1 s for short windows, 10 s from ten minutes up: at most a few hundred documents per window. */
export function bucketMsOf(windowSeconds: number): number {
  return windowSeconds >= 600 ? 10_000 : 1_000;
}

export const bucketStartOf = (windowSeconds: number, at: number): number => {
  const size = bucketMsOf(windowSeconds);
  return Math.floor(at / size) * size;
};

function toRule(doc: RuleDoc): AlertRule {
  const { _id, updatedAt, outbox, ...rest } = doc;
  return { id: _id, ...rest, windowFrom: updatedAt, outbox: outbox ?? null };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toApiRule(rule: AlertRule): ApiAlertRule {
  return {
    id: rule.id,
    serverId: rule.serverId,
    name: rule.name,
    kind: rule.kind,
    filter: rule.filter,
    threshold: rule.threshold,
    windowSeconds: rule.windowSeconds,
    webhookIds: [...rule.webhookIds],
    cooldownSeconds: rule.cooldownSeconds,
    enabled: rule.enabled,
    state: rule.state,
    lastFiredAt: iso(rule.lastFiredAt),
    lastResolvedAt: iso(rule.lastResolvedAt),
    createdAt: new Date(rule.createdAt).toISOString(),
  };
}

/** How long the keys of counted batches are kept: a batch handed out again later than this counts again. */
export const SEEN_HORIZON_MS = 15 * 60 * 1000;

/**
 * A delta's counts of the given threshold rules: a rule deleted, no longer served, or edited since (its
 * window starts over; a bucket that began before the edit is left out) counts nothing.
 */
function* countsOf(delta: DeltaDoc, byId: ReadonlyMap<string, AlertRule>): Generator<[AlertRule, number, number]> {
  for (const [ruleId, perBucket] of Object.entries(delta.counts)) {
    const rule = byId.get(ruleId);
    if (rule === undefined) continue;
    for (const [start, count] of Object.entries(perBucket)) {
      const from = Number(start);
      if (from + bucketMsOf(rule.windowSeconds) <= rule.windowFrom) continue;
      yield [rule, from, count];
    }
  }
}

const RULES = 'alert_rules';
const VERSIONS = 'alert_versions';
const DELTAS = 'alert_deltas';
const BUCKETS = 'alert_buckets';

export async function createAlertStore(docs: DocumentStore): Promise<AlertStore> {
  const rules: Collection<RuleDoc> = await docs.collection<RuleDoc>(RULES, [{ fields: ['serverId', 'createdAt'] }, { fields: ['enabled'] }]);
  const versions: Collection<VersionDoc> = await docs.collection<VersionDoc>(VERSIONS);
  const deltas: Collection<DeltaDoc> = await docs.collection<DeltaDoc>(DELTAS, [{ fields: ['serverId', 'folded', 'at'] }, { fields: ['at'] }]);
  const buckets: Collection<BucketDoc> = await docs.collection<BucketDoc>(BUCKETS, [{ fields: ['ruleId', 'start'] }]);
  const events: Collection<EventDoc> = await docs.collection<EventDoc>('alert_events', [{ fields: ['ruleId', 'at'] }]);

  const listeners: ((serverId: string) => void)[] = [];
  const moved = (serverId: string) => {
    for (const listener of listeners) listener(serverId);
  };
  const bump = async (serverId: string) => {
    await versions.updateOne({ _id: serverId }, { $inc: { version: 1 } }, { upsert: true });
    moved(serverId);
  };
  const bumpStep = (serverId: string): GuardedUpdate => ({ collection: VERSIONS, filter: { _id: serverId }, update: { $inc: { version: 1 } } });

  /** A transition: the rule's conditional update and the version, all or none; the rule after it, or null. */
  const transition = async (rule: AlertRule, step: GuardedUpdate): Promise<AlertRule | null> => {
    // The version document exists for any server with rules (created with its first rule, or by version()).
    await versions.updateOne({ _id: rule.serverId }, { $inc: { version: 0 } }, { upsert: true });
    if (!(await docs.updateAllOrNone([step, bumpStep(rule.serverId)]))) return null;
    moved(rule.serverId);
    const doc = await rules.findOne({ _id: rule.id });
    return doc === null ? null : toRule(doc);
  };

  return {
    async create(serverId, settings, now) {
      const doc: RuleDoc = { _id: `alr_${randomUUID().replace(/-/g, '')}`, serverId, ...settings, state: 'ok', lastFiredAt: null, lastResolvedAt: null, lastMatchAt: now, fires: 0, createdAt: now, updatedAt: now, outbox: null };
      await rules.insertOne(doc);
      await bump(serverId);
      return toRule(doc);
    },
    async update(serverId, id, settings, now) {
      const updated = await rules.findOneAndUpdate({ _id: id, serverId }, { $set: { ...settings, state: 'ok', lastMatchAt: now, updatedAt: now } });
      if (updated === null) return null;
      await buckets.deleteMany({ ruleId: id });
      await bump(serverId);
      return toRule(updated);
    },
    async remove(serverId, id) {
      if ((await rules.deleteOne({ _id: id, serverId })) === 0) return false;
      await bump(serverId);
      await buckets.deleteMany({ ruleId: id });
      await events.deleteMany({ ruleId: id });
      return true;
    },
    async get(serverId, id) {
      const doc = await rules.findOne({ _id: id, serverId });
      return doc === null ? null : toRule(doc);
    },
    async serverOf(id) {
      return (await rules.findOne({ _id: id }))?.serverId ?? null;
    },
    async list(serverId) {
      return (await rules.find({ serverId }, { sort: { createdAt: 1, _id: 1 } })).map(toRule);
    },
    count: (serverId) => rules.count({ serverId }),
    async enabled() {
      return (await rules.find({ enabled: true })).map(toRule);
    },
    async withOutbox() {
      return (await rules.find({ outbox: { $ne: null } })).map(toRule);
    },
    async version(serverId) {
      const doc = await versions.findOne({ _id: serverId });
      if (doc !== null) return doc.version ?? 0;
      // Created on first sight (a server without rules, or rules stored before versions): later writes move it.
      await versions.updateOne({ _id: serverId }, { $inc: { version: 0 } }, { upsert: true });
      return 0;
    },
    onVersionMoved(listener) {
      listeners.push(listener);
    },
    async addDelta(serverId, at, counts, keys) {
      await deltas.insertOne({ _id: `${serverId}.${at}.${randomUUID().slice(0, 8)}`, serverId, at, counts, keys, folded: false });
    },
    async countedKeys(serverId, since) {
      return (await deltas.find({ serverId, at: { $gte: since } })).flatMap((d) => d.keys);
    },
    async fold(serverId, served) {
      const pending = await deltas.find({ serverId, folded: false });
      if (pending.length > 0) {
        const byId = new Map(served.filter((r) => r.kind === 'threshold').map((r) => [r.id, r]));
        const sums = new Map<string, { ruleId: string; start: number; count: number }>();
        for (const delta of pending) {
          for (const [rule, start, count] of countsOf(delta, byId)) {
            const id = `${rule.id}.${start}`;
            const sum = sums.get(id);
            if (sum) sum.count += count;
            else sums.set(id, { ruleId: rule.id, start, count });
          }
        }
        for (const [id, { ruleId, start }] of sums) await buckets.updateOne({ _id: id }, { $set: { ruleId, start } }, { upsert: true });
        const steps: GuardedUpdate[] = [
          ...pending.map((d) => ({ collection: DELTAS, filter: { _id: d._id, folded: false }, update: { $set: { folded: true } } })),
          ...[...sums].map(([id, sum]) => ({ collection: BUCKETS, filter: { _id: id }, update: { $inc: { count: sum.count } } })),
        ];
        // Another tick folding the same deltas at once: one of the two applies, the other changes nothing.
        await docs.updateAllOrNone(steps);
      }
    },
    async dropDeltasBefore(before) {
      await deltas.deleteMany({ at: { $lt: before } });
    },
    async windows(serverId, served, at) {
      const threshold = served.filter((r) => r.kind === 'threshold');
      const out: WindowBuckets = new Map(threshold.map((r) => [r.id, new Map<number, number>()]));
      if (threshold.length === 0) return out;
      const longest = Math.max(...threshold.map((r) => r.windowSeconds)) * 1000;
      const byId = new Map(threshold.map((r) => [r.id, r]));
      const add = (rule: AlertRule, start: number, count: number) => {
        const window = out.get(rule.id)!;
        window.set(start, (window.get(start) ?? 0) + count);
      };
      for (const bucket of await buckets.find({ ruleId: { $in: threshold.map((r) => r.id) }, start: { $gt: at - longest - 10_000 } })) {
        const rule = byId.get(bucket.ruleId);
        if (rule) add(rule, bucket.start, bucket.count);
      }
      for (const delta of await deltas.find({ serverId, folded: false })) for (const [rule, start, count] of countsOf(delta, byId)) add(rule, start, count);
      return out;
    },
    async touch(ids, at) {
      if (ids.length === 0) return;
      await rules.updateMany({ _id: { $in: [...ids] }, lastMatchAt: { $lt: at } }, { $set: { lastMatchAt: at } });
    },
    fire(rule, notice) {
      return transition(rule, { collection: RULES, filter: { _id: rule.id, state: 'ok', enabled: true, outbox: null }, update: { $set: { state: 'firing', lastFiredAt: notice.at, outbox: notice }, $inc: { fires: 1 } } });
    },
    resolve(rule, notice, lastMatchAt) {
      const set = { state: 'ok', lastResolvedAt: notice.at, outbox: notice, ...(lastMatchAt === undefined ? {} : { lastMatchAt }) };
      return transition(rule, { collection: RULES, filter: { _id: rule.id, state: 'firing', outbox: null }, update: { $set: set } });
    },
    async clearOutbox(rule) {
      // A later transition needs an empty outbox, so the one this rule holds is still the one that was queued.
      await rules.updateOne({ _id: rule.id, fires: rule.fires, state: rule.state }, { $set: { outbox: null } });
    },
    async prune(ruleId, before) {
      await buckets.deleteMany({ ruleId, start: { $lt: before } });
    },
    async addEvent(ruleId, key, event) {
      try {
        await events.insertOne({ _id: `${ruleId}.${key}`, ruleId, ...event });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    },
    async history(ruleId, limit) {
      return (await events.find({ ruleId }, { sort: { at: -1, _id: -1 }, limit })).map(({ at, state, count, sample }) => ({ at, state, count, sample }));
    },
  };
}
