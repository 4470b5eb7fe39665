/**
 * Event bus on Redis Streams (ioredis), for small distributed installs.
 *
 * Layout: one stream per topic at `<prefix><topic>`; entry fields id, k (key), h (headers JSON),
 * p (payload JSON). Each consumer group is a stream consumer group created at offset 0 on first
 * subscribe, so a new group reads what the stream still retains (all of it on a history topic).
 *
 * Guarantees:
 * - publish() resolves after Redis replied to XADD (MULTI for a batch). Durability beyond that is
 *   Redis's: run it with AOF (appendfsync everysec or always) and maxmemory-policy noeviction.
 * - At least once: XACK only after the handler succeeded (or the message was dead-lettered, in the
 *   same MULTI). Messages pending on a consumer for longer than visibilityTimeoutMs (a crashed
 *   process) are taken over by another consumer with XAUTOCLAIM; its delivery count is the attempt.
 *   A subscription with a batch handler gets the entries one XREADGROUP read of a stream (up to 16) in
 *   one call and acknowledges them in one XACK; entries it fails, and reclaimed ones, go one at a time.
 * - Ordering: entries of a stream are handled one at a time in stream order by a subscription, so
 *   per-key (and per-topic) order holds with ONE consumer per group. With several consumers in a
 *   group they share the stream and per-key order is not guaranteed; neither is it for messages
 *   reclaimed from a dead consumer, which arrive after newer ones.
 * - Streams are trimmed (XTRIM MINID) below what every group has acknowledged, and capped with
 *   XADD MAXLEN ~ maxLen. History topics (config.historyTopics) are never trimmed, neither way, so a
 *   group that joins later reads them from the first entry; their dead-letter streams are capped.
 *   A history stream grows for good: size Redis memory (and AOF) for it.
 * Each subscription uses its own connection for the blocking XREADGROUP.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { HISTORY_TOPICS } from '@skald/contracts';
import { deadLetterTopic } from '@skald/ports';
import type { ConsumerLag, DeadLetterCount, EventBus, ObserveOptions, PublishInput, SubscribeOptions, Subscription } from '@skald/ports';
import type { RedisEventBusConfig } from '../config.ts';
import { DeadLetterTally, deadLetterHeaders, deliverWithRetries, describeFailure, offerAsBatch, resolveSubscribeDefaults, sleep } from '../delivery.ts';
import {
  compareStreamIds,
  encodeFields,
  parseAutoClaimReply,
  parseGroupsInfo,
  parsePendingDeliveries,
  parseReadGroupReply,
} from './stream-replies.ts';
import type { StreamEntry } from './stream-replies.ts';
import { startStreamObserver } from './stream-observer.ts';

const DEFAULT_PREFIX = 'skald:bus:';
const DEFAULT_VISIBILITY_TIMEOUT_MS = 30_000;
const DEFAULT_BLOCK_MS = 2_000;
const DEFAULT_MAX_LEN = 100_000;
const READ_COUNT = 16;
const DEFAULT_TRIM_INTERVAL_MS = 10_000;
const ERROR_BACKOFF_MS = 1_000;
/** Throwaway group used only to create an empty stream (XGROUP CREATE ... MKSTREAM). */
const INIT_GROUP = '__skald_init';

/** XADD arguments up to the entry id: capped with MAXLEN ~ unless the topic keeps its history. */
function xaddHead(settings: Settings, topic: string): (string | number)[] {
  const key = settings.prefix + topic;
  return settings.historyTopics.has(topic) ? [key, '*'] : [key, 'MAXLEN', '~', settings.maxLen, '*'];
}

/**
 * Deletes entries below what every group of each stream has acknowledged (XTRIM MINID). A history
 * topic is skipped: every existing group having read it says nothing about a group added later.
 */
async function trimAcknowledged(client: Redis, settings: Settings, topics: Iterable<string>): Promise<void> {
  for (const topic of topics) {
    if (settings.historyTopics.has(topic)) continue;
    const key = settings.prefix + topic;
    const groups = parseGroupsInfo(await client.call('XINFO', ['GROUPS', key]));
    let minId: string | null = null;
    for (const group of groups) {
      let keepFrom = group.lastDeliveredId;
      if (group.pending > 0) {
        const summary = await client.call('XPENDING', [key, group.name]);
        if (Array.isArray(summary) && typeof summary[1] === 'string') keepFrom = summary[1];
      }
      if (minId === null || compareStreamIds(keepFrom, minId) < 0) minId = keepFrom;
    }
    if (minId !== null && minId !== '0-0') await client.call('XTRIM', [key, 'MINID', minId]);
  }
}

