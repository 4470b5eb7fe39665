/**
 * Event bus on Kafka (kafkajs), for distributed installs.
 *
 * - Producer: acks -1 (all in-sync replicas), idempotent off (experimental in kafkajs), no topic
 *   auto-creation: ensureTopics() creates topics and their dead-letter topics via the admin API, or
 *   with topicProvisioning 'external' only checks that the operator created them.
 *   Durability needs RF >= 3 and min.insync.replicas >= 2 on the brokers (see reliability notes).
 * - Message: key = partition key (so per-key order = partition order), value = payload JSON,
 *   headers = the message headers plus `x-message-id` (stripped again on delivery).
 * - Consumer: one kafkajs consumer per subscription, eachBatch with eachBatchAutoResolve false and
 *   autoCommit false. Messages of a partition are handled one by one (or, for a subscription with a
 *   batch handler, in slices of up to MAX_HANDLER_BATCH, one by one again when a slice fails); an offset is resolved only
 *   after its handler succeeded (or the message was produced to the DLQ) and the resolved offsets
 *   are committed at the end of each batch, including when stop() cuts the batch short. stop()
 *   returns once the batch in hand committed and leaves the group in the background (close() waits).
 * - A failing handler is retried in place (the partition waits), then dead-lettered. Kafka keeps
 *   no delivery count, so after a consumer restart the attempt counter starts again at 1.
 * - maxBytesPerPartition is 10 MB: it must be at least the broker's message.max.bytes, or the
 *   consumer stalls on a large message.
 * - History topics (config.historyTopics) are created with retention.ms=-1, retention.bytes=-1 and
 *   cleanup.policy=delete, and ensureTopics() sets the same on such a topic created before it was
 *   one; other topics (their dead-letter topics included) keep the broker's retention. A group with
 *   no committed offset starts at the earliest retained offset (fromBeginning), so a group added
 *   later replays a history topic from its first message.
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type {
  Admin,
  ConfigResourceTypes,
  ConfigSource,
  Consumer,
  EachBatchPayload,
  IHeaders,
  IResourceConfig,
  IResourceConfigEntry,
  KafkaMessage,
  Producer,
} from 'kafkajs';
import { HISTORY_TOPICS } from '@skald/contracts';
import { deadLetterTopic, MAX_HANDLER_BATCH } from '@skald/ports';
import type {
  BatchHandler,
  BusMessage,
  ConsumerLag,
  DeadLetterCount,
  EventBus,
  MessageHandler,
  ObserveOptions,
  PublishInput,
  SubscribeOptions,
  Subscription,
} from '@skald/ports';
import type { KafkaEventBusConfig } from '../config.ts';
import { DeadLetterTally, deadLetterHeaders, deliverWithRetries, offerAsBatch, resolveSubscribeDefaults } from '../delivery.ts';
import { startKafkaObserver } from './kafka-observer.ts';

const MESSAGE_ID_HEADER = 'x-message-id';
const DEFAULT_REPLICATION_FACTOR = 3;
const DEFAULT_PARTITIONS = 6;
const MAX_BYTES_PER_PARTITION = 10 * 1024 * 1024;
// Kafka protocol values. kafkajs's ConfigResourceTypes / ConfigSource objects are not named exports
// an ES module can import from this CommonJS package (they are undefined at runtime), only types.
const TOPIC_RESOURCE: ConfigResourceTypes = 2;
const TOPIC_CONFIG_SOURCE: ConfigSource = 1;

function serializePayload(payload: unknown): string {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('event bus: payload must be JSON-serializable');
  return text;
}

function headerText(value: IHeaders[string]): string | undefined {
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

export function decodeKafkaMessage(topic: string, raw: KafkaMessage): Omit<BusMessage, 'attempt'> {
  const headers: Record<string, string> = {};
  let id = `${topic}@${raw.offset}`;
  for (const [name, value] of Object.entries(raw.headers ?? {})) {
    const text = headerText(value);
    if (text === undefined) continue;
    if (name === MESSAGE_ID_HEADER) id = text;
    else headers[name] = text;
  }
  const text = raw.value?.toString() ?? 'null';
  let payload: unknown;
  try {
    payload = JSON.parse(text) as unknown;
  } catch {
    // Not written by this adapter: hand it over raw and let the consumer's validation decide.
    payload = text;
  }
  return { id, topic, key: raw.key?.toString() ?? '', payload, headers };
}

export function encodeMessage(
  id: string,
  key: string,
  headers: Readonly<Record<string, string>>,
  payload: string,
): { key: string; value: string; headers: Record<string, string> } {
  return { key, value: payload, headers: { ...headers, [MESSAGE_ID_HEADER]: id } };
}

/**
 * Topic-level settings of a history topic. retention.bytes is set although -1 is the broker default,
 * so that a changed broker default cannot cap it. cleanup.policy=delete (with infinite retention
 * nothing is deleted) rules out compaction, which keeps one message per key: the partition key is the
 * server or user id, not the entity, so compaction would drop facts about other entities.
 */
