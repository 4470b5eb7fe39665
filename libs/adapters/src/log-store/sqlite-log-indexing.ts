/**
 * Who indexes the embedded log store's new rows for search, and when (the index itself: sqlite-log-search.ts).
 * 'eager' indexes them before insertBatch returns, 'off' never; 'background' indexes them in small chunks
 * between other work on the store's thread (index-schedule.ts) and, for a store file, moves the indexing to
 * a worker thread of its own while chunks are heavy (search-index-thread.ts), back again once it idles. This
 * module starts and stops that worker and hands it each commit of new rows; the store's connection
 * (sqlite-log-connection.ts) owns the lock they share.
 */
import type { LogRecord } from '@skald/ports';
import { BUSY_GIVE_UP_MS } from './sqlite-log-connection.ts';
import type { LogConnection } from './sqlite-log-connection.ts';
import { DEFAULT_INDEX_CHUNK_ROWS, DEFAULT_INDEX_GATHER_MS, IndexSchedule } from './index-schedule.ts';
import { SearchIndexThread } from './search-index-thread.ts';

export type SearchIndexMode = 'background' | 'eager' | 'off';

export interface LogIndexingOptions {
  readonly mode: SearchIndexMode;
  readonly chunkRows?: number;
  readonly gatherMs?: number;
  readonly workerIdleMs?: number;
  readonly workerChunkMs?: number;
}

const DEFAULT_INDEX_WORKER_CHUNK_MS = 4;
const HEAVY_CHUNKS_BEFORE_WORKER = 2;

export class LogIndexing {
  readonly mode: SearchIndexMode;
  readonly #conn: LogConnection;
  readonly #chunkRows: number;
  readonly #gatherMs: number;
  /** A chunk on this thread longer than this is heavy (see #indexOnThisThread). */
  readonly #workerChunkMs: number;
  /** Background indexing on this thread (see #indexOnThisThread); null while the worker indexes. */
  #schedule: IndexSchedule | null = null;
  /** A store file's indexing worker (its own connection), for heavy indexing. */
  #thread: SearchIndexThread | null = null;

  constructor(conn: LogConnection, file: string, options: LogIndexingOptions) {
    this.#conn = conn;
    this.mode = options.mode;
    this.#chunkRows = options.chunkRows ?? DEFAULT_INDEX_CHUNK_ROWS;
    this.#gatherMs = options.gatherMs ?? DEFAULT_INDEX_GATHER_MS;
    this.#workerChunkMs = options.workerChunkMs ?? DEFAULT_INDEX_WORKER_CHUNK_MS;
    if (this.mode !== 'background') return;
    if (file !== ':memory:') {
      this.#thread = new SearchIndexThread({
        file,
        chunkRows: this.#chunkRows,
        gatherMs: this.#gatherMs,
        ...(options.workerIdleMs === undefined ? {} : { idleMs: options.workerIdleMs }),
        onChunkDone: (rows) => {
          if (rows > 0) conn.wrote();
          // The lock is free: writes waiting for it go now rather than at the end of their backoff.
          conn.wakeWriters();
        },
        onRetired: () => this.#indexOnThisThread(false),
        onFailed: (reason) => {
          process.emitWarning(`log store: ${reason}; indexing on the store's thread from now on`);
          this.#indexOnThisThread(true);
        },
      });
      conn.shareWithIndexWorker();
    }
    // A migrated file's rows (and any a restart left unindexed) are indexed from the start.
    this.#indexOnThisThread(true);
  }

  /**
   * Background indexing on this thread: while its chunks stay light (a few rows now and then, an idle
   * server), no worker is started (an idle all-in-one keeps its memory); once chunks get heavy (a backlog,
   * logs arriving by thousands: 200 rows take 6-20 ms, the requests meanwhile wait) a store file moves the
   * indexing to its worker thread until the worker has been idle a while (search-index-thread.ts).
   */
  #indexOnThisThread(kick: boolean): void {
    // The worker is gone (retired or failed): nothing of it holds the lock any more.
    this.#conn.wakeWriters();
    this.#schedule?.stop();
    this.#schedule = null;
    // A worker that ended after the store closed hands nothing back.
    if (!this.#conn.db.isOpen) return;
    let heavyInARow = 0;
    this.#schedule = new IndexSchedule({ chunkRows: this.#chunkRows, gatherMs: this.#gatherMs }, (maxRows) => {
      const started = performance.now();
      const rows = this.#conn.transaction(() => this.#conn.indexer.indexChunk(maxRows));
      const took = performance.now() - started;
      // Heavy: a whole chunk (rows keep coming or a backlog waits) that took long. A slow chunk of a few rows
      // is a cold start (statements compiled, pages read), not load: it moves nothing.
      heavyInARow = rows === maxRows && took > this.#workerChunkMs ? heavyInARow + 1 : 0;
      if (heavyInARow >= HEAVY_CHUNKS_BEFORE_WORKER) this.#moveToWorker();
      return rows;
    });
    if (kick) this.#schedule.kick();
  }

  #moveToWorker(): void {
    const thread = this.#thread;
    if (thread === null || thread.failed || thread.running) return;
    this.#schedule?.stop();
    this.#schedule = null;
    thread.start();
  }

  /** Whether the indexing worker runs now (diagnostics and tests; false when indexing is not on a worker). */
  get workerRunning(): boolean {
    return this.#thread?.running ?? false;
  }

  /** `inserted` new rows of these records were committed: whoever indexes now hears of them. */
  stored(inserted: number, records: readonly LogRecord[]): void {
    if (inserted === 0) return;
    if (this.mode === 'eager') this.indexPending();
    else if (this.#thread?.running) this.#thread.stored(inserted, this.#serverKeysOf(records));
    else this.#schedule?.stored(inserted);
  }

  /** The server keys of stored records (a batch is one server's, so this is nearly always one key). */
  #serverKeysOf(records: readonly LogRecord[]): number[] {
    const keys = new Set<number>();
    let last: string | undefined;
    for (const record of records) {
      if (record.serverId === last) continue;
      last = record.serverId;
      const key = this.#conn.serverKey(record.serverId, false);
      if (key !== undefined) keys.add(key);
    }
    return [...keys];
  }

  /** Indexes up to `max` rows not indexed yet, now (the 'eager' mode, tests and the benchmark); answers how many. */
  indexPending(max = Number.POSITIVE_INFINITY): number {
    const conn = this.#conn;
    // Synchronous by contract, so beside the indexing worker it waits for the worker's lock on this thread.
    if (conn.shared) conn.db.exec(`PRAGMA busy_timeout = ${BUSY_GIVE_UP_MS}`);
    try {
      let total = 0;
      while (total < max) {
        const chunk = Math.min(5000, max - total);
        const indexed = conn.transaction(() => conn.indexer.indexChunk(chunk));
        total += indexed;
        if (indexed < chunk) break;
      }
      return total;
    } finally {
      if (conn.shared) conn.db.exec('PRAGMA busy_timeout = 0');
    }
  }

  /** Stops indexing; the worker finishes its chunk and closes its connection before this resolves. */
  async close(): Promise<void> {
    this.#schedule?.stop();
    await this.#thread?.close();
  }
}
