/** Discriminated configuration of the event bus adapters (see createEventBus). */

/** Options every adapter shares. */
interface EventBusCommonConfig {
  /**
   * Topics whose whole history is kept so a consumer group added later replays them from the first
   * message. Memory never prunes them, Redis never trims them, Kafka creates them with retention.ms=-1.
   * Their dead-letter topics are not history topics. Default: HISTORY_TOPICS from @skald/contracts, so
   * every bus a tool, test or process opens keeps the same topics whole; suites pass their own list.
   */
  readonly historyTopics?: readonly string[];
}

export interface MemoryEventBusConfig extends EventBusCommonConfig {
  readonly kind: 'memory';
  /** SQLite journal file, e.g. DATA_DIR/bus/journal.db. The folder is created if missing. */
  readonly file: string;
  /**
   * SQLite `synchronous` level. 'normal' (default, WAL) survives a killed process; 'full' also
   * survives power loss at the cost of an fsync per publish.
   */
  readonly synchronous?: 'normal' | 'full';
  /**
   * Rows older than this are pruned even if some group has not consumed them. Default 3 days.
   * Never applied to history topics.
   */
  readonly retentionMs?: number;
  /** Per-topic cap on retained rows; the oldest beyond it are pruned. Default 20 000. Not for history topics. */
  readonly maxMessagesPerTopic?: number;
  /**
   * Flow control: publishing to a topic (not a history topic) waits while a consumer group running on this
   * instance is this many messages behind on it, and fails after `maxBacklogWaitMs` (ingestion answers 503
   * with Retry-After). So producers go at the pace the consumers store, and the per-topic cap never has to
   * drop rows a running group has not read. Default 10 000 (half the default cap).
   */
  readonly maxBacklog?: number;
  /** How long a publish waits for the consumers to get below `maxBacklog` before it fails. Default 2000 ms. */
  readonly maxBacklogWaitMs?: number;
  /** Safety-net poll for publishers in other processes sharing the file. Default 1000 ms. */
  readonly pollIntervalMs?: number;
  /** Receives warnings (e.g. unconsumed rows dropped by retention). Default console.warn. */
  readonly onWarning?: (message: string) => void;
  /**
   * Topics whose payloads this instance's own consumer groups share as ONE deep-frozen object instead of
   * each parsing the row (memory/published-payloads.ts). The publisher's object is frozen by publish(),
   * so only topics whose producers and consumers never mutate a payload belong here. Default: the
   * accepted-logs topic (TOPICS.logsIngested), the one whose parsing cost counts. 'all'
   * shares every topic (the contract suite runs that way too).
   */
  readonly sharedPayloadTopics?: readonly string[] | 'all';
}

export interface RedisEventBusConfig extends EventBusCommonConfig {
  readonly kind: 'redis';
  readonly url: string;
  /** Key prefix of every stream. Default `skald:bus:`. */
  readonly prefix?: string;
  /** A message pending longer than this on a consumer is reclaimed by another (XAUTOCLAIM). Default 30 s. */
  readonly visibilityTimeoutMs?: number;
  /** XREADGROUP BLOCK duration. Default 2000 ms. */
  readonly blockMs?: number;
  /**
   * Approximate per-stream cap (XADD MAXLEN ~); consumed entries are trimmed earlier. Default 100 000.
   * History topics have no cap (their dead-letter streams do).
   */
  readonly maxLen?: number;
  /** How often a subscription trims acknowledged entries of its streams (never a history topic's). Default 10 s. */
  readonly trimIntervalMs?: number;
}

export interface KafkaEventBusConfig extends EventBusCommonConfig {
  readonly kind: 'kafka';
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Replication factor of created topics. Default 3 (production); tests use 1. */
  readonly replicationFactor?: number;
  /** Partitions of created topics. Default 6. */
  readonly numPartitions?: number;
  /**
   * Who creates the topics. 'admin' (default): ensureTopics() creates them and their dead-letter
   * topics through the admin API and gives history topics infinite retention. 'external': the
   * operator provisions them (docs/DEPLOYMENT.md lists names and settings); ensureTopics() creates and
   * alters nothing, only asks for their metadata and refuses to start while one is missing or a
   * history topic lacks its retention settings. Needed on clusters that take no topic admin requests
   * (locked-down managed Kafka, librdkafka's mock cluster, which names no controller broker).
   */
  readonly topicProvisioning?: 'admin' | 'external';
  /**
   * Consumer-group session timeout in ms; default kafkajs's 30 000. A member silent this long (a killed
   * process) is dropped and its partitions go to the others. librdkafka's mock cluster also holds a
   * group's next rebalance this long after its last member left, so the suites there use a short one.
   */
  readonly sessionTimeoutMs?: number;
  /**
   * How long a consumer's fetch waits at the broker when nothing new is there, in ms; default kafkajs's
   * 5 000. Kafka answers as soon as a message arrives, so on a real cluster this only paces idle polling.
   * librdkafka's mock cluster holds an empty fetch for the whole wait even when messages arrive meanwhile,
   * so every first delivery there waited up to 5 s; its suites use a short one.
   */
  readonly fetchMaxWaitMs?: number;
}

export type EventBusConfig = MemoryEventBusConfig | RedisEventBusConfig | KafkaEventBusConfig;