export const HISTORY_TOPIC_CONFIG: readonly IResourceConfigEntry[] = [
  { name: 'retention.ms', value: '-1' },
  { name: 'retention.bytes', value: '-1' },
  { name: 'cleanup.policy', value: 'delete' },
];

export type TopicAdmin = Pick<Admin, 'createTopics' | 'describeConfigs' | 'alterConfigs' | 'describeCluster' | 'listTopics' | 'fetchTopicMetadata'>;

export interface TopicSettings {
  readonly numPartitions: number;
  readonly replicationFactor: number;
  readonly historyTopics: ReadonlySet<string>;
  /** See KafkaEventBusConfig.topicProvisioning. Default 'admin'. */
  readonly provisioning?: 'admin' | 'external';
  /** Where the external mode's warnings go (one per unverifiable history topic). Default console.warn. */
  readonly warn?: (message: string) => void;
}

const HISTORY_SETTINGS_TEXT = HISTORY_TOPIC_CONFIG.map((e) => `${e.name}=${e.value}`).join(', ');

/**
 * Makes sure the topics and their dead-letter topics exist, and that every history topic among them
 * carries HISTORY_TOPIC_CONFIG. 'admin' provisioning creates the missing ones and sets the history
 * settings on an existing topic (one created before it became a history topic); 'external' changes
 * nothing and refuses when something is missing. Returns every topic name it ensured.
 */
export async function ensureKafkaTopics(
  admin: TopicAdmin,
  topics: readonly string[],
  settings: TopicSettings,
): Promise<string[]> {
  const all = [...new Set(topics.flatMap((topic) => [topic, deadLetterTopic(topic)]))];
  const history = all.filter((topic) => settings.historyTopics.has(topic));
  if (settings.provisioning === 'external') {
    await checkProvisioned(admin, all, history, settings.warn ?? console.warn);
    return all;
  }
  try {
    // Returns false (no error) when the topics exist already.
    await admin.createTopics({
      waitForLeaders: true,
      topics: all.map((topic) => ({
        topic,
        numPartitions: settings.numPartitions,
        replicationFactor: settings.replicationFactor,
        ...(settings.historyTopics.has(topic) ? { configEntries: HISTORY_TOPIC_CONFIG.map((entry) => ({ ...entry })) } : {}),
      })),
    });
  } catch (error) {
    throw (await controllerMissing(admin)) ?? error;
  }
  if (history.length === 0) return all;
  const changes = await historyChanges(admin, history);
  if (changes.length > 0) {
    // Worth a line in the log: it changes an existing topic (created before it was a history topic).
    console.warn(`event bus (kafka): keeping the whole history of ${changes.map((change) => change.name).join(', ')} from now on`);
    await admin.alterConfigs({ validateOnly: false, resources: changes });
  }
  return all;
}

/**
 * kafkajs sends topic admin requests to the controller broker. A cluster whose metadata names none
 * (librdkafka's mock cluster answers controller 0 with brokers 1..n) fails them with the puzzling
 * 'Broker 0 not found in the cached metadata'; this turns that into what to do about it.
 */
async function controllerMissing(admin: TopicAdmin): Promise<Error | null> {
  const cluster = await admin.describeCluster().catch(() => null);
  if (cluster === null || hasController(cluster)) return null;
  return new Error(
    `event bus (kafka): the cluster names no controller broker (controller ${String(cluster.controller)}, brokers ` +
      `${cluster.brokers.map((broker) => broker.nodeId).join(', ')}), so topics cannot be created through the admin API; ` +
      'provision them yourself and set KAFKA_TOPIC_PROVISIONING=external (docs/DEPLOYMENT.md, "Kafka topics")',
  );
}

