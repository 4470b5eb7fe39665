/**
 * Alert rules and their durable evaluation state, in the service's DocumentStore (SQLite all-in-one,
 * MongoDB distributed), shared by every replica (docs/ALERTS.md):
 *  - alert_rules: the rule, its state (ok | firing), lastFiredAt / lastResolvedAt, lastMatchAt (the
 *    absence clock) and `fires` (how many times it fired: names each firing's notifications);
 *  - alert_buckets: matching logs counted per rule and bucket of time (an atomic $inc per batch), so
 *    replicas that each take a part of the stream add into the same window;
 *  - alert_events: the history of transitions.
 * A transition is a conditional update on the state (ok -> firing, firing -> ok): when two replicas, or
 * a batch and the tick, decide the same transition at once, exactly one update matches and only that one
 * records the event and sends the notification.
 */
import { randomUUID } from 'node:crypto';
import type { AlertFilter, AlertKind, AlertState, ApiAlertRule, AlertEvent } from '@skald/contracts';
import type { Collection, DocumentStore } from '@skald/ports';

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

export interface AlertRule extends AlertSettings {
  readonly id: string;
  readonly serverId: string;
  readonly state: AlertState;
  readonly lastFiredAt: number | null;
  readonly lastResolvedAt: number | null;
  /** Epoch ms of the last matching log (or of the rule's start): the absence clock. */
  readonly lastMatchAt: number;
  readonly fires: number;
  readonly createdAt: number;
}

interface RuleDoc extends AlertSettings {
  readonly _id: string;
  readonly serverId: string;
  readonly state: AlertState;
  readonly lastFiredAt: number | null;
  readonly lastResolvedAt: number | null;
  readonly lastMatchAt: number;
  readonly fires: number;
  readonly createdAt: number;
  readonly updatedAt: number;
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
  /** Adds `count` matching logs to the rule's bucket at `at`, then answers the count of the window ending at `at`. */
  addAndCount(rule: AlertRule, at: number, count: number): Promise<number>;
  countWindow(rule: AlertRule, at: number): Promise<number>;
  /** Moves the absence clock forward (never back). */
  touch(id: string, at: number): Promise<void>;
  /** ok -> firing; null when another evaluation did it first (or the rule changed). */
  fire(rule: AlertRule, at: number): Promise<AlertRule | null>;
  /** firing -> ok; null when another evaluation did it first. */
  resolve(rule: AlertRule, at: number, lastMatchAt?: number): Promise<AlertRule | null>;
  /** Removes the rule's buckets older than `before` (no window needs them any more). */
  prune(ruleId: string, before: number): Promise<void>;
  addEvent(ruleId: string, event: StoredEvent): Promise<void>;
  history(ruleId: string, limit: number): Promise<StoredEvent[]>;
}

/** Buckets of 1 s for short windows, 10 s from ten minutes up: at most a few hundred documents per window. */
export function bucketMsOf(windowSeconds: number): number {
  return windowSeconds >= 600 ? 10_000 : 1_000;
}

function toRule(doc: RuleDoc): AlertRule {
  const { _id, updatedAt: _updated, ...rest } = doc;
  return { id: _id, ...rest };
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

export async function createAlertStore(docs: DocumentStore): Promise<AlertStore> {
  const rules: Collection<RuleDoc> = await docs.collection<RuleDoc>('alert_rules', [{ fields: ['serverId', 'createdAt'] }, { fields: ['enabled'] }]);
  const buckets: Collection<BucketDoc> = await docs.collection<BucketDoc>('alert_buckets', [{ fields: ['ruleId', 'start'] }]);
  const events: Collection<EventDoc> = await docs.collection<EventDoc>('alert_events', [{ fields: ['ruleId', 'at'] }]);

  const countWindow = async (rule: AlertRule, at: number): Promise<number> => {
    const found = await buckets.find({ ruleId: rule.id, start: { $gt: at - rule.windowSeconds * 1000 } });
    return found.reduce((sum, b) => sum + b.count, 0);
  };

  return {
    async create(serverId, settings, now) {
      const doc: RuleDoc = { _id: `alr_${randomUUID().replace(/-/g, '')}`, serverId, ...settings, state: 'ok', lastFiredAt: null, lastResolvedAt: null, lastMatchAt: now, fires: 0, createdAt: now, updatedAt: now };
      await rules.insertOne(doc);
      return toRule(doc);
    },
    async update(serverId, id, settings, now) {
      const updated = await rules.findOneAndUpdate({ _id: id, serverId }, { $set: { ...settings, state: 'ok', lastMatchAt: now, updatedAt: now } });
      if (updated === null) return null;
      await buckets.deleteMany({ ruleId: id });
      return toRule(updated);
    },
    async remove(serverId, id) {
      if ((await rules.deleteOne({ _id: id, serverId })) === 0) return false;
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
    async addAndCount(rule, at, count) {
      const bucketMs = bucketMsOf(rule.windowSeconds);
      const start = Math.floor(at / bucketMs) * bucketMs;
      await buckets.updateOne({ _id: `${rule.id}.${start}` }, { $set: { ruleId: rule.id, start }, $inc: { count } }, { upsert: true });
      return countWindow(rule, at);
    },
    countWindow,
    async touch(id, at) {
      await rules.updateOne({ _id: id, lastMatchAt: { $lt: at } }, { $set: { lastMatchAt: at } });
    },
    async fire(rule, at) {
      const doc = await rules.findOneAndUpdate({ _id: rule.id, state: 'ok', enabled: true }, { $set: { state: 'firing', lastFiredAt: at }, $inc: { fires: 1 } });
      return doc === null ? null : toRule(doc);
    },
    async resolve(rule, at, lastMatchAt) {
      const doc = await rules.findOneAndUpdate({ _id: rule.id, state: 'firing' }, { $set: { state: 'ok', lastResolvedAt: at, ...(lastMatchAt === undefined ? {} : { lastMatchAt }) } });
      return doc === null ? null : toRule(doc);
    },
    async prune(ruleId, before) {
      await buckets.deleteMany({ ruleId, start: { $lt: before } });
    },
    async addEvent(ruleId, event) {
      await events.insertOne({ _id: `${ruleId}.${event.at}.${event.state}.${randomUUID().slice(0, 8)}`, ruleId, ...event });
    },
    async history(ruleId, limit) {
      return (await events.find({ ruleId }, { sort: { at: -1, _id: -1 }, limit })).map(({ at, state, count, sample }) => ({ at, state, count, sample }));
    },
  };
}