function serializePayload(payload: unknown): string {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('event bus: payload must be JSON-serializable');
  return text;
}

function isBusyGroupError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('BUSYGROUP');
}

interface Settings {
  readonly prefix: string;
  /** Topics (unprefixed) whose streams are never trimmed. */
  readonly historyTopics: ReadonlySet<string>;
  readonly visibilityTimeoutMs: number;
  readonly blockMs: number;
  readonly maxLen: number;
  readonly trimIntervalMs: number;
}

class RedisSubscription implements Subscription {
  readonly #client: Redis;
  readonly #blocking: Redis;
  readonly #settings: Settings;
  readonly #options: SubscribeOptions;
  readonly #limits: { maxAttempts: number; retryDelayMs: number };
  readonly #controller = new AbortController();
  readonly #consumer = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  readonly #keyToTopic: Map<string, string>;
  #blockingClientId: number | null = null;
  #lastClaimAt = 0;
  #lastTrimAt = Date.now();
  readonly #done: Promise<void>;
  #stopping: Promise<void> | null = null;
  readonly #onStopped: () => void;
  readonly #onDeadLetter: (topic: string) => void;

  /** The group and topics it consumes (metrics). */
  get options(): Pick<SubscribeOptions, 'group' | 'topics'> {
    return this.#options;
  }

