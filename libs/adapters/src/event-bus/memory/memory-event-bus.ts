/**
 * In-process event bus for all-in-one mode, durable through a SQLite journal (see journal.ts).
 *
 * Guarantees:
 * - publish() commits the rows before it resolves: an acknowledged message survives SIGKILL.
 * - Each (group, topic) is consumed by one loop, strictly in publish order, so per-key order holds
 *   (and so does total order per topic). Topics are consumed concurrently.
 * - At least once: the offset is committed after the handler succeeded (or the message was
 *   dead-lettered, in the same transaction). After a restart, groups resume at their offset.
 * - A subscription with a batch handler gets each fetched page (up to 64 rows) in one call and commits
 *   it at once; a page the batch handler fails goes through the per-message path above.
 * - A failing handler is retried in place every retryDelayMs; after maxAttempts, or at once for a
 *   PoisonMessageError, the message goes to `<topic>.dlq` and the group moves on.
 * - Rows every group has passed are pruned; retention age and a per-topic cap bound the file.
 *   History topics (config.historyTopics) are never pruned, by none of the three rules, so a
 *   consumer group added later replays them from the first message.
 * - A new group starts at the oldest retained row (offset 0), never at the end of the topic.
 * - One active subscription per (group, topic) per bus instance: this bus has no partitions to
 *   share between competing consumers.
 * - Flow control: a publish to a normal topic waits while one of this instance's consumer groups on it is
 *   `maxBacklog` messages behind, and fails after `maxBacklogWaitMs` (the producer refuses the request with
 *   a retry hint) rather than letting the backlog reach the per-topic cap, which drops unread rows.
 * - A payload this instance published on a shared topic (config sharedPayloadTopics, by default the
 *   accepted logs) is handed to this instance's consumer groups as ONE deep-frozen object, the very
 *   value JSON parsing its row would give (published-payloads.ts), instead of each group reading and
 *   parsing the row; rows from elsewhere, or after a restart, are parsed as ever.
 */
import { randomUUID } from 'node:crypto';
import { HISTORY_TOPICS, TOPICS } from '@skald/contracts';
import { deadLetterTopic, MAX_HANDLER_BATCH } from '@skald/ports';
import type { BusMessage, ConsumerLag, DeadLetterCount, EventBus, ObserveOptions, PublishInput, SubscribeOptions, Subscription } from '@skald/ports';
import type { MemoryEventBusConfig } from '../config.ts';
import { DeadLetterTally, deadLetterHeaders, deliverWithRetries, describeFailure, offerAsBatch, resolveSubscribeDefaults, sleep } from '../delivery.ts';
import { startJournalObserver } from './journal-observer.ts';
import { Journal } from './journal.ts';
import { PublishedPayloads } from './published-payloads.ts';
import type { JournalRow, NewJournalRow } from './journal.ts';
import { announcePublish, listenForPublishes, PublishWait } from './wakeups.ts';

/** A page of the journal: what one read hands a batch handler at most. */
const FETCH_BATCH = MAX_HANDLER_BATCH;
const PRUNE_INTERVAL_MS = 5_000;
const DEFAULT_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;
const DEFAULT_MAX_MESSAGES_PER_TOPIC = 20_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const ERROR_BACKOFF_MS = 1_000;
const DEFAULT_MAX_BACKLOG = 10_000;
const DEFAULT_MAX_BACKLOG_WAIT_MS = 2_000;

/** Resolves in the check phase, after the timers and I/O callbacks that are due have run. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function serializePayload(payload: unknown): string {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('event bus: payload must be JSON-serializable');
  return text;
}

/** One consuming loop of one subscription on one topic. */
class TopicConsumer {
  readonly #journal: Journal;
  /** Null on a topic whose payloads are not shared: every row is parsed. */
  readonly #published: PublishedPayloads | null;
  readonly #topic: string;
  readonly #options: SubscribeOptions;
  readonly #limits: { maxAttempts: number; retryDelayMs: number };
  readonly #signal: AbortSignal;
  readonly #publishes: PublishWait;
  readonly #journalFile: string;
  readonly #warn: (message: string) => void;
  readonly #onDeadLetter: () => void;
  #cursor: number;
  /** Rows of the topic this loop has not committed yet (an estimate kept exact enough for flow control). */
  #backlog: number;
  readonly #onProgress: () => void;
  readonly done: Promise<void>;

  constructor(
    journal: Journal,
    published: PublishedPayloads | null,
    journalFile: string,
    topic: string,
    options: SubscribeOptions,
    signal: AbortSignal,
    pollIntervalMs: number,
    warn: (message: string) => void,
    onDeadLetter: () => void,
    onProgress: () => void,
  ) {
    this.#onDeadLetter = onDeadLetter;
    this.#onProgress = onProgress;
    this.#warn = warn;
    this.#journal = journal;
    this.#published = published;
    this.#journalFile = journalFile;
    this.#topic = topic;
    this.#options = options;
    this.#limits = resolveSubscribeDefaults(options);
    this.#signal = signal;
    this.#publishes = new PublishWait(pollIntervalMs, signal);
    this.#cursor = journal.joinGroup(options.group, topic);
    this.#backlog = journal.lag(options.group, topic);
    this.done = this.#run();
  }

