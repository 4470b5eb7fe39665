/**
 * The journal bus's observers (EventBus.observe): one loop per topic that reads the journal after the
 * topic's newest row at start, in seq order, and keeps its position in memory only. Nothing is written
 * to the journal (no group offset), so an observer neither holds back pruning nor leaves anything
 * behind. It reads what pruning has not yet removed: pruning runs every few seconds and only removes
 * rows every group has passed (or past retention), so an observer that keeps up misses nothing.
 */
import type { ObserveOptions, Subscription } from '@skald/ports';
import { describeFailure, sleep } from '../delivery.ts';
import { deliverToObserver } from '../observation.ts';
import type { Journal, JournalRow } from './journal.ts';
import { PublishWait } from './wakeups.ts';

const FETCH_BATCH = 64;
const ERROR_BACKOFF_MS = 1_000;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

class TopicObserver {
  readonly #journal: Journal;
  readonly #topic: string;
  readonly #options: ObserveOptions;
  readonly #signal: AbortSignal;
  readonly #publishes: PublishWait;
  readonly #warn: (message: string) => void;
  #cursor: number;
  readonly done: Promise<void>;

  constructor(journal: Journal, topic: string, options: ObserveOptions, signal: AbortSignal, pollIntervalMs: number, warn: (message: string) => void) {
    this.#journal = journal;
    this.#topic = topic;
    this.#options = options;
    this.#signal = signal;
    this.#publishes = new PublishWait(pollIntervalMs, signal);
    this.#warn = warn;
    // Synchronous, before observe() resolves: every row appended afterwards has a greater seq.
    this.#cursor = journal.lastSeq(topic);
    this.done = this.#run();
  }

  get topic(): string {
    return this.#topic;
  }

  notify(): void {
    this.#publishes.notify();
  }

  async #run(): Promise<void> {
    while (!this.#signal.aborted) {
      try {
        this.#publishes.clear();
        const rows = this.#journal.fetch(this.#topic, this.#cursor, FETCH_BATCH);
        if (rows.length === 0) {
          await this.#publishes.wait();
          continue;
        }
        for (const row of rows) {
          if (this.#signal.aborted) return;
          if (this.#options.filter?.(row.key, this.#topic) !== false) await this.#deliver(row);
          this.#cursor = row.seq;
        }
        // Same reason as the group consumer: a handler that publishes must not keep this loop in the microtask queue.
        await yieldToEventLoop();
        if (rows.length < FETCH_BATCH) await this.#publishes.wait();
      } catch (error) {
        this.#warn(`event bus: observer of ${this.#topic} failed, retrying: ${describeFailure(error)}`);
        await sleep(ERROR_BACKOFF_MS, this.#signal);
      }
    }
  }


  #deliver(row: JournalRow): Promise<void> {
    return deliverToObserver(
      { id: row.id, topic: this.#topic, key: row.key, payload: JSON.parse(row.payload ?? this.#journal.payloadOf(row.seq)) as unknown, headers: JSON.parse(row.headers) as Record<string, string> },
      this.#options,
    );
  }
}

/** Starts one observer over the topics; `onStopped` runs once it has stopped. Wake it with `notify(topics)`. */
export function startJournalObserver(
  journal: Journal,
  options: ObserveOptions,
  pollIntervalMs: number,
  warn: (message: string) => void,
  onStopped: () => void,
): Subscription & { notify(topics: ReadonlySet<string>): void } {
  const controller = new AbortController();
  const loops = [...new Set(options.topics)].map((topic) => new TopicObserver(journal, topic, options, controller.signal, pollIntervalMs, warn));
  let stopped: Promise<void> | null = null;
  return {
    notify(topics) {
      for (const loop of loops) if (topics.has(loop.topic)) loop.notify();
    },
    stop() {
      stopped ??= (async () => {
        controller.abort();
        await Promise.all(loops.map((loop) => loop.done));
        onStopped();
      })();
      return stopped;
    },
  };
}
