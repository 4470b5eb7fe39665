/**
 * Embedded log store on node:sqlite: the LogStore port as one object over modules that each own one concern
 * (see docs/DOCUMENT_STORE.md "Log store" for the design and the measured figures):
 * - sqlite-log-connection.ts: the connection, its transactions, the write retry beside the indexing worker;
 * - sqlite-log-schema.ts: the tables and the migrations of older files;
 * - sqlite-log-writes.ts: insertBatch's batches and the rollups kept in step with them;
 * - sqlite-log-pages.ts (query plan, indexed search, histogram): query, scan and histogram;
 * - sqlite-log-lookups.ts: reads by key (getByKeys, getById, neighbours);
 * - sqlite-log-rollup-reads.ts: stats, facets and counts from the rollups (the class this one extends);
 * - sqlite-log-deletes.ts: every delete path, retention included;
 * - sqlite-log-indexing.ts: who indexes new rows for search, and when (the index: sqlite-log-search.ts).
 */
import type { DeleteResult, LogHistogram, LogKey, LogMatchSpan, LogPage, LogQuery, LogRecord, LogScanQuery, LogStore, LogType, NeighbourDirection } from '@skald/ports';
import { DEFAULT_COUNT_CAP } from './log-store-shared.ts';
import { LogConnection } from './sqlite-log-connection.ts';
import { LogDeletes } from './sqlite-log-deletes.ts';
import { LogIndexing } from './sqlite-log-indexing.ts';
import { explainNeighbours, getById, getByKeys, neighbours } from './sqlite-log-lookups.ts';
import { LogPages } from './sqlite-log-pages.ts';
import { RollupAnsweredLogStore } from './sqlite-log-rollup-reads.ts';
import { LogWriter } from './sqlite-log-writes.ts';
import { sharedWalCheckpointer } from '../sqlite/wal-checkpointer.ts';
import type { WalCheckpointer } from '../sqlite/wal-checkpointer.ts';

export interface SqliteLogStoreOptions {
  /** Counted totals (searches, filters without a rollup) stop past this many (the page itself is exact). Default 100,000. */
  readonly countCap?: number;
  /** Rows deleted per transaction by the delete paths; between chunks the event loop gets a turn. */
  readonly deleteChunkSize?: number;
  /**
   * The search index (sqlite-log-search.ts): 'background' (default) indexes new rows in small chunks
   * (index-schedule.ts) between other work on the store's thread, and for a store file on a worker thread
   * of its own while chunks are heavy (search-index-worker.ts); 'eager' indexes them before insertBatch
   * returns (tests: every search then reads the index); 'off' never indexes (searches scan every row; the bench's "index off").
   */
  readonly searchIndex?: 'background' | 'eager' | 'off';
  /** Rows per background indexing chunk (one transaction, ~100 µs each). Default 200. */
  readonly indexChunkSize?: number;
  /**
   * Once the background indexer has caught up, new rows wait until a chunk's worth has arrived or this
   * many milliseconds have passed since the first of them, whichever comes first. Default 1000.
   */
  readonly indexGatherMs?: number;
  /**
   * Who runs the WAL checkpoints: by default the process's checkpointer (sqlite/wal-checkpointer.ts: small ones
   * here, large ones on a worker thread, so none stalls the event loop for long); null leaves them to SQLite
   * inside the commits (wal_autocheckpoint).
   */
  readonly walCheckpointer?: WalCheckpointer | null;
  /** How long the indexing worker lives on once caught up with nothing new (search-index-thread.ts). Default 60 s. */
  readonly indexWorkerIdleMs?: number;
  /**
   * A whole background chunk on the store's thread that takes longer than this is heavy: after two in a row
   * a store file moves indexing to its worker. Default 4 ms (200 rows take 6-20 ms).
   */
  readonly indexWorkerChunkMs?: number;
}

export class SqliteLogStore extends RollupAnsweredLogStore implements LogStore {
  readonly #conn: LogConnection;
  readonly #writer: LogWriter;
  readonly #pages: LogPages;
  readonly #deletes: LogDeletes;
  readonly #indexing: LogIndexing;