  notify(): void {
    this.#publishes.notify();
  }

  get topic(): string {
    return this.#topic;
  }

  /** Messages of the topic this loop has not committed (flow control reads it on every publish). */
  get backlog(): number {
    return this.#backlog;
  }

  /** This instance appended `count` rows to the topic. */
  published(count: number): void {
    this.#backlog += count;
  }

  async #run(): Promise<void> {
    while (!this.#signal.aborted) {
      try {
        // Cleared before the (synchronous) fetch: a publish after it sets the flag again.
        this.#publishes.clear();
        const rows = this.#journal.fetch(this.#topic, this.#cursor, FETCH_BATCH, this.#published === null);
        // A short page is everything committed so far (rows of other processes, rows pruned meanwhile
        // included): the estimate starts again from the truth; publishes after this fetch add to it.
        if (rows.length < FETCH_BATCH) this.#backlog = rows.length;
        if (rows.length === 0) {
          await this.#publishes.wait();
          continue;
        }
        const offer = await offerAsBatch(rows, (row) => this.#messageOf(row), this.#options.batchHandler);
        if (offer.taken) {
          this.#committed(rows[rows.length - 1]!.seq, rows.length);
        } else {
          for (const [index, row] of rows.entries()) {
            if (this.#signal.aborted) return;
            if (!(await this.#deliver(row, offer.messageAt(index)))) return;
          }
        }
        // Everything above is synchronous SQLite plus promises, and a publish in this process settles
        // the wait below at once: without a macrotask here, a handler that publishes as fast as it
        // consumes keeps this loop in the microtask queue for good, and the process's timers and
        // sockets never run again (/health stopped answering). One yield per page.
        await yieldToEventLoop();
        // A short page was everything committed at fetch time; anything published in this process
        // since has woken #publishes (so this returns at once), and other processes are covered by the poll
        // timer. Waiting here saves the empty fetch that would otherwise follow every delivery.
        if (rows.length < FETCH_BATCH) await this.#publishes.wait();
      } catch (error) {
        // E.g. SQLITE_BUSY from another process holding the write lock: the row was not
        // committed, so it is delivered again after the pause (at least once).
        this.#warn(`event bus: consumer ${this.#options.group} on ${this.#topic} failed, retrying: ${describeFailure(error)}`);
        await sleep(ERROR_BACKOFF_MS, this.#signal);
      }
    }
  }


  #messageOf(row: JournalRow): Omit<BusMessage, 'attempt'> {
    return {
      id: row.id,
      topic: this.#topic,
      key: row.key,
      payload: this.#payloadOf(row),
      headers: JSON.parse(row.headers) as Record<string, string>,
    };
  }

  /** Returns false when stopped mid-retry: the row stays uncommitted and is redelivered later. */
  async #deliver(row: JournalRow, message: Omit<BusMessage, 'attempt'>): Promise<boolean> {
    const outcome = await deliverWithRetries(message, this.#options.handler, {
      ...this.#limits,
      firstAttempt: 1,
      signal: this.#signal,
    });
    if (outcome.kind === 'aborted') return false;
    const deadLetter: NewJournalRow | undefined =
      outcome.kind === 'dead'
        ? {
            topic: deadLetterTopic(this.#topic),
            id: row.id,
            key: row.key,
            headers: JSON.stringify(deadLetterHeaders(message.headers, this.#topic, outcome.reason, this.#options.group)),
            payload: row.payload ?? this.#journal.payloadOf(row.seq),
          }
        : undefined;
    this.#committed(row.seq, 1, deadLetter);
    if (deadLetter) {
      this.#onDeadLetter();
      announcePublish(this.#journalFile, new Set([deadLetter.topic]));
    }
    return true;
  }

  /** Commits the group's offset at `seq` (`count` rows done since the last commit), with a dead letter in the same transaction. */
  #committed(seq: number, count: number, deadLetter?: NewJournalRow): void {
    this.#journal.commit(this.#options.group, this.#topic, seq, deadLetter);
    this.#cursor = seq;
    this.#backlog = Math.max(0, this.#backlog - count);
    this.#onProgress();
  }

  /** The shared copy this instance published, else the row's text parsed (read now if fetch left it out). */
  #payloadOf(row: JournalRow): unknown {
    if (row.payload !== null) return JSON.parse(row.payload) as unknown;
    const shared = this.#published?.take(row.seq);
    if (shared !== undefined) return shared;
    return JSON.parse(this.#journal.payloadOf(row.seq)) as unknown;
  }
}

export class MemoryEventBus implements EventBus {
  readonly #config: MemoryEventBusConfig;
  readonly #journal: Journal;
  readonly #published = new PublishedPayloads();
  readonly #sharedTopics: ReadonlySet<string> | 'all';
  readonly #historyTopics: ReadonlySet<string>;
  #knownTopics: Set<string>;
  readonly #consumers = new Map<string, TopicConsumer>();
  readonly #subscriptions = new Set<Subscription>();
  readonly #observers = new Set<ReturnType<typeof startJournalObserver>>();
  readonly #deadLetters = new DeadLetterTally();
  /** Publishes waiting for a consumer to get below maxBacklog; woken by every commit. */
  readonly #paced = new Set<() => void>();
  readonly #stopListening: () => void;
  readonly #pruneTimer: NodeJS.Timeout;
  #closed = false;

  constructor(config: MemoryEventBusConfig) {
    this.#config = config;
    this.#historyTopics = new Set(config.historyTopics ?? HISTORY_TOPICS);
    const shared = config.sharedPayloadTopics ?? [TOPICS.logsIngested];
    this.#sharedTopics = shared === 'all' ? 'all' : new Set(shared);
    this.#journal = new Journal(config.file, config.synchronous ?? 'normal');
    this.#knownTopics = this.#journal.topics();
    this.#stopListening = listenForPublishes(config.file, (topics) => {
      for (const [slot, consumer] of this.#consumers) {
        if (topics.has(slot.slice(slot.indexOf('\n') + 1))) consumer.notify();
      }
      for (const observer of this.#observers) observer.notify(topics);
    });
    this.#pruneTimer = setInterval(() => {
      try {
        this.prune();
      } catch (error) {
        // Housekeeping only: try again next tick rather than crash the process.
        this.#warn(`event bus: pruning the journal failed: ${describeFailure(error)}`);
      }
    }, PRUNE_INTERVAL_MS);
    this.#pruneTimer.unref();
  }

  async ensureTopics(topics: readonly string[]): Promise<void> {
    this.#assertOpen();
    const all = topics.flatMap((topic) => [topic, deadLetterTopic(topic)]);
    this.#journal.ensureTopics(all);
    for (const topic of all) this.#knownTopics.add(topic);
  }

  async publish(messages: readonly PublishInput[]): Promise<void> {
    this.#assertOpen();
    if (messages.length === 0) return;
    for (const message of messages) this.#assertTopic(message.topic);
    for (const topic of new Set(messages.map((message) => message.topic))) await this.#pace(topic);
    this.#assertOpen();
    const rows: NewJournalRow[] = messages.map((message) => {
      return {
        topic: message.topic,
        id: message.id ?? randomUUID(),
        key: message.key,
        headers: JSON.stringify(message.headers ?? {}),
        payload: serializePayload(message.payload),
      };
    });
    const seqs = this.#journal.append(rows, Date.now());
    // Flow control's estimate: every loop on a topic is one row further behind per row appended to it.
    for (const consumer of this.#consumers.values()) {
      const appended = rows.reduce((count, row) => (row.topic === consumer.topic ? count + 1 : count), 0);
      if (appended > 0) consumer.published(appended);
    }
    // Only once committed: a consumer may take the shared copy from now on.
    for (let i = 0; i < rows.length; i++) {
      if (!this.#shares(rows[i]!.topic)) continue;
      this.#published.keep(seqs[i]!, messages[i]!.payload, rows[i]!.payload.length, this.#consumersOn(rows[i]!.topic));
    }
    announcePublish(this.#config.file, new Set(rows.map((row) => row.topic)));
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.#assertOpen();
    if (options.topics.length === 0) throw new Error('event bus: subscribe needs at least one topic');
    const slots = options.topics.map((topic) => {
      this.#assertTopic(topic);
      const slot = `${options.group}\n${topic}`;
      if (this.#consumers.has(slot)) {
        throw new Error(`event bus: group ${options.group} already has an active subscription on ${topic}`);
      }
      return { slot, topic };
    });
    const controller = new AbortController();
    const consumers = slots.map(({ slot, topic }) => {
      const consumer = new TopicConsumer(
        this.#journal,
        this.#shares(topic) ? this.#published : null,
        this.#config.file,
        topic,
        options,
        controller.signal,
        this.#config.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
        this.#warn,
        () => this.#deadLetters.count(options.group, topic),
        () => this.#progressed(),
      );
      this.#consumers.set(slot, consumer);
      return { slot, consumer };
    });
    let stopped: Promise<void> | null = null;
    const subscription: Subscription = {
      stop: () => {
        stopped ??= (async () => {
          controller.abort();
          await Promise.all(consumers.map(({ consumer }) => consumer.done));
          for (const { slot, consumer } of consumers) {
            if (this.#consumers.get(slot) === consumer) this.#consumers.delete(slot);
          }
          this.#subscriptions.delete(subscription);
          // A stopped group paces nobody: publishes waiting on it look again.
          this.#progressed();
        })();
        return stopped;
      },
    };
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async observe(options: ObserveOptions): Promise<Subscription> {
    this.#assertOpen();
    if (options.topics.length === 0) throw new Error('event bus: observe needs at least one topic');
    for (const topic of options.topics) this.#assertTopic(topic);
    const observer = startJournalObserver(this.#journal, options, this.#config.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, this.#warn, () =>
      this.#observers.delete(observer),
    );
    this.#observers.add(observer);
    return observer;
  }

  /** Deletes consumed and expired rows of every topic but the history topics; runs on a timer, exposed for tests. */
  prune(now = Date.now()): { deleted: number; droppedUnconsumed: number } {
    if (this.#closed) return { deleted: 0, droppedUnconsumed: 0 };
    const result = this.#journal.prune({
      now,
      retentionMs: this.#config.retentionMs ?? DEFAULT_RETENTION_MS,
      maxMessagesPerTopic: this.#config.maxMessagesPerTopic ?? DEFAULT_MAX_MESSAGES_PER_TOPIC,
      historyTopics: this.#historyTopics,
    });
    if (result.droppedUnconsumed > 0) {
      this.#warn(`event bus: retention dropped ${result.droppedUnconsumed} messages some consumer group had not consumed`);
    }
    return result;
  }

  /**
   * Waits while a consumer loop of this instance on `topic` is maxBacklog messages behind (flow control, see
   * the file comment); throws once maxBacklogWaitMs has passed. History topics are never pruned: not paced.
   */
  async #pace(topic: string): Promise<void> {
    if (this.#historyTopics.has(topic)) return;
    const limit = this.#config.maxBacklog ?? DEFAULT_MAX_BACKLOG;
    let behind = this.#mostBehind(topic);
    if (behind < limit) return;
    const deadline = Date.now() + (this.#config.maxBacklogWaitMs ?? DEFAULT_MAX_BACKLOG_WAIT_MS);
    while (behind >= limit) {
      const left = deadline - Date.now();
      if (left <= 0 || this.#closed) {
        throw new Error(`event bus: a consumer group of ${topic} is ${behind} messages behind (limit ${limit}); publish refused, try again later`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#paced.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#paced.add(wake);
      });
      behind = this.#mostBehind(topic);
    }
  }

  #mostBehind(topic: string): number {
    let most = 0;
    for (const consumer of this.#consumers.values()) if (consumer.topic === topic && consumer.backlog > most) most = consumer.backlog;
    return most;
  }

  #progressed(): void {
    if (this.#paced.size === 0) return;
    for (const wake of [...this.#paced]) wake();
  }

  async consumerLag(): Promise<readonly ConsumerLag[]> {
    if (this.#closed) return [];
    return [...this.#consumers.keys()].map((slot) => {
      const cut = slot.indexOf('\n');
      const group = slot.slice(0, cut);
      const topic = slot.slice(cut + 1);
      return { group, topic, lag: this.#journal.lag(group, topic) };
    });
  }

  deadLettered(): readonly DeadLetterCount[] {
    return this.#deadLetters.snapshot();
  }

  #shares(topic: string): boolean {
    return this.#sharedTopics === 'all' || this.#sharedTopics.has(topic);
  }

  /** Consumer loops of this instance on the topic: the takers of a payload published to it now. */
  #consumersOn(topic: string): number {
    let count = 0;
    for (const consumer of this.#consumers.values()) if (consumer.topic === topic) count++;
    return count;
  }

  /** Payloads kept in memory for this instance's consumers (tests and diagnostics). */
  sharedPayloads(): number {
    return this.#published.size;
  }

  /** Rows retained for a topic (tests and diagnostics). */
  retainedCount(topic: string): number {
    return this.#journal.count(topic);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await Promise.all([...this.#subscriptions, ...this.#observers].map((subscription) => subscription.stop()));
    this.#closed = true;
    clearInterval(this.#pruneTimer);
    this.#stopListening();
    this.#published.clear();
    await this.#journal.close();
  }

  readonly #warn = (message: string): void => (this.#config.onWarning ?? console.warn)(message);

  #assertOpen(): void {
    if (this.#closed) throw new Error('event bus: closed');
  }

  #assertTopic(topic: string): void {
    if (this.#knownTopics.has(topic)) return;
    // Another process (or bus instance) on the same file may have ensured it since.
    this.#knownTopics = this.#journal.topics();
    if (!this.#knownTopics.has(topic)) throw new Error(`event bus: unknown topic ${topic} (call ensureTopics first)`);
  }
}
