/**
 * The store's side of its indexing worker (search-index-worker.ts): started when indexing on the store's
 * thread got heavy (sqlite-log-indexing.ts), told of every commit of new rows, retired after a minute with
 * nothing to index (a worker holds 15-18 MiB while it lives; an idle all-in-one should not pay for one),
 * which hands indexing back to the store's thread (`onRetired`). If the worker fails, `onFailed` does the
 * same for good: nothing waits for a worker that is gone.
 */
import { Worker } from 'node:worker_threads';
import { BACKGROUND_THREADS } from '../background-threads.ts';
import type { SearchIndexReply, SearchIndexRequest, SearchIndexWorkerData } from './search-index-messages.ts';

export interface SearchIndexThreadOptions {
  readonly file: string;
  readonly chunkRows: number;
  readonly gatherMs: number;
  /** How long a caught-up worker lives on without new rows. Default 60 s. */
  readonly idleMs?: number;
  /** A chunk ended and released the write lock; `rows` it committed (the WAL grew when > 0). */
  readonly onChunkDone: (rows: number) => void;
  /** The worker retired after being idle; the store indexes on its own thread again. */
  readonly onRetired: () => void;
  /** The worker failed; the store indexes on its own thread from now on. */
  readonly onFailed: (reason: string) => void;
  readonly workerUrl?: URL;
}

const DEFAULT_IDLE_MS = 60_000;

/**
 * While a `stored` message is unanswered (the worker is inside a chunk, or gathering rows), later commits are
 * held and told together with its next reply, or after this many milliseconds, whichever comes first. A
 * message per commit cost ~4% of the store thread under single-log load (a post and a wake-up of the worker
 * per group of ~40 requests); the worker indexes whole chunks of 200 rows and gathers new rows for a second
 * when caught up, so a few milliseconds later changes nothing it does.
 */
const HOLD_MS = 20;

export class SearchIndexThread {
  readonly #options: SearchIndexThreadOptions;
  #worker: Worker | null = null;
  #idle: NodeJS.Timeout | null = null;
  /** Workers asked to close and not closed yet (a retired one, or the last at close()). */
  readonly #closing = new Set<Promise<void>>();
  #failed = false;
  /** A `stored` message went to the worker and no reply came since. */
  #unanswered = false;
  /** Rows and servers committed while a message was unanswered, not told to the worker yet. */
  #heldRows = 0;
  readonly #heldKeys = new Set<number>();
  #holdTimer: NodeJS.Timeout | null = null;

  constructor(options: SearchIndexThreadOptions) {
    this.#options = options;
  }

  /** Whether the worker failed (the store then indexes on its own thread). */
  get failed(): boolean {
    return this.#failed;
  }

  /** Whether a worker runs now (tests and diagnostics). */
  get running(): boolean {
    return this.#worker !== null;
  }

  /** Starts the worker if none runs: it indexes whatever waits. */
  start(): void {
    this.#ensureWorker();
  }

  /** New rows were committed by the store's connection (told now, or with the next batch of commits: HOLD_MS). */
  stored(rows: number, serverKeys: readonly number[]): void {
    if (this.#failed) return;
    this.#clearIdle();
    const worker = this.#ensureWorker();
    this.#heldRows += rows;
    for (const key of serverKeys) this.#heldKeys.add(key);
    if (!this.#unanswered) this.#tell(worker);
    else this.#holdTimer ??= setTimeout(() => this.#tellHeld(), HOLD_MS).unref();
  }

  /** Stops the worker after its chunk under way; resolves once its connection is closed. */
  async close(): Promise<void> {
    this.#clearIdle();
    this.#clearHold();
    const worker = this.#worker;
    this.#worker = null;
    if (worker !== null) this.#retire(worker);
    await Promise.all([...this.#closing]);
  }

  #ensureWorker(): Worker {
    if (this.#worker !== null) return this.#worker;
    const data: SearchIndexWorkerData = { role: 'skald-search-index', file: this.#options.file, chunkRows: this.#options.chunkRows, gatherMs: this.#options.gatherMs };
    const worker = new Worker(this.#options.workerUrl ?? new URL('./search-index-worker.ts', import.meta.url), { workerData: data, name: BACKGROUND_THREADS.searchIndex });
    worker.on('message', (reply: SearchIndexReply) => this.#onReply(worker, reply));
    worker.on('error', (error) => this.#fail(worker, `the search index worker failed: ${String(error)}`));
    worker.on('exit', (code) => this.#fail(worker, `the search index worker exited (code ${code})`));
    // Never what keeps the process alive while it indexes (retiring it refs it again: #retire).
    worker.unref();
    this.#worker = worker;
    // A new worker has been told nothing (what a retired one was told, it indexes from the file at start).
    this.#unanswered = false;
    return worker;
  }

  #send(worker: Worker, request: SearchIndexRequest): void {
    worker.postMessage(request);
  }

  /** Tells the worker of every held commit at once. */
  #tell(worker: Worker): void {
    this.#clearHold();
    if (this.#heldRows === 0) return;
    this.#send(worker, { kind: 'stored', rows: this.#heldRows, serverKeys: [...this.#heldKeys] });
    this.#heldRows = 0;
    this.#heldKeys.clear();
    this.#unanswered = true;
  }

  #tellHeld(): void {
    this.#holdTimer = null;
    if (this.#worker !== null && !this.#failed) this.#tell(this.#worker);
  }

  #onReply(worker: Worker, reply: SearchIndexReply): void {
    if (worker === this.#worker && (reply.kind === 'chunk-done' || reply.kind === 'caught-up')) {
      this.#unanswered = false;
      this.#tell(worker);
    }
    if (reply.kind === 'chunk-done') this.#options.onChunkDone(reply.rows);
    else if (reply.kind === 'caught-up' && worker === this.#worker) this.#retireWhenIdle(worker);
  }

  #retireWhenIdle(worker: Worker): void {
    this.#clearIdle();
    this.#idle = setTimeout(() => {
      this.#idle = null;
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#retire(worker);
      this.#options.onRetired();
    }, this.#options.idleMs ?? DEFAULT_IDLE_MS);
    this.#idle.unref();
  }

  /** Asks the worker to close its connection (never terminated mid-transaction: its lock would stay held). */
  #retire(worker: Worker): void {
    // Someone may await this (close()): the process stays up until the worker answers. A 'message' listener
    // does not ref a Worker that was unref'd, so without this a script whose last work was the store's
    // close() ended with that promise unsettled (exit 13) and the worker's connection never closed.
    worker.ref();
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (reply: SearchIndexReply) => {
        if (reply.kind === 'closed') resolve();
      });
      worker.once('exit', () => resolve());
    });
    const tracked = closed.then(() => {
      this.#closing.delete(tracked);
    });
    this.#closing.add(tracked);
    this.#send(worker, { kind: 'close' });
  }

  #fail(worker: Worker, reason: string): void {
    // A retired worker ends normally; only the current one failing matters.
    if (worker !== this.#worker) return;
    this.#worker = null;
    this.#failed = true;
    this.#clearIdle();
    this.#clearHold();
    this.#options.onFailed(reason);
  }

  #clearHold(): void {
    if (this.#holdTimer !== null) clearTimeout(this.#holdTimer);
    this.#holdTimer = null;
  }

  #clearIdle(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
  }
}