  constructor(file: string, options: SqliteLogStoreOptions = {}) {
    const conn = new LogConnection(file, options.walCheckpointer === undefined ? sharedWalCheckpointer() : options.walCheckpointer);
    super(conn);
    this.#conn = conn;
    this.#deletes = new LogDeletes(this.#conn, options.deleteChunkSize ?? 20_000);
    this.#writer = new LogWriter(this.#conn);
    const mode = options.searchIndex ?? 'background';
    this.#pages = new LogPages(this.#conn, options.countCap ?? DEFAULT_COUNT_CAP, mode === 'off');
    this.#indexing = new LogIndexing(this.#conn, file, {
      mode,
      ...(options.indexChunkSize === undefined ? {} : { chunkRows: options.indexChunkSize }),
      ...(options.indexGatherMs === undefined ? {} : { gatherMs: options.indexGatherMs }),
      ...(options.indexWorkerIdleMs === undefined ? {} : { workerIdleMs: options.indexWorkerIdleMs }),
      ...(options.indexWorkerChunkMs === undefined ? {} : { workerChunkMs: options.indexWorkerChunkMs }),
    });
  }

  /** Whether the indexing worker runs now (diagnostics and tests; false when indexing is not on a worker). */
  get indexWorkerRunning(): boolean {
    return this.#indexing.workerRunning;
  }

  /** Indexes up to `max` rows not indexed yet, now (the 'eager' mode, tests and the benchmark); answers how many. */
  indexPending(max = Number.POSITIVE_INFINITY): number {
    return this.#indexing.indexPending(max);
  }

  async insertBatch(records: readonly LogRecord[]): Promise<{ inserted: number }> {
    if (records.length === 0) return { inserted: 0 };
    const result = await this.#writer.insert(records);
    this.#indexing.stored(result.inserted, records);
    return result;
  }

  async query(query: LogQuery): Promise<LogPage> {
    return this.#pages.query(query);
  }

  scan(query: LogScanQuery, pageSize: number): AsyncIterable<LogRecord[]> {
    return this.#pages.scan(query, pageSize);
  }

  /** EXPLAIN QUERY PLAN of the page query (diagnostics, tests and the benchmark). */
  explainQuery(query: LogQuery): string {
    return this.#pages.explainQuery(query);
  }

  async histogram(query: LogScanQuery, bucketEdges: (span: LogMatchSpan) => readonly number[]): Promise<LogHistogram> {
    return this.#pages.histogram(query, bucketEdges);
  }

  async getByKeys(serverId: string, keys: readonly LogKey[]): Promise<LogRecord[]> {
    return getByKeys(this.#conn, serverId, keys);
  }

  async getById(serverId: string, id: string): Promise<LogRecord | null> {
    return getById(this.#conn, serverId, id);
  }

  async neighbours(serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): Promise<LogRecord[]> {
    return neighbours(this.#conn, serverId, key, direction, limit);
  }

  /** EXPLAIN QUERY PLAN of a neighbours() walk (tests: it must seek the clustered key, whatever the server's size). */
  explainNeighbours(serverId: string, direction: NeighbourDirection): string {
    return explainNeighbours(this.#conn, serverId, direction);
  }

  async deleteBefore(serverId: string, before: number): Promise<DeleteResult> {
    return this.#deletes.deleteBefore(serverId, before);
  }

  async deleteExpired(now: number): Promise<DeleteResult> {
    return this.#deletes.deleteExpired(now);
  }

  async deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult> {
    return this.#deletes.deleteOldest(serverId, logType, keep);
  }

  async deleteByKeys(serverId: string, keys: readonly LogKey[]): Promise<DeleteResult> {
    return this.#deletes.deleteByKeys(serverId, keys);
  }

  async close(): Promise<void> {
    // The worker finishes its chunk and closes its connection before this one closes.
    await this.#indexing.close();
    await this.#conn.close();
  }
}