function hasController(cluster: Awaited<ReturnType<Admin['describeCluster']>>): boolean {
  return cluster.controller !== null && cluster.brokers.some((broker) => broker.nodeId === cluster.controller);
}

/**
 * External provisioning: nothing is created or altered. Topics missing from the cluster's list are
 * asked for by name once (a broker that creates topics on a metadata request, such as the mock
 * cluster, creates them then; Kafka with AllowAutoTopicCreation=false, which kafkajs's admin sends,
 * does not), and any still missing stops the start. History settings are checked where the cluster
 * can describe topic configs (it has a controller); where it cannot, a warning per topic says so.
 */
async function checkProvisioned(admin: TopicAdmin, all: readonly string[], history: readonly string[], warn: (message: string) => void): Promise<void> {
  const listed = new Set(await admin.listTopics());
  const unlisted = all.filter((topic) => !listed.has(topic));
  if (unlisted.length > 0) {
    await admin.fetchTopicMetadata({ topics: unlisted }).catch(() => undefined);
    const now = new Set(await admin.listTopics());
    const missing = unlisted.filter((topic) => !now.has(topic));
    if (missing.length > 0) {
      throw new Error(
        `event bus (kafka): KAFKA_TOPIC_PROVISIONING=external and these topics do not exist: ${missing.join(', ')} ` +
          '(create them as docs/DEPLOYMENT.md, "Kafka topics", says)',
      );
    }
  }
  if (history.length === 0) return;
  if (!hasController(await admin.describeCluster())) {
    for (const topic of history) {
      warn(`event bus (kafka): cannot read topic configs (the cluster names no controller broker); ${topic} must keep its whole history: ${HISTORY_SETTINGS_TEXT}`);
    }
    return;
  }
  const changes = await historyChanges(admin, history);
  if (changes.length > 0) {
    throw new Error(
      `event bus (kafka): KAFKA_TOPIC_PROVISIONING=external and ${changes.map((change) => change.name).join(', ')} ` +
        `lack the history settings ${HISTORY_SETTINGS_TEXT}; set them on the topic (nothing was changed)`,
    );
  }
}

/** The AlterConfigs resources that give each of the topics HISTORY_TOPIC_CONFIG (none when all carry it). */
async function historyChanges(admin: TopicAdmin, topics: readonly string[]): Promise<IResourceConfig[]> {
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((name) => ({ type: TOPIC_RESOURCE, name })),
  });
  const ours = new Set(HISTORY_TOPIC_CONFIG.map((entry) => entry.name));
  const changes: IResourceConfig[] = [];
  for (const resource of described.resources) {
    if (resource.errorCode !== 0) {
      throw new Error(`event bus (kafka): cannot read the config of ${resource.resourceName}: ${resource.errorMessage}`);
    }
    const overrides = resource.configEntries.filter((entry) => entry.configSource === TOPIC_CONFIG_SOURCE);
    const settled = HISTORY_TOPIC_CONFIG.every((want) =>
      overrides.some((entry) => entry.configName === want.name && entry.configValue === want.value),
    );
    if (settled) continue;
    // AlterConfigs (kafkajs has no incremental variant) replaces the topic's whole set of overrides:
    // resend the others unchanged, and refuse rather than wipe one whose value the broker hides.
    const kept = overrides.filter((entry) => !ours.has(entry.configName));
    const hidden = kept.find((entry) => entry.isSensitive);
    if (hidden) {
      throw new Error(
        `event bus (kafka): ${resource.resourceName} must keep its history but has the sensitive override ` +
          `${hidden.configName}; set ${HISTORY_SETTINGS_TEXT} by hand`,
      );
    }
    changes.push({
      type: TOPIC_RESOURCE,
      name: resource.resourceName,
      configEntries: [...kept.map((entry) => ({ name: entry.configName, value: entry.configValue })), ...HISTORY_TOPIC_CONFIG],
    });
  }
  return changes;
}

