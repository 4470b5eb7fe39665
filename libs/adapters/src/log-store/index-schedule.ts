/**
 * When the background search indexer runs its next chunk (one transaction of sqlite-log-search.ts's
 * SearchIndexer). One policy for both places it runs: the indexing worker thread of a store file
 * (search-index-worker.ts) and the store's own thread (an in-memory store, or after the worker failed).
 *
 * - Behind: chunk after chunk, each in its own turn; while logs keep arriving, after a chunk of t ms it
 *   waits INGEST_SHARE_PER_INDEX_SHARE x t (the indexer takes at most a tenth of the time, so ingest keeps
 *   over 80% of its rate and the backlog waits).
 * - Caught up (a chunk found fewer rows than a chunk): new rows gather until a chunk's worth has arrived or
 *   `gatherMs` passed since the first of them. Every chunk is one FTS5 segment written at its commit and
 *   merged later, so its cost is mostly per chunk: under single-log load the consumer stores groups of ~45
 *   logs, and indexing each group on its own took ~23% of the process's busy time, 200-row chunks ~9%
 *   (CPU profiles of the pinned bench, docs/PERFORMANCE.md). Searches stay exact meanwhile: the rows ahead
 *   of the indexer are scanned.
 * - A failed chunk (a busy or full disk): nothing is lost (the rows stay waiting and searches scan them);
 *   it tries again `retryMs` later rather than throw from a timer.
 */

/**
 * While logs arrive, the indexer waits this many times the length of its last chunk (a tenth of the time).
 * Measured per CPU-second with a seventh (6): ingest with the index on kept 84% of off, too close to the
 * 80% bar for a wall-clock bench on a shared machine; a tenth bounds the loss at 10%.
 */
export const INGEST_SHARE_PER_INDEX_SHARE = 9;
export const DEFAULT_INDEX_CHUNK_ROWS = 200;
export const DEFAULT_INDEX_GATHER_MS = 1_000;
const DEFAULT_RETRY_MS = 5_000;

export interface IndexScheduleSettings {
  /** Rows per chunk (one transaction). */
  readonly chunkRows: number;
  /** Once caught up, how long new rows may wait for a chunk's worth. */
  readonly gatherMs: number;
  /** After a failed chunk, the next try this much later. */
  readonly retryMs?: number;
}

/** Indexes up to `maxRows` rows in one transaction and answers how many; throws when the chunk failed. */
export type RunChunk = (maxRows: number) => number;

export class IndexSchedule {
  readonly #settings: IndexScheduleSettings;
  readonly #runChunk: RunChunk;
  #indexing: NodeJS.Immediate | null = null;
  #waiting: NodeJS.Timeout | null = null;
  /** The last chunk found fewer rows than a chunk: new rows gather (see the file comment). */
  #caughtUp = false;
  /** Rows stored since the indexer caught up (only counted while it is). */
  #gathered = 0;
  /** Whether rows were stored since the last chunk (it then yields most of the time). */
  #storedSinceChunk = false;
  #stopped = false;

  constructor(settings: IndexScheduleSettings, runChunk: RunChunk) {
    this.#settings = settings;
    this.#runChunk = runChunk;
  }

  /** `rows` new rows were committed: index them now when behind or a chunk's worth has gathered, else later. */
  stored(rows: number): void {
    if (rows <= 0 || this.#stopped) return;
    this.#storedSinceChunk = true;
    if (!this.#caughtUp) {
      this.kick();
      return;
    }
    this.#gathered += rows;
    if (this.#gathered < this.#settings.chunkRows) {
      // The gathering timer is the only one that can be pending while caught up.
      if (this.#waiting === null && this.#indexing === null) this.#later(this.#settings.gatherMs);
      return;
    }
    if (this.#waiting !== null) clearTimeout(this.#waiting);
    this.#waiting = null;
    this.kick();
  }

  /** Runs the next chunk in the next turn, unless one is already due. */
  kick(): void {
    if (this.#stopped || this.#indexing !== null || this.#waiting !== null) return;
    this.#indexing = setImmediate(() => this.#next());
  }

  stop(): void {
    this.#stopped = true;
    if (this.#indexing !== null) clearImmediate(this.#indexing);
    if (this.#waiting !== null) clearTimeout(this.#waiting);
    this.#indexing = null;
    this.#waiting = null;
  }

  #next(): void {
    this.#indexing = null;
    this.#caughtUp = false;
    const started = performance.now();
    const busy = this.#storedSinceChunk;
    this.#storedSinceChunk = false;
    let indexed: number;
    try {
      indexed = this.#runChunk(this.#settings.chunkRows);
    } catch {
      this.#later(this.#settings.retryMs ?? DEFAULT_RETRY_MS);
      return;
    }
    if (indexed < this.#settings.chunkRows) {
      this.#caughtUp = true;
      this.#gathered = 0;
      return;
    }
    if (busy) this.#later(Math.ceil((performance.now() - started) * INGEST_SHARE_PER_INDEX_SHARE));
    else this.kick();
  }

  #later(ms: number): void {
    if (this.#stopped) return;
    this.#waiting = setTimeout(() => {
      this.#waiting = null;
      this.kick();
    }, ms);
    this.#waiting.unref();
  }
}
