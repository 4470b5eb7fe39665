/**
 * Event bus port: at-least-once delivery of keyed messages to consumer groups.
 *
 * Adapters: in-process (durable SQLite journal, all-in-one), Redis Streams, Kafka.
 * Every adapter passes the one contract suite in libs/ports/contract/event-bus.contract.ts.
 */

export interface BusMessage {
  /** Unique id given by the publisher; consumers deduplicate on it. */
  readonly id: string;
  readonly topic: string;
  /** Partition key: messages with the same key are delivered in publish order. */
  readonly key: string;
  /** Parsed JSON payload. Consumers validate it before use. */
  readonly payload: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** 1 on first delivery; grows with each redelivery after a failed handler. */
  readonly attempt: number;
}

export interface PublishInput {
  readonly topic: string;
  readonly key: string;
  readonly payload: unknown;
  /** Defaults to a fresh random id. */
  readonly id?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export type MessageHandler = (message: BusMessage) => Promise<void>;

/** Handles several messages of one topic at once, in delivery order (SubscribeOptions.batchHandler). */
export type BatchHandler = (messages: readonly BusMessage[]) => Promise<void>;

/** The most messages an adapter hands a batch handler at once. */
export const MAX_HANDLER_BATCH = 64;

export interface SubscribeOptions {
  /** Consumer group: each group receives every message once (at least once). */
  readonly group: string;
  readonly topics: readonly string[];
  readonly handler: MessageHandler;
  /**
   * Optional: takes the messages one read of the bus brought (several, all of one topic, in delivery
   * order, at most MAX_HANDLER_BATCH), so a consumer can do its work for all of them at once (one
   * transaction). Resolving completes every one of them (committed together). Throwing, for whatever
   * reason, hands the same messages to `handler` one by one, with the usual retries and dead-lettering:
   * one bad message never holds up the others and is dead-lettered alone. The batch try counts as no
   * message's attempt. A read that brought a single message (or redeliveries) goes to `handler`.
   * So the batch handler's work must be what `handler` would do for each message.
   */
  readonly batchHandler?: BatchHandler;
  /** Failed attempts before the message goes to the dead-letter topic. Default 5. */
  readonly maxAttempts?: number;
  /** Delay before redelivering a failed message. Default 200 ms. */
  readonly retryDelayMs?: number;
}

/**
 * An observer: this bus instance's own view of every message published on the topics from the moment
 * observe() resolved (broadcast: every observer gets every message, whichever process it runs in).
 * It is not a consumer group: nothing is committed, retried or dead-lettered, nothing is left in the
 * bus when it stops, and the groups' delivery and lag are unaffected. For live views (the logs
 * service's live tail); durable work belongs in a group.
 */
export interface ObserveOptions {
  readonly topics: readonly string[];
  /**
   * Called once per message, one at a time, in publish order per key (per topic on the journal and
   * Redis). A failure is handed to onError and the observer moves on to the next message.
   */
  readonly handler: MessageHandler;
  /** Receives a handler failure (the message is not delivered again). Default console.warn. */
  readonly onError?: (error: unknown, message: BusMessage) => void;
  /**
   * Asked with each message's key (and topic) before its payload is even parsed: false skips the message
   * (the observer's position still moves past it). For an observer that follows a few keys of a busy topic.
   */
  readonly filter?: (key: string, topic: string) => boolean;
}

export interface Subscription {
  /** Stops fetching, waits for in-flight handlers, commits what they finished. */
  stop(): Promise<void>;
}

/**
 * Thrown by a handler (or a validating wrapper) for a message that can never succeed,
 * e.g. it fails its schema. Adapters send it to the dead-letter topic at once, without retries.
 */
export class PoisonMessageError extends Error {
  override readonly name = 'PoisonMessageError';
}

/** Dead-letter topic of a topic. Dead letters carry headers `x-dead-letter-reason`, `x-original-topic`. */
export function deadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

/** How far a consumer group is behind on one topic (metrics). */
export interface ConsumerLag {
  readonly group: string;
  readonly topic: string;
  /** Messages on the topic that the group has not committed yet. */
  readonly lag: number;
}

/** Messages a consumer group moved to a topic's dead-letter topic (metrics). */
export interface DeadLetterCount {
  readonly group: string;
  /** The original topic (the letters are on its `.dlq`). */
  readonly topic: string;
  /** Since this bus instance opened. */
  readonly count: number;
}

export interface EventBus {
  /** Creates the topics (and their dead-letter topics) explicitly; adapters never auto-create. */
  ensureTopics(topics: readonly string[]): Promise<void>;
  /** Resolves only once every message is durably accepted by the bus. */
  publish(messages: readonly PublishInput[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /**
   * Starts an observer (ObserveOptions) at the newest message of each topic: it receives every message
   * published after the returned promise resolved, and none from before. Messages reach it with
   * `attempt` 1. stop() ends it and releases whatever it held (connections; no position stays behind).
   */
  observe(options: ObserveOptions): Promise<Subscription>;
  /** Stops all subscriptions (committing finished work) and releases connections. */
  close(): Promise<void>;
  /**
   * The lag of every group this bus instance subscribed (one entry per group and topic), for metrics.
   * Optional: an adapter that cannot tell leaves it out; every adapter of this repository has it.
   */
  consumerLag?(): Promise<readonly ConsumerLag[]>;
  /** Dead letters this bus instance's consumers produced, per group and topic. Optional like consumerLag. */
  deadLettered?(): readonly DeadLetterCount[];
}