export interface BatchContext {
  readonly handler: MessageHandler;
  readonly batchHandler?: BatchHandler;
  readonly group: string;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly signal: AbortSignal;
  readonly sendDeadLetter: (topic: string, message: ReturnType<typeof encodeMessage>) => Promise<void>;
}

export type BatchPayload = Pick<
  EachBatchPayload,
  'batch' | 'resolveOffset' | 'heartbeat' | 'commitOffsetsIfNecessary' | 'isRunning' | 'isStale'
>;

/**
 * Handles one partition's batch in order. An offset is resolved only once its message succeeded
 * or was produced to the DLQ; on the way out (also when stopping or on an error) the offset after
 * the last finished message is committed, so nothing unfinished is ever committed.
 */
export async function processBatch(payload: BatchPayload, context: BatchContext): Promise<void> {
  const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
  let lastDone: string | null = null;
  /** Marks a message finished: its offset may be committed. */
  const done = async (offset: string): Promise<void> => {
    resolveOffset(offset);
    lastDone = offset;
    await heartbeat();
  };
  const stopped = (): boolean => !isRunning() || isStale() || context.signal.aborted;
  try {
    // In slices of at most MAX_HANDLER_BATCH (a partition's batch can hold thousands): each slice goes
    // to the batch handler, or, without one or when it throws, message by message.
    slices: for (let start = 0; start < batch.messages.length; start += MAX_HANDLER_BATCH) {
      if (stopped()) break;
      const slice = batch.messages.slice(start, start + MAX_HANDLER_BATCH);
      const offer = await offerAsBatch(slice, (raw) => decodeKafkaMessage(batch.topic, raw), context.batchHandler);
      if (offer.taken) {
        await done(slice[slice.length - 1]!.offset);
        continue;
      }
      for (const [index, raw] of slice.entries()) {
        if (stopped()) break slices;
        const message = offer.messageAt(index);
        const outcome = await deliverWithRetries(message, context.handler, { ...context, firstAttempt: 1 });
        if (outcome.kind === 'aborted') break slices;
        if (outcome.kind === 'dead') {
          await context.sendDeadLetter(
            deadLetterTopic(batch.topic),
            encodeMessage(
              message.id,
              message.key,
              deadLetterHeaders(message.headers, batch.topic, outcome.reason, context.group),
              raw.value?.toString() ?? 'null',
            ),
          );
        }
        await done(raw.offset);
      }
    }
  } finally {
    if (lastDone !== null) {
      await commitOffsetsIfNecessary({
        topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: (BigInt(lastDone) + 1n).toString() }] }],
      });
    }
  }
}

class KafkaSubscription implements Subscription {
  readonly #consumer: Consumer;
  readonly #producer: Producer;
  readonly #options: SubscribeOptions;
  readonly #limits: { maxAttempts: number; retryDelayMs: number };
  readonly #controller = new AbortController();
  readonly #onLeft: () => void;
  readonly #onDeadLetter: (topic: string) => void;
  /** The batch being handled (one at a time: partitionsConsumedConcurrently 1). */
  #inflight: Promise<void> | null = null;
  #stopping: Promise<void> | null = null;
  #left: Promise<void> | null = null;

  constructor(consumer: Consumer, producer: Producer, options: SubscribeOptions, onLeft: () => void, onDeadLetter: (topic: string) => void) {
    this.#onDeadLetter = onDeadLetter;
    this.#consumer = consumer;
    this.#producer = producer;
    this.#options = options;
    this.#limits = resolveSubscribeDefaults(options);
    this.#onLeft = onLeft;
  }

  /** The group and topics it consumes (metrics). */
  get options(): Pick<SubscribeOptions, 'group' | 'topics'> {
    return this.#options;
  }