  constructor(client: Redis, settings: Settings, options: SubscribeOptions, onStopped: () => void, onDeadLetter: (topic: string) => void) {
    this.#client = client;
    this.#onDeadLetter = onDeadLetter;
    this.#settings = settings;
    this.#options = options;
    this.#limits = resolveSubscribeDefaults(options);
    this.#keyToTopic = new Map(options.topics.map((topic) => [settings.prefix + topic, topic]));
    this.#onStopped = onStopped;
    // A dedicated connection: XREADGROUP BLOCK holds it, and CLIENT UNBLOCK on stop needs its id.
    this.#blocking = client.duplicate();
    this.#blocking.on('ready', () => {
      void this.#blocking.client('ID').then((id) => (this.#blockingClientId = Number(id)), () => undefined);
    });
    this.#blocking.on('error', () => undefined);
    this.#done = this.#run();
  }

  get #signal(): AbortSignal {
    return this.#controller.signal;
  }

  async #run(): Promise<void> {
    while (!this.#signal.aborted) {
      try {
        if (Date.now() - this.#lastClaimAt >= Math.max(50, this.#settings.visibilityTimeoutMs / 2)) {
          this.#lastClaimAt = Date.now();
          if (!(await this.#reclaimAbandoned())) break;
        }
        if (Date.now() - this.#lastTrimAt >= this.#settings.trimIntervalMs) {
          this.#lastTrimAt = Date.now();
          await trimAcknowledged(this.#client, this.#settings, this.#keyToTopic.values());
        }
        if (!(await this.#readNew())) break;
      } catch (error) {
        if (this.#signal.aborted) break;
        console.warn(`event bus (redis): consumer ${this.#options.group} failed, retrying: ${describeFailure(error)}`);
        await sleep(ERROR_BACKOFF_MS, this.#signal);
      }
    }
  }

  /** Returns false when delivery was aborted by stop(). */
  async #readNew(): Promise<boolean> {
    const keys = [...this.#keyToTopic.keys()];
    const reply = await this.#blocking.call('XREADGROUP', [
      'GROUP', this.#options.group, this.#consumer,
      'COUNT', READ_COUNT,
      'BLOCK', this.#settings.blockMs,
      'STREAMS', ...keys, ...keys.map(() => '>'),
    ]);
    // Even when stop() was requested meanwhile, entries just read are ours: handle them so they
    // are not left pending until the visibility timeout.
    for (const [key, entries] of parseReadGroupReply(reply)) {
      const topic = this.#keyToTopic.get(key)!;
      // The reply is parsed already (the entries hold their messages); the batch try only adds the topic.
      const offer = await offerAsBatch(entries, (entry) => ({ ...entry.message, topic }), this.#options.batchHandler);
      if (offer.taken) {
        await this.#client.call('XACK', [key, this.#options.group, ...entries.map((entry) => entry.streamId)]);
        continue;
      }
      for (const entry of entries) {
        if (!(await this.#handle(key, entry, 1))) return false;
      }
    }
    return true;
  }

  /** Takes over entries another (dead) consumer of the group left pending too long. */
  async #reclaimAbandoned(): Promise<boolean> {
    for (const key of this.#keyToTopic.keys()) {
      let cursor = '0-0';
      do {
        const reply = await this.#client.call('XAUTOCLAIM', [
          key, this.#options.group, this.#consumer, this.#settings.visibilityTimeoutMs, cursor, 'COUNT', READ_COUNT,
        ]);
        const claimed = parseAutoClaimReply(reply);
        cursor = claimed.cursor;
        if (claimed.entries.length === 0) continue;
        const first = claimed.entries[0]!.streamId;
        const last = claimed.entries[claimed.entries.length - 1]!.streamId;
        const deliveries = parsePendingDeliveries(
          await this.#client.call('XPENDING', [key, this.#options.group, first, last, claimed.entries.length * 2, this.#consumer]),
        );
        for (const entry of claimed.entries) {
          if (!(await this.#handle(key, entry, deliveries.get(entry.streamId) ?? 2))) return false;
        }
      } while (cursor !== '0-0' && !this.#signal.aborted);
    }
    return true;
  }

  async #handle(key: string, entry: StreamEntry, attempt: number): Promise<boolean> {
    const topic = this.#keyToTopic.get(key)!;
    const message = { ...entry.message, topic };
    const outcome = await deliverWithRetries(message, this.#options.handler, {
      ...this.#limits,
      firstAttempt: attempt,
      signal: this.#signal,
    });
    if (outcome.kind === 'aborted') return false;
    if (outcome.kind === 'done') {
      await this.#client.call('XACK', [key, this.#options.group, entry.streamId]);
      return true;
    }
    const headers = deadLetterHeaders(message.headers, topic, outcome.reason, this.#options.group);
    const result = await this.#client
      .multi()
      .call('XADD', [
        // A dead-letter stream is never a history topic (it is read by people, not read models).
        ...xaddHead(this.#settings, deadLetterTopic(topic)),
        ...encodeFields(message.id, message.key, headers, JSON.stringify(message.payload)),
      ])
      .call('XACK', [key, this.#options.group, entry.streamId])
      .exec();
    const failure = result?.find(([error]) => error !== null)?.[0];
    if (!result || failure) throw failure ?? new Error('dead-letter transaction aborted');
    this.#onDeadLetter(topic);
    return true;
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#controller.abort();
      // Wake the blocking read at once instead of waiting out BLOCK.
      if (this.#blockingClientId !== null) {
        await this.#client.call('CLIENT', ['UNBLOCK', this.#blockingClientId]).catch(() => undefined);
      }
      await this.#done;
      await this.#forgetConsumerIfIdle().catch(() => undefined);
      this.#blocking.disconnect();
      this.#onStopped();
    })();
    return this.#stopping;
  }

  /** Removes this consumer from its groups when it holds nothing pending (keeps XINFO tidy). */
  async #forgetConsumerIfIdle(): Promise<void> {
    for (const key of this.#keyToTopic.keys()) {
      const pending = await this.#client.call('XPENDING', [key, this.#options.group, '-', '+', 1, this.#consumer]);
      if (Array.isArray(pending) && pending.length === 0) {
        await this.#client.call('XGROUP', ['DELCONSUMER', key, this.#options.group, this.#consumer]);
      }
    }
  }
}

export class RedisEventBus implements EventBus {
  readonly #client: Redis;
  readonly #settings: Settings;
  readonly #knownTopics = new Set<string>();
  readonly #subscriptions = new Set<RedisSubscription>();
  readonly #observers = new Set<Subscription>();
  readonly #deadLetters = new DeadLetterTally();
  #closed = false;

  private constructor(client: Redis, settings: Settings) {
    this.#client = client;
    this.#settings = settings;
  }

  static async connect(config: RedisEventBusConfig): Promise<RedisEventBus> {
    const client = new Redis(config.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    client.on('error', () => undefined);
    await client.connect();
    return new RedisEventBus(client, {
      prefix: config.prefix ?? DEFAULT_PREFIX,
      historyTopics: new Set(config.historyTopics ?? HISTORY_TOPICS),
      visibilityTimeoutMs: config.visibilityTimeoutMs ?? DEFAULT_VISIBILITY_TIMEOUT_MS,
      blockMs: config.blockMs ?? DEFAULT_BLOCK_MS,
      maxLen: config.maxLen ?? DEFAULT_MAX_LEN,
      trimIntervalMs: config.trimIntervalMs ?? DEFAULT_TRIM_INTERVAL_MS,
    });
  }

  async ensureTopics(topics: readonly string[]): Promise<void> {
    this.#assertOpen();
    for (const topic of topics.flatMap((name) => [name, deadLetterTopic(name)])) {
      const key = this.#settings.prefix + topic;
      try {
        await this.#client.call('XGROUP', ['CREATE', key, INIT_GROUP, '$', 'MKSTREAM']);
      } catch (error) {
        if (!isBusyGroupError(error)) throw error;
      }
      await this.#client.call('XGROUP', ['DESTROY', key, INIT_GROUP]);
      this.#knownTopics.add(topic);
    }
  }

  async publish(messages: readonly PublishInput[]): Promise<void> {
    this.#assertOpen();
    if (messages.length === 0) return;
    for (const topic of new Set(messages.map((message) => message.topic))) await this.#assertTopic(topic);
    const transaction = this.#client.multi();
    for (const message of messages) {
      transaction.call('XADD', [
        ...xaddHead(this.#settings, message.topic),
        ...encodeFields(message.id ?? randomUUID(), message.key, message.headers ?? {}, serializePayload(message.payload)),
      ]);
    }
    const results = await transaction.exec();
    if (!results) throw new Error('event bus (redis): publish transaction aborted');
    const failure = results.find(([error]) => error !== null)?.[0];
    if (failure) throw failure;
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.#assertOpen();
    if (options.topics.length === 0) throw new Error('event bus: subscribe needs at least one topic');
    for (const topic of options.topics) {
      await this.#assertTopic(topic);
      try {
        // Offset 0: a group that joins later still reads what the stream retains.
        await this.#client.call('XGROUP', ['CREATE', this.#settings.prefix + topic, options.group, '0']);
      } catch (error) {
        if (!isBusyGroupError(error)) throw error;
      }
    }
    const subscription: RedisSubscription = new RedisSubscription(
      this.#client,
      this.#settings,
      options,
      () => this.#subscriptions.delete(subscription),
      (topic) => this.#deadLetters.count(options.group, topic),
    );
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async observe(options: ObserveOptions): Promise<Subscription> {
    this.#assertOpen();
    if (options.topics.length === 0) throw new Error('event bus: observe needs at least one topic');
    for (const topic of options.topics) await this.#assertTopic(topic);
    const observer: Subscription = await startStreamObserver(this.#client, this.#settings.prefix, this.#settings.blockMs, options, () =>
      this.#observers.delete(observer),
    );
    this.#observers.add(observer);
    return observer;
  }

  /**
   * The trimming pass every subscription runs each trimIntervalMs, at once, on every topic this bus
   * has ensured or used (history topics skipped). Exposed for tests and diagnostics.
   */
  async trim(): Promise<void> {
    this.#assertOpen();
    await trimAcknowledged(this.#client, this.#settings, this.#knownTopics);
  }

  deadLettered(): readonly DeadLetterCount[] {
    return this.#deadLetters.snapshot();
  }

  /**
   * Per group and topic: entries not yet delivered to the group (XINFO GROUPS `lag`, Redis 7) plus
   * those delivered but not acknowledged (`pending`). Redis answers no `lag` once entries the group has
   * not read were trimmed or deleted; such a pair is left out rather than reported too low.
   */
  async consumerLag(): Promise<readonly ConsumerLag[]> {
    if (this.#closed) return [];
    const pairs = new Map<string, { group: string; topic: string }>();
    for (const subscription of this.#subscriptions) {
      const { group, topics } = subscription.options;
      for (const topic of topics) pairs.set(`${group}\n${topic}`, { group, topic });
    }
    const answers: ConsumerLag[] = [];
    for (const { group, topic } of pairs.values()) {
      const groups = await this.#client.call('XINFO', ['GROUPS', this.#settings.prefix + topic]);
      const info = groupInfo(groups, group);
      if (info === null || info.lag === null) continue;
      answers.push({ group, topic, lag: info.lag + info.pending });
    }
    return answers;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions, ...this.#observers].map((subscription) => subscription.stop()));
    await this.#client.quit().catch(() => this.#client.disconnect());
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('event bus: closed');
  }

  async #assertTopic(topic: string): Promise<void> {
    if (this.#knownTopics.has(topic)) return;
    const type = await this.#client.call('TYPE', [this.#settings.prefix + topic]);
    if (type !== 'stream') throw new Error(`event bus: unknown topic ${topic} (call ensureTopics first)`);
    this.#knownTopics.add(topic);
  }
}

/** The `lag` and `pending` of one group out of an XINFO GROUPS reply (a list of flat field/value lists). */
function groupInfo(reply: unknown, group: string): { lag: number | null; pending: number } | null {
  if (!Array.isArray(reply)) return null;
  for (const entry of reply) {
    if (!Array.isArray(entry)) continue;
    const fields = new Map<string, unknown>();
    for (let i = 0; i + 1 < entry.length; i += 2) fields.set(String(entry[i]), entry[i + 1]);
    if (String(fields.get('name')) !== group) continue;
    const lag = fields.get('lag');
    return { lag: typeof lag === 'number' ? lag : null, pending: Number(fields.get('pending') ?? 0) };
  }
  return null;
}