  async start(): Promise<void> {
    await this.#consumer.connect();
    // fromBeginning: a group without committed offsets starts at the earliest retained message (the
    // first one ever on a history topic), not at the end, so a group added later gets the history.
    await this.#consumer.subscribe({ topics: [...this.#options.topics], fromBeginning: true });
    await this.#consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: (payload) => this.#handleBatch(payload),
    });
  }

  #handleBatch(payload: EachBatchPayload): Promise<void> {
    const run = processBatch(payload, {
      handler: this.#options.handler,
      ...(this.#options.batchHandler ? { batchHandler: this.#options.batchHandler } : {}),
      group: this.#options.group,
      ...this.#limits,
      signal: this.#controller.signal,
      sendDeadLetter: async (topic, message) => {
        await this.#producer.send({ topic, acks: -1, messages: [message] });
        this.#onDeadLetter(payload.batch.topic);
      },
    });
    const tracked: Promise<void> = run.finally(() => {
      if (this.#inflight === tracked) this.#inflight = null;
    });
    // kafkajs handles `run`'s failure (a commit refused during a rebalance: the batch comes again); this
    // copy only marks the batch in hand, so its failure must not surface as an unhandled rejection.
    tracked.catch(() => undefined);
    this.#inflight = tracked;
    return run;
  }

  /**
   * Aborts, waits for the batch in hand (it ends after its current message and commits what finished;
   * a batch kafkajs hands over later sees the abort and handles nothing), then leaves the group in the
   * background: kafkajs's disconnect() waits for the fetch in flight, up to its 5 s long poll, and a
   * process stopping its consumers one by one would spend that per group. left() / close() await it.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#controller.abort();
      await this.#inflight?.catch(() => undefined);
      this.#left = this.#consumer.disconnect().finally(() => this.#onLeft());
      this.#left.catch(() => undefined);
    })();
    return this.#stopping;
  }

  /** True once stop() was called (the consumer may still be leaving its group). */
  get stopping(): boolean {
    return this.#stopping !== null;
  }

  /** Resolves once the consumer left its group and closed its connections (after stop()). */
  async left(): Promise<void> {
    await this.stop();
    await this.#left;
  }
}

export class KafkaEventBus implements EventBus {
  readonly #kafka: Kafka;
  readonly #producer: Producer;
  readonly #admin: Admin;
  readonly #config: KafkaEventBusConfig;
  readonly #knownTopics = new Set<string>();
  readonly #warned = new Set<string>();
  readonly #subscriptions = new Set<KafkaSubscription>();
  readonly #observers = new Set<Subscription>();
  readonly #deadLetters = new DeadLetterTally();
  #closed = false;

  private constructor(kafka: Kafka, producer: Producer, admin: Admin, config: KafkaEventBusConfig) {
    this.#kafka = kafka;
    this.#producer = producer;
    this.#admin = admin;
    this.#config = config;
  }

  static async connect(config: KafkaEventBusConfig): Promise<KafkaEventBus> {
    const kafka = new Kafka({ clientId: config.clientId, brokers: [...config.brokers], logLevel: logLevel.WARN });
    // The default partitioner named explicitly (murmur2 of the key, as the Java client): kafkajs warns on
    // every start until it is chosen.
    const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: false, createPartitioner: Partitioners.DefaultPartitioner });
    const admin = kafka.admin();
    await Promise.all([producer.connect(), admin.connect()]);
    return new KafkaEventBus(kafka, producer, admin, config);
  }

  async ensureTopics(topics: readonly string[]): Promise<void> {
    this.#assertOpen();
    const all = await ensureKafkaTopics(this.#admin, topics, {
      numPartitions: this.#config.numPartitions ?? DEFAULT_PARTITIONS,
      replicationFactor: this.#config.replicationFactor ?? DEFAULT_REPLICATION_FACTOR,
      historyTopics: new Set(this.#config.historyTopics ?? HISTORY_TOPICS),
      provisioning: this.#config.topicProvisioning ?? 'admin',
      // Every subscribe ensures its topics again: say each thing once per bus.
      warn: (message) => {
        if (this.#warned.has(message)) return;
        this.#warned.add(message);
        console.warn(message);
      },
    });
    for (const topic of all) this.#knownTopics.add(topic);
  }

  async publish(messages: readonly PublishInput[]): Promise<void> {
    this.#assertOpen();
    if (messages.length === 0) return;
    const byTopic = new Map<string, ReturnType<typeof encodeMessage>[]>();
    for (const message of messages) {
      let list = byTopic.get(message.topic);
      if (!list) {
        await this.#assertTopic(message.topic);
        list = [];
        byTopic.set(message.topic, list);
      }
      list.push(
        encodeMessage(message.id ?? randomUUID(), message.key, message.headers ?? {}, serializePayload(message.payload)),
      );
    }
    await this.#producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })),
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.#assertOpen();
    if (options.topics.length === 0) throw new Error('event bus: subscribe needs at least one topic');
    for (const topic of options.topics) await this.#assertTopic(topic);
    // A member of this group that this bus stopped may still be leaving it (stop() leaves in the background):
    // joining now would rebalance under the new member's first commit (refused, so its batch came twice).
    const leaving = [...this.#subscriptions].filter((s) => s.stopping && s.options.group === options.group);
    await Promise.all(leaving.map((s) => s.left().catch(() => undefined)));
    const consumer = this.#kafka.consumer({
      groupId: options.group,
      allowAutoTopicCreation: false,
      maxBytesPerPartition: MAX_BYTES_PER_PARTITION,
      ...(this.#config.sessionTimeoutMs !== undefined ? { sessionTimeout: this.#config.sessionTimeoutMs } : {}),
      ...(this.#config.fetchMaxWaitMs !== undefined ? { maxWaitTimeInMs: this.#config.fetchMaxWaitMs } : {}),
    });
    const subscription: KafkaSubscription = new KafkaSubscription(
      consumer,
      this.#producer,
      options,
      () => this.#subscriptions.delete(subscription),
      (topic) => this.#deadLetters.count(options.group, topic),
    );
    this.#subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      await subscription.left().catch(() => undefined);
      throw error;
    }
    return subscription;
  }

  /** An observer: a consumer in a group of its own that never commits (kafka-observer.ts). */
  async observe(options: ObserveOptions): Promise<Subscription> {
    this.#assertOpen();
    if (options.topics.length === 0) throw new Error('event bus: observe needs at least one topic');
    for (const topic of options.topics) await this.#assertTopic(topic);
    const observer: Subscription = await startKafkaObserver(
      this.#kafka,
      this.#admin,
      options,
      {
        clientId: this.#config.clientId,
        maxBytesPerPartition: MAX_BYTES_PER_PARTITION,
        decode: decodeKafkaMessage,
        ...(this.#config.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: this.#config.sessionTimeoutMs } : {}),
      },
      () => this.#observers.delete(observer),
    );
    this.#observers.add(observer);
    return observer;
  }

  deadLettered(): readonly DeadLetterCount[] {
    return this.#deadLetters.snapshot();
  }

  /**
   * Per group and topic: the sum over partitions of the end offset minus the group's committed offset
   * (the earliest retained offset when the group has committed none), as the broker reports them.
   */
  async consumerLag(): Promise<readonly ConsumerLag[]> {
    if (this.#closed) return [];
    const byGroup = new Map<string, Set<string>>();
    for (const subscription of this.#subscriptions) {
      const { group, topics } = subscription.options;
      const set = byGroup.get(group) ?? new Set<string>();
      for (const topic of topics) set.add(topic);
      byGroup.set(group, set);
    }
    const answers: ConsumerLag[] = [];
    const ends = new Map<string, Awaited<ReturnType<Admin['fetchTopicOffsets']>>>();
    for (const [group, topics] of byGroup) {
      const committed = await this.#admin.fetchOffsets({ groupId: group, topics: [...topics] });
      for (const { topic, partitions } of committed) {
        let end = ends.get(topic);
        if (!end) {
          end = await this.#admin.fetchTopicOffsets(topic);
          ends.set(topic, end);
        }
        let lag = 0n;
        for (const partition of end) {
          const offset = partitions.find((p) => p.partition === partition.partition)?.offset ?? '-1';
          const from = BigInt(offset) >= 0n ? BigInt(offset) : BigInt(partition.low);
          const behind = BigInt(partition.high) - from;
          if (behind > 0n) lag += behind;
        }
        answers.push({ group, topic, lag: Number(lag) });
      }
    }
    return answers;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.left()));
    await Promise.all([...this.#observers].map((observer) => observer.stop()));
    await Promise.all([this.#producer.disconnect(), this.#admin.disconnect()]);
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('event bus: closed');
  }

  async #assertTopic(topic: string): Promise<void> {
    if (this.#knownTopics.has(topic)) return;
    for (const name of await this.#admin.listTopics()) this.#knownTopics.add(name);
    if (!this.#knownTopics.has(topic)) throw new Error(`event bus: unknown topic ${topic} (call ensureTopics first)`);
  }
}
