/**
 * Embedded log store on node:sqlite (see sqlite-log-schema.ts for the table and index design and
 * docs/DOCUMENT_STORE.md "Log store" for the measured figures).
 *
 * Write path: one transaction per batch, multi-row prepared INSERT ... ON CONFLICT DO NOTHING on the
 * clustered key (server, createdAt, id), rollup increments aggregated in JS and written as one upsert per
 * distinct key. A chunk whose rows were partly already stored sends the batch down a per-row path, so the
 * rollups count exactly the rows that were new.
 * Delete paths: the doomed keys are collected in a temp table (in chunks), their rollup counts are
 * subtracted by GROUP BY over that chunk, photo object keys are read, then the rows are deleted, all
 * in one transaction per chunk, so rollups always equal the raw rows.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import type { DeleteResult, LogHistogram, LogKey, LogMatchSpan, LogPage, LogQuery, LogRecord, LogScanQuery, LogStats, LogStore, LogType, NeighbourDirection } from '@skald/ports';
import {
  DAY_MS,
  DEFAULT_COUNT_CAP,
  StatsBuilder,
  assertLogType,
  cappedTotal,
  dayString,
  idTimeRanges,
  isDayAligned,
  parseDay,
  present,
  validateLogQuery,
  validateNeighbours,
  validateScanPageSize,
} from './log-store-shared.ts';
import { EMPTY_HISTOGRAM } from './log-histogram-shared.ts';
import { instantAfterRowid, sqliteHistogram } from './sqlite-log-histogram.ts';
import type { HistogramPart, LevelIndexCounts } from './sqlite-log-histogram.ts';
import { RollupDelta } from './sqlite-log-rollup-delta.ts';
import {
  DIM_LEVEL,
  DIM_RESOURCE,
  DIM_TYPE,
  LOG_COLUMNS,
  MIGRATE_FROM_V1_SQL,
  MIGRATE_TO_V5_SQL,
  PAGE_SIZE_SQL,
  PRAGMAS_SQL,
  SCHEMA_SQL,
  SCHEMA_VERSION,
} from './sqlite-log-schema.ts';
import { sharedWalCheckpointer } from '../sqlite/wal-checkpointer.ts';
import { checkpointBounded } from '../sqlite/wal-bound.ts';
import { prepareStatement, StatementCache } from '../sqlite/statements.ts';
import { DEFAULT_INDEX_CHUNK_ROWS, DEFAULT_INDEX_GATHER_MS, IndexSchedule } from './index-schedule.ts';
import { SearchIndexThread } from './search-index-thread.ts';
import type { WalCheckpointer, WalFile } from '../sqlite/wal-checkpointer.ts';
import {
  MAX_INDEXED_SERVER_KEY,
  MIGRATE_TO_V3_SQL,
  MIGRATE_TO_V4_SQL,
  SEARCH_SCHEMA_SQL,
  SearchIndexer,
  ftsPhrase,
  isIndexedSearch,
  PHOTO_CODE,
  levelCode,
  rowidFloor,
  serverRowidRange,
} from './sqlite-log-search.ts';

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

/** Which filters an FTS query answers exactly (through codes in the index), so indexed rows need no check of them. */
interface ExactInIndex {
  readonly level: boolean;
  readonly logType: boolean;
}

/** How a page is read: the clustered key, the level index or the partial photo index. */
type Access = 'key' | 'level' | 'photo';

interface QueryPlan {
  /** `logs [INDEXED BY …] WHERE …` of the filters, for the page, count and scan statements. */
  readonly from: string;
  readonly pageSql: string;
  readonly cappedCountSql: string;
  readonly params: SQLInputValue[];
}

const PAGE_COLUMNS = 'id, created_at, level, type, resource, message, metadata, log_type, image_key, thumb_key, expires_at, received_at';
const ALIASED_PAGE_COLUMNS = PAGE_COLUMNS.split(', ')
  .map((c) => `l.${c}`)
  .join(', ');
/** What a search matches (docs/spec/part-1.txt section 5). */
const SEARCH_COLUMNS = ['message', 'type', 'level', 'resource', 'metadata'] as const;

const DIM_BY_NAME = [
  [DIM_LEVEL, 'level'],
  [DIM_TYPE, 'type'],
  [DIM_RESOURCE, 'resource'],
] as const;

function str(value: SQLOutputValue | undefined): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function num(value: SQLOutputValue | undefined): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

function optionalStr(value: SQLOutputValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** LIKE pattern for a case-insensitive substring match; `\` escapes the wildcards typed by the user. */
function likePattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toRecord(serverId: string, row: Record<string, SQLOutputValue>): LogRecord {
  const metadata = optionalStr(row['metadata']);
  const receivedAt = row['received_at'];
  const record: { -readonly [K in keyof LogRecord]: LogRecord[K] } = {
    id: str(row['id']),
    serverId,
    createdAt: num(row['created_at']),
    level: str(row['level']),
    type: str(row['type']),
    resource: str(row['resource']),
    message: str(row['message']),
    metadata: metadata === null ? null : (JSON.parse(metadata) as Record<string, unknown>),
    logType: str(row['log_type']) === 'photo' ? 'photo' : 'text',
    imageKey: optionalStr(row['image_key']),
    thumbKey: optionalStr(row['thumb_key']),
    expiresAt: num(row['expires_at']),
  };
  // NULL: received at created_at (see sqlite-log-schema.ts).
  if (receivedAt !== null && receivedAt !== undefined) record.receivedAt = num(receivedAt);
  return record;
}

const INSERT_COLUMNS = 13;
const INSERT_ROWS_PER_STATEMENT = 100;
const DIM_NUMBER = { level: DIM_LEVEL, type: DIM_TYPE, resource: DIM_RESOURCE } as const;
/** The clustered key of a row, as the delete paths select it. */
const KEY_COLUMNS = 'server_key, created_at, id';

/**
 * neighbours(): a seek on the clustered key to (created_at, id) and a walk of LIMIT rows, towards older or
 * newer logs (the row-value comparison is what lets SQLite seek rather than filter).
 */
const NEIGHBOUR_SQL: Readonly<Record<NeighbourDirection, string>> = {
  older: `SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
  newer: `SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND (created_at, id) > (?, ?) ORDER BY created_at ASC, id ASC LIMIT ?`,
};

/** Thrown inside the fast insert transaction to roll it back when a chunk was partly made of stored rows. */
class PartlyStoredChunk extends Error {}

/** Writes one record's values at `o`, in LOG_COLUMNS order. */
function fillRow(args: SQLInputValue[], o: number, serverKey: number, r: LogRecord): void {
  args[o] = serverKey;
  args[o + 1] = r.createdAt;
  args[o + 2] = r.id;
  args[o + 3] = r.level;
  args[o + 4] = r.type;
  args[o + 5] = r.resource;
  args[o + 6] = r.message;
  args[o + 7] = r.metadata === null ? null : JSON.stringify(r.metadata);
  args[o + 8] = r.logType;
  args[o + 9] = r.imageKey;
  args[o + 10] = r.thumbKey;
  args[o + 11] = r.expiresAt;
  args[o + 12] = r.receivedAt === undefined || r.receivedAt === r.createdAt ? null : r.receivedAt;
}

const DEFAULT_INDEX_WORKER_CHUNK_MS = 4;
const HEAVY_CHUNKS_BEFORE_WORKER = 2;
/** A write that met the indexing worker's lock tries again after 1, 2, 4 ... up to this many ms. */
const BUSY_RETRY_MAX_MS = 16;
/** ... and gives up (the caller fails, the bus delivers the batch again) after this long. */
const BUSY_GIVE_UP_MS = 30_000;
/** SQLite's SQLITE_BUSY (primary code): another connection holds the write lock. */
const SQLITE_BUSY = 5;

function isBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'errcode' in error && typeof error.errcode === 'number' && (error.errcode & 0xff) === SQLITE_BUSY;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class SqliteLogStore implements LogStore {
  readonly #db: DatabaseSync;
  readonly #countCap: number;
  readonly #chunk: number;
  readonly #serverKeys = new Map<string, number>();
  readonly #statements: StatementCache;
  readonly #inserts = new Map<number, StatementSync>();
  readonly #indexer: SearchIndexer;
  readonly #indexMode: 'background' | 'eager' | 'off';
  readonly #indexChunk: number;
  readonly #indexGatherMs: number;
  /** Background indexing on this thread (see #indexOnThisThread); null while the worker indexes. */
  #schedule: IndexSchedule | null = null;
  /** A store file's indexing worker (its own connection), for heavy indexing. */
  #thread: SearchIndexThread | null = null;
  /** Writes waiting for the worker's lock (#write), woken when one of its chunks ends. */
  readonly #lockWaiters: (() => void)[] = [];
  /** A chunk on this thread longer than this is heavy (see #indexOnThisThread). */
  readonly #indexWorkerChunkMs: number;
  /** The file as registered with the WAL checkpointer (null: SQLite checkpoints inside the commits). */
  readonly #wal: WalFile | null;

  constructor(file: string, options: SqliteLogStoreOptions = {}) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    this.#statements = new StatementCache(this.#db);
    this.#db.exec(PAGE_SIZE_SQL);
    this.#db.exec(PRAGMAS_SQL);
    this.#wal = this.#registerWal(file, options.walCheckpointer === undefined ? sharedWalCheckpointer() : options.walCheckpointer);
    this.#migrate();
    this.#db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS doomed (server_key INTEGER NOT NULL, created_at INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (server_key, created_at, id)) WITHOUT ROWID',
    );
    this.#countCap = options.countCap ?? DEFAULT_COUNT_CAP;
    this.#chunk = options.deleteChunkSize ?? 20_000;
    this.#indexer = new SearchIndexer(this.#db);
    this.#indexMode = options.searchIndex ?? 'background';
    this.#indexChunk = options.indexChunkSize ?? DEFAULT_INDEX_CHUNK_ROWS;
    this.#indexGatherMs = options.indexGatherMs ?? DEFAULT_INDEX_GATHER_MS;
    this.#indexWorkerChunkMs = options.indexWorkerChunkMs ?? DEFAULT_INDEX_WORKER_CHUNK_MS;
    if (this.#indexMode !== 'background') return;
    if (file !== ':memory:') {
      this.#thread = new SearchIndexThread({
        file,
        chunkRows: this.#indexChunk,
        gatherMs: this.#indexGatherMs,
        ...(options.indexWorkerIdleMs === undefined ? {} : { idleMs: options.indexWorkerIdleMs }),
        onChunkDone: (rows) => {
          if (rows > 0) this.#wal?.wrote();
          // The lock is free: writes waiting for it go now rather than at the end of their backoff.
          const waiting = this.#lockWaiters.splice(0);
          for (const wake of waiting) wake();
        },
        onRetired: () => this.#indexOnThisThread(false),
        onFailed: (reason) => {
          process.emitWarning(`log store: ${reason}; indexing on the store's thread from now on`);
          this.#indexOnThisThread(true);
        },
      });
      // Writes meeting the worker's lock retry from the event loop (#write) instead of sleeping in SQLite.
      this.#db.exec('PRAGMA busy_timeout = 0');
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
    for (const wake of this.#lockWaiters.splice(0)) wake();
    this.#schedule?.stop();
    this.#schedule = null;
    // A worker that ended after the store closed hands nothing back.
    if (!this.#db.isOpen) return;
    let heavyInARow = 0;
    this.#schedule = new IndexSchedule({ chunkRows: this.#indexChunk, gatherMs: this.#indexGatherMs }, (maxRows) => {
      const started = performance.now();
      const rows = this.#transaction(() => this.#indexer.indexChunk(maxRows));
      const took = performance.now() - started;
      // Heavy: a whole chunk (rows keep coming or a backlog waits) that took long. A slow chunk of a few rows
      // is a cold start (statements compiled, pages read), not load: it moves nothing.
      heavyInARow = rows === maxRows && took > this.#indexWorkerChunkMs ? heavyInARow + 1 : 0;
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
  get indexWorkerRunning(): boolean {
    return this.#thread?.running ?? false;
  }

  /**
   * Whether another connection (the indexing worker) may write the index beside this one: a store file
   * indexed in the background. Its cached cursors are then read again in every transaction, a search reads
   * in one snapshot, and writes meeting the lock retry (#write).
   */
  get #shared(): boolean {
    return this.#thread !== null;
  }

  /**
   * Creates the schema, upgrading older files in place: the first layout (see MIGRATE_FROM_V1_SQL), and
   * layout 2, which gains the search index's column and indexes (its rows are then indexed in the background),
   * layout 3, whose index is emptied to be rebuilt with level codes in the background (MIGRATE_TO_V4_SQL),
   * and any layout before 5, which gains the arrival column (MIGRATE_TO_V5_SQL).
   */
  #migrate(): void {
    const version = num(this.#db.prepare('PRAGMA user_version').get()?.['user_version']);
    if (version >= SCHEMA_VERSION) return;
    this.#transaction(() => {
      const isV1 = this.#db.prepare("SELECT 1 AS yes FROM pragma_table_info('logs') WHERE name = 'seq'").get() !== undefined;
      if (isV1) this.#db.exec(MIGRATE_FROM_V1_SQL);
      const hasLogs = this.#db.prepare("SELECT 1 AS yes FROM pragma_table_info('logs') WHERE name = 'id'").get() !== undefined;
      const hasColumn = this.#db.prepare("SELECT 1 AS yes FROM pragma_table_info('logs') WHERE name = 'fts_rowid'").get() !== undefined;
      if (hasLogs && !hasColumn) this.#db.exec(MIGRATE_TO_V3_SQL);
      const hasArrival = this.#db.prepare("SELECT 1 AS yes FROM pragma_table_info('logs') WHERE name = 'received_at'").get() !== undefined;
      if (hasLogs && !hasArrival) this.#db.exec(MIGRATE_TO_V5_SQL);
      this.#db.exec(SCHEMA_SQL);
      this.#db.exec(SEARCH_SCHEMA_SQL);
      if (version === 3) this.#db.exec(MIGRATE_TO_V4_SQL);
      this.#db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }

  /** Indexes up to `max` rows not indexed yet, now (the 'eager' mode, tests and the benchmark); answers how many. */
  indexPending(max = Number.POSITIVE_INFINITY): number {
    // Synchronous by contract, so beside the indexing worker it waits for the worker's lock on this thread.
    if (this.#shared) this.#db.exec(`PRAGMA busy_timeout = ${BUSY_GIVE_UP_MS}`);
    try {
      let total = 0;
      while (total < max) {
        const chunk = Math.min(5000, max - total);
        const indexed = this.#transaction(() => this.#indexer.indexChunk(chunk));
        total += indexed;
        if (indexed < chunk) break;
      }
      return total;
    } finally {
      if (this.#shared) this.#db.exec('PRAGMA busy_timeout = 0');
    }
  }

  #prepare(sql: string): StatementSync {
    return this.#statements.get(sql);
  }

  /** The small integer standing for a server id; undefined for a server that never stored a log. */
  #serverKey(serverId: string, create: boolean): number | undefined {
    const cached = this.#serverKeys.get(serverId);
    if (cached !== undefined) return cached;
    let row = this.#prepare('SELECT key FROM servers WHERE server_id = ?').get(serverId);
    if (row === undefined) {
      if (!create) return undefined;
      this.#prepare('INSERT INTO servers (server_id) VALUES (?)').run(serverId);
      row = this.#prepare('SELECT key FROM servers WHERE server_id = ?').get(serverId);
    }
    const key = num(row?.['key']);
    this.#serverKeys.set(serverId, key);
    return key;
  }

  #registerWal(file: string, checkpointer: WalCheckpointer | null): WalFile | null {
    if (checkpointer === null || file === ':memory:') return null;
    this.#db.exec('PRAGMA wal_autocheckpoint = 0');
    return checkpointer.register(file, () => {
      // busy 0: the event loop never waits for the indexer's write lock (an oversized WAL is reset by a later
      // try); afterwards the connection's own busy timeout again (0 beside the indexing worker, else PRAGMAS_SQL's).
      if (this.#db.isOpen) checkpointBounded(this.#db, 0, this.#shared ? 0 : 5000);
    });
  }

  #transaction<R>(work: () => R): R {
    this.#db.exec('BEGIN IMMEDIATE');
    // The worker's commits may have moved the cursors and next rowids this connection read before.
    if (this.#shared) this.#indexer.forgetCaches();
    try {
      const result = work();
      this.#db.exec('COMMIT');
      this.#wal?.wrote();
      return result;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      // A server key created in the rolled-back transaction is gone from the table: forget the cached ones.
      this.#serverKeys.clear();
      this.#indexer.reset();
      throw err;
    }
  }

  /**
   * A write transaction from an async path. Beside the indexing worker, BEGIN IMMEDIATE may meet the worker's
   * lock (SQLITE_BUSY, answered at once: this connection never blocks the event loop on it); the write then
   * tries again when the worker's chunk ends (or after a backoff of 1 to 16 ms, whichever comes first), while
   * this thread answers other work. `work` runs only once the lock is held.
   */
  async #write<R>(work: () => R): Promise<R> {
    const started = Date.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, BUSY_RETRY_MAX_MS)) {
      try {
        return this.#transaction(work);
      } catch (err) {
        if (!isBusy(err) || Date.now() - started > BUSY_GIVE_UP_MS) throw err;
      }
      await new Promise<void>((resolve) => {
        this.#lockWaiters.push(resolve);
        setTimeout(resolve, wait);
      });
    }
  }

  /**
   * Reads that must agree with each other (a search's cursor, index and scans) in one snapshot: beside the
   * indexing worker a commit of it could fall between two statements otherwise. Synchronous work only.
   */
  #snapshot<R>(work: () => R): R {
    if (!this.#shared) return work();
    this.#db.exec('BEGIN');
    this.#indexer.forgetCaches();
    try {
      return work();
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  async insertBatch(records: readonly LogRecord[]): Promise<{ inserted: number }> {
    if (records.length === 0) return { inserted: 0 };
    let result: { inserted: number };
    try {
      result = await this.#write(() => this.#insertChunked(records));
    } catch (err) {
      if (!(err instanceof PartlyStoredChunk)) throw err;
      // A batch mixing new and already stored rows (a partial redelivery, or a record repeated in the
      // batch): one statement per row, so the rollups count exactly the rows that were new.
      result = await this.#write(() => this.#insertRowByRow(records));
    }
    if (result.inserted > 0) {
      if (this.#indexMode === 'eager') this.indexPending();
      else if (this.#thread?.running) this.#thread.stored(result.inserted, this.#serverKeysOf(records));
      else this.#schedule?.stored(result.inserted);
    }
    return result;
  }

  /** The server keys of stored records (a batch is one server's, so this is nearly always one key). */
  #serverKeysOf(records: readonly LogRecord[]): number[] {
    const keys = new Set<number>();
    let last: string | undefined;
    for (const record of records) {
      if (record.serverId === last) continue;
      last = record.serverId;
      const key = this.#serverKey(record.serverId, false);
      if (key !== undefined) keys.add(key);
    }
    return [...keys];
  }

  /**
   * Fast path: 100 rows per statement. A chunk of only new rows (changes = rows) or only stored rows
   * (changes = 0, a whole redelivery) is settled here; anything in between throws PartlyStoredChunk.
   */
  #insertChunked(records: readonly LogRecord[]): { inserted: number } {
    const delta = new RollupDelta();
    const args: SQLInputValue[] = new Array<SQLInputValue>(INSERT_ROWS_PER_STATEMENT * INSERT_COLUMNS);
    let inserted = 0;
    let lastServerId: string | undefined;
    let serverKey = 0;
    for (let start = 0; start < records.length; start += INSERT_ROWS_PER_STATEMENT) {
      const count = Math.min(INSERT_ROWS_PER_STATEMENT, records.length - start);
      if (count < INSERT_ROWS_PER_STATEMENT) args.length = count * INSERT_COLUMNS;
      for (let i = 0; i < count; i++) {
        const r = records[start + i]!;
        if (r.serverId !== lastServerId) {
          serverKey = this.#serverKey(r.serverId, true)!;
          lastServerId = r.serverId;
        }
        fillRow(args, i * INSERT_COLUMNS, serverKey, r);
        delta.add(serverKey, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo');
      }
      const changes = Number(this.#insertStatement(count).run(...args).changes);
      if (changes === count) {
        inserted += count;
        for (let i = 0; i < count; i++) {
          const r = records[start + i]!;
          this.#indexer.stored(this.#serverKey(r.serverId, true)!, r.createdAt, r.id);
        }
        continue;
      }
      if (changes !== 0) throw new PartlyStoredChunk();
      // Every row of the chunk was already stored: take its rollup counts back.
      for (let i = 0; i < count; i++) {
        const r = records[start + i]!;
        delta.add(this.#serverKey(r.serverId, true)!, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo', -1);
      }
    }
    this.#applyDelta(delta);
    return { inserted };
  }

  #insertRowByRow(records: readonly LogRecord[]): { inserted: number } {
    const delta = new RollupDelta();
    const args: SQLInputValue[] = new Array<SQLInputValue>(INSERT_COLUMNS);
    const stmt = this.#insertStatement(1);
    let inserted = 0;
    for (const r of records) {
      const serverKey = this.#serverKey(r.serverId, true)!;
      fillRow(args, 0, serverKey, r);
      if (Number(stmt.run(...args).changes) === 0) continue;
      inserted += 1;
      this.#indexer.stored(serverKey, r.createdAt, r.id);
      delta.add(serverKey, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo');
    }
    this.#applyDelta(delta);
    return { inserted };
  }

  #applyDelta(delta: RollupDelta): void {
    const day = this.#prepare(
      'INSERT INTO rollup_day (server_key, day, log_type, n, min_expires) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n, min_expires = min(min_expires, excluded.min_expires)',
    );
    for (const d of delta.days()) day.run(d.serverKey, d.day, d.logType, d.n, d.minExpires);
    const dim = this.#prepare('INSERT INTO rollup_dim (server_key, dim, value, log_type, n) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
    for (const d of delta.dims()) dim.run(d.serverKey, DIM_NUMBER[d.dim], d.value, d.logType, d.n);
  }

  /** Multi-row INSERT for `rows` records: one native call per 100 rows instead of per row. */
  #insertStatement(rows: number): StatementSync {
    let stmt = this.#inserts.get(rows);
    if (stmt === undefined) {
      const tuple = `(${new Array(INSERT_COLUMNS).fill('?').join(', ')})`;
      stmt = prepareStatement(this.#db, `INSERT INTO logs (${LOG_COLUMNS}) VALUES ${new Array(rows).fill(tuple).join(', ')} ON CONFLICT DO NOTHING`);
      this.#inserts.set(rows, stmt);
    }
    return stmt;
  }

  async query(query: LogQuery): Promise<LogPage> {
    validateLogQuery(query);
    const serverKey = this.#serverKey(query.serverId, false);
    if (serverKey === undefined) return { items: [], total: 0, totalCapped: false };
    const indexed = this.#indexExpression(query, serverKey);
    if (indexed !== null) return this.#snapshot(() => this.#searchPage(query, indexed.match, indexed.exact, serverKey));
    const plan = this.#plan(query, serverKey);
    const rows = query.limit === 0 ? [] : this.#prepare(plan.pageSql).all(...plan.params, query.limit, query.offset);
    return { items: rows.map((row) => toRecord(query.serverId, row)), ...this.#total(query, serverKey, plan) };
  }

  /**
   * The FTS5 query answering the indexed part of this query, or null when the index does not help. The
   * index is used for a search of 3+ characters, or a type or resource filter rare enough (at most 1% of
   * the server's logs, by the rollups) that finding its few rows through the index beats walking the
   * server's logs newest first. Other filters then narrow inside the index too: the log type and a
   * standard level exactly (their codes, sqlite-log-search.ts: no check on the row needed, `exact`), a
   * type, resource or other level by its text (a superset; the equality is checked on each row found).
   */
  #indexExpression(query: LogQuery, serverKey: number): { match: string; exact: ExactInIndex } | null {
    if (this.#indexMode === 'off' || serverKey > MAX_INDEXED_SERVER_KEY) return null;
    const parts: string[] = [];
    const searching = present(query.search);
    if (searching) {
      // A search the index cannot answer (too short) leaves the whole query to the scan.
      if (!isIndexedSearch(query.search ?? '')) return null;
      parts.push(ftsPhrase(query.search ?? ''));
    }
    const dims = DIM_BY_NAME.filter(([, name]) => name !== 'level' && present(query[name]) && isIndexedSearch(query[name] ?? ''));
    let all: number | null = null;
    for (const [dim, name] of dims) {
      const value = query[name] ?? '';
      let narrows = searching;
      if (!narrows) {
        all ??= num(this.#prepare('SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ?').get(serverKey)?.['n']);
        const n = num(this.#prepare('SELECT coalesce(sum(n), 0) AS n FROM rollup_dim WHERE server_key = ? AND dim = ? AND value = ?').get(serverKey, dim, value)?.['n']);
        narrows = n * 100 <= all;
      }
      if (narrows) parts.push(`{${name}} : ${ftsPhrase(value)}`);
    }
    if (parts.length === 0) return null;
    let levelExact = false;
    if (present(query.level)) {
      const code = levelCode(query.level);
      if (code !== null) {
        parts.push(`{level} : ${ftsPhrase(code)}`);
        levelExact = true;
      } else if (isIndexedSearch(query.level)) {
        parts.push(`{level} : ${ftsPhrase(query.level)}`);
      }
    }
    if (query.logType === 'photo') parts.push(`{level} : ${ftsPhrase(PHOTO_CODE)}`);
    let match = parts.join(' AND ');
    // Text logs are nearly all of them: excluding the few photo entries reads far less than a code on every text row would.
    if (query.logType === 'text') match = `(${match}) NOT {level} : ${ftsPhrase(PHOTO_CODE)}`;
    return { match, exact: { level: levelExact, logType: true } };
  }

  /**
   * A search through the index: the server's indexed matches from the FTS table (one rowid range) plus its
   * not-yet-indexed rows scanned (those after the indexer's cursor and the late ones), merged newest first. The page is exact: the
   * newest offset+limit indexed matches by rowid give the oldest createdAt C the page can need, and every
   * row created at C or later has a rowid from rowidFloor(C) on (sqlite-log-search.ts), so the merge reads
   * the indexed matches from there, not all of them. The total counts the FTS range alone when the index
   * answers every filter exactly (the search, the log type, a standard level: no read of the logs table),
   * otherwise through the rows; either way up to the count cap.
   */
  #searchPage(query: LogQuery, phrase: string, exact: ExactInIndex, serverKey: number): LogPage {
    const { lo, hi, floor, indexed, ahead, late, indexedFilters } = this.#searchSources(query, phrase, exact, serverKey);
    let items: LogRecord[] = [];
    if (query.limit > 0) {
      const want = query.offset + query.limit;
      const first = indexed(floor);
      const newest = this.#prepare(`SELECT l.created_at AS c FROM ${first.sql} ORDER BY logs_fts.rowid DESC LIMIT ?`).all(...first.params, want);
      let lower = floor;
      if (newest.length === want) {
        let oldest = Number.POSITIVE_INFINITY;
        for (const row of newest) oldest = Math.min(oldest, num(row['c']));
        const needed = rowidFloor(serverKey, oldest);
        if (needed > lower) lower = needed;
      }
      const page = indexed(lower);
      const rows = this.#prepare(
        `SELECT * FROM (SELECT ${ALIASED_PAGE_COLUMNS} FROM ${page.sql} UNION ALL SELECT ${ALIASED_PAGE_COLUMNS} FROM ${ahead.sql} ` +
          `UNION ALL SELECT ${ALIASED_PAGE_COLUMNS} FROM ${late.sql}) ` +
          `ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ).all(...page.params, ...ahead.params, ...late.params, query.limit, query.offset);
      items = rows.map((row) => toRecord(query.serverId, row));
    }
    const fromRollups = this.#rollupTotal(query, serverKey);
    if (fromRollups !== null) return { items, total: fromRollups, totalCapped: false };
    const limit = this.#countCap + 1;
    const indexedCount =
      indexedFilters.sql === ''
        ? this.#prepare('SELECT count(*) AS n FROM (SELECT 1 FROM logs_fts WHERE logs_fts MATCH ? AND rowid BETWEEN ? AND ? LIMIT ?)').get(phrase, lo, hi, limit)
        : this.#prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${indexed(floor).sql} LIMIT ?)`).get(...indexed(floor).params, limit);
    const aheadCount = this.#prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${ahead.sql} LIMIT ?)`).get(...ahead.params, limit);
    const lateCount = this.#prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${late.sql} LIMIT ?)`).get(...late.params, limit);
    return { items, ...cappedTotal(num(indexedCount?.['n']) + num(aheadCount?.['n']) + num(lateCount?.['n']), this.#countCap) };
  }

  /**
   * The three sources of an indexed search's matches (#searchPage), shared by list pages and histograms:
   * the FTS rowid range from a lower rowid on, the rows ahead of the indexer's cursor and the late ones.
   */
  #searchSources(query: LogQuery, phrase: string, exact: ExactInIndex, serverKey: number) {
    // The indexed rows need no check of what the index answered exactly; the scanned ones check everything.
    const indexedFilters = this.#filterTerms(query, exact);
    const filters = this.#filterTerms(query, { level: false, logType: false });
    const { lo, hi } = serverRowidRange(serverKey);
    const fromFloor = query.from === undefined ? lo : rowidFloor(serverKey, query.from);
    const floor = fromFloor > lo ? fromFloor : lo;
    const indexed = (lower: bigint) => ({
      sql:
        `logs_fts CROSS JOIN logs l INDEXED BY logs_fts_rowid ON l.fts_rowid = logs_fts.rowid AND l.fts_rowid > 0 ` +
        `WHERE logs_fts MATCH ? AND logs_fts.rowid BETWEEN ? AND ? AND l.server_key = ?${indexedFilters.sql}`,
      params: [phrase, lower, hi, serverKey, ...indexedFilters.params] as SQLInputValue[],
    });
    const search = present(query.search) ? query.search : undefined;
    const pattern = search === undefined ? '' : likePattern(search);
    const searchSql = search === undefined ? '' : ` AND (${SEARCH_COLUMNS.map((c) => `l.${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`;
    const searchParams = search === undefined ? [] : SEARCH_COLUMNS.map(() => pattern);
    const cursor = this.#indexer.cursor(serverKey);
    const ahead =
      cursor === null
        ? { sql: `logs l WHERE l.server_key = ?${filters.sql}${searchSql}`, params: [serverKey, ...filters.params, ...searchParams] as SQLInputValue[] }
        : {
            sql: `logs l WHERE l.server_key = ? AND (l.created_at, l.id) > (?, ?)${filters.sql}${searchSql}`,
            params: [serverKey, cursor.createdAt, cursor.id, ...filters.params, ...searchParams] as SQLInputValue[],
          };
    const late = {
      sql: `search_late q CROSS JOIN logs l ON l.server_key = q.server_key AND l.created_at = q.created_at AND l.id = q.id WHERE q.server_key = ?${filters.sql}${searchSql}`,
      params: [serverKey, ...filters.params, ...searchParams] as SQLInputValue[],
    };
    return { lo, hi, floor, indexed, ahead, late, indexedFilters };
  }

  /** The query's filters other than the server, the search and those `exact` says the index answered, as terms on alias `l`. */
  #filterTerms(query: LogQuery, exact: ExactInIndex): { sql: string; params: SQLInputValue[] } {
    let sql = '';
    const params: SQLInputValue[] = [];
    // Literal, validated logType (as in #plan).
    if (query.logType !== undefined && !exact.logType) sql += ` AND l.log_type = '${query.logType}'`;
    for (const [, name] of DIM_BY_NAME) {
      const value = query[name];
      if (present(value) && !(exact.level && name === 'level')) {
        sql += ` AND l.${name} = ?`;
        params.push(value);
      }
    }
    if (query.from !== undefined) {
      sql += ' AND l.created_at >= ?';
      params.push(query.from);
    }
    if (query.to !== undefined) {
      sql += ' AND l.created_at <= ?';
      params.push(query.to);
    }
    if (present(query.afterId)) {
      sql += ' AND l.id > ?';
      params.push(query.afterId);
    }
    return { sql, params };
  }

  async *scan(query: LogScanQuery, pageSize: number): AsyncIterable<LogRecord[]> {
    validateLogQuery({ ...query, offset: 0, limit: pageSize });
    validateScanPageSize(pageSize);
    const serverKey = this.#serverKey(query.serverId, false);
    if (serverKey === undefined) return;
    const plan = this.#plan({ ...query, offset: 0, limit: pageSize }, serverKey);
    const first = this.#prepare(`SELECT ${PAGE_COLUMNS} FROM ${plan.from} ORDER BY created_at DESC, id DESC LIMIT ?`);
    // A row-value comparison on the clustered key (or the chosen index, which ends with it): each page
    // is a seek to the last row handed out, then a short walk.
    const next = this.#prepare(`SELECT ${PAGE_COLUMNS} FROM ${plan.from} AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`);
    let rows = first.all(...plan.params, pageSize);
    while (rows.length > 0) {
      const page = rows.map((row) => toRecord(query.serverId, row));
      yield page;
      if (rows.length < pageSize) return;
      const last = page[page.length - 1]!;
      rows = next.all(...plan.params, last.createdAt, last.id, pageSize);
    }
  }

  /** EXPLAIN QUERY PLAN of the page query (diagnostics, tests and the benchmark). */
  explainQuery(query: LogQuery): string {
    validateLogQuery(query);
    const serverKey = this.#serverKey(query.serverId, false);
    if (serverKey === undefined) return '';
    const plan = this.#plan(query, serverKey);
    return this.#db
      .prepare(`EXPLAIN QUERY PLAN ${plan.pageSql}`)
      .all(...plan.params, query.limit, query.offset)
      .map((row) => str(row['detail']))
      .join('\n');
  }

  #plan(query: LogQuery, serverKey: number): QueryPlan {
    const access = this.#chooseAccess(query, serverKey);
    // A unary + keeps a term from being answered by an index (the column and its NOCASE collation stay),
    // so each filter the chosen access path does not serve is checked row by row on that path.
    const onlyFor = (path: Access): string => (access === path ? '' : '+');
    const where: string[] = ['server_key = ?'];
    const params: SQLInputValue[] = [serverKey];
    // Literal, validated logType: lets the planner use the partial photo index.
    if (query.logType !== undefined) where.push(`${onlyFor('photo')}log_type = '${query.logType}'`);
    for (const [, name] of DIM_BY_NAME) {
      const value = query[name];
      if (present(value)) {
        where.push(`${name === 'level' ? onlyFor('level') : '+'}${name} = ?`);
        params.push(value);
      }
    }
    if (query.from !== undefined) {
      where.push('created_at >= ?');
      params.push(query.from);
    }
    if (query.to !== undefined) {
      where.push('created_at <= ?');
      params.push(query.to);
    }
    if (present(query.afterId)) {
      where.push('id > ?');
      params.push(query.afterId);
    }
    if (present(query.search)) {
      const columns = ['message', 'type', 'level', 'resource', 'metadata'];
      where.push(`(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      const pattern = likePattern(query.search);
      for (let i = 0; i < columns.length; i++) params.push(pattern);
    }
    const indexedBy = access === 'level' ? ' INDEXED BY logs_server_level' : access === 'photo' ? ' INDEXED BY logs_server_photo' : '';
    const from = `logs${indexedBy} WHERE ${where.join(' AND ')}`;
    return {
      from,
      pageSql: `SELECT ${PAGE_COLUMNS} FROM ${from} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      cappedCountSql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT ?)`,
      params,
    };
  }

  /**
   * Picks the access path by the rollup counts (exact, always fresh) rather than leaving it to the
   * planner, which has no statistics: the level index or the photo index when given, whichever holds
   * fewer of the server's rows, otherwise the clustered key (newest first, other filters checked per row).
   */
  #chooseAccess(query: LogQuery, serverKey: number): Access {
    let best: Access = 'key';
    let bestCount = Number.POSITIVE_INFINITY;
    if (query.logType === 'photo') {
      best = 'photo';
      bestCount = num(this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ? AND log_type = 'photo'`).get(serverKey)?.['n']);
    }
    if (present(query.level)) {
      const logTypeSql = query.logType === undefined ? '' : ` AND log_type = '${query.logType}'`;
      const n = num(
        this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_dim WHERE server_key = ? AND dim = ? AND value = ?${logTypeSql}`).get(serverKey, DIM_LEVEL, query.level)?.['n'],
      );
      if (n < bestCount) best = 'level';
    }
    return best;
  }

  /** Rollups answer the total when they can (exact, never capped); otherwise an index-driven count up to the cap. */
  #total(query: LogQuery, serverKey: number, plan: QueryPlan): { total: number; totalCapped: boolean } {
    const fromRollups = this.#rollupTotal(query, serverKey);
    if (fromRollups !== null) return { total: fromRollups, totalCapped: false };
    const counted = this.#prepare(plan.cappedCountSql).get(...plan.params, this.#countCap + 1);
    return cappedTotal(num(counted?.['n']), this.#countCap);
  }

  /** The total from rollup_day or rollup_dim, or null when the query has terms they do not record. */
  #rollupTotal(query: LogQuery, serverKey: number): number | null {
    // Rollups know nothing of ids or words: a total after an id or of a search is a count of the rows.
    if (present(query.search) || present(query.afterId)) return null;
    const logTypeSql = query.logType === undefined ? '' : ` AND log_type = '${query.logType}'`;
    const dims = DIM_BY_NAME.filter(([, name]) => present(query[name]));
    const hasRange = query.from !== undefined || query.to !== undefined;
    if (dims.length === 0 && isDayAligned(query.from, query.to)) {
      const dayParams: SQLInputValue[] = [serverKey];
      let rangeSql = '';
      if (query.from !== undefined) {
        rangeSql += ' AND day >= ?';
        dayParams.push(query.from / DAY_MS);
      }
      if (query.to !== undefined) {
        rangeSql += ' AND day <= ?';
        dayParams.push((query.to + 1) / DAY_MS - 1);
      }
      const row = this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ?${logTypeSql}${rangeSql}`).get(...dayParams);
      return num(row?.['n']);
    }
    if (dims.length === 1 && !hasRange) {
      const [dim, name] = dims[0]!;
      const row = this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_dim WHERE server_key = ? AND dim = ? AND value = ?${logTypeSql}`).get(
        serverKey,
        dim,
        query[name] ?? '',
      );
      return num(row?.['n']);
    }
    return null;
  }

  async histogram(query: LogScanQuery, bucketEdges: (span: LogMatchSpan) => readonly number[]): Promise<LogHistogram> {
    validateLogQuery({ ...query, offset: 0, limit: 0 });
    const serverKey = this.#serverKey(query.serverId, false);
    if (serverKey === undefined) return EMPTY_HISTOGRAM;
    return this.#snapshot(() =>
      sqliteHistogram(
        {
          prepare: (sql) => this.#prepare(sql),
          cap: this.#countCap,
          levelIndex: this.#levelIndexCounts(query, serverKey),
          parts: (range) =>
            this.#histogramParts(
              range === undefined ? query : { ...query, from: Math.max(query.from ?? range.from, range.from), to: Math.min(query.to ?? range.to, range.to) },
              serverKey,
            ),
          instantAfterRowid: (rowid) => instantAfterRowid(serverKey, rowid),
        },
        bucketEdges,
      ),
    );
  }

  /** A query of only a log type, a level and a range is counted through the level index (sqlite-log-histogram.ts). */
  #levelIndexCounts(query: LogScanQuery, serverKey: number): LevelIndexCounts | null {
    if (present(query.search) || present(query.type) || present(query.resource) || present(query.afterId)) return null;
    const levels = present(query.level)
      ? [query.level]
      : this.#prepare('SELECT DISTINCT value FROM rollup_dim WHERE server_key = ? AND dim = ? AND n > 0')
          .all(serverKey, DIM_LEVEL)
          .map((row) => str(row['value']));
    return { serverKey, levels, logType: query.logType, from: query.from, to: query.to };
  }

  /**
   * The access paths of a list page of this query (sqlite-log-histogram.ts): the filter plan, or for an
   * indexed search the FTS rowid range, the rows ahead of the indexer's cursor and the late ones, with the
   * same terms as #searchPage.
   */
  #histogramParts(query: LogScanQuery, serverKey: number): HistogramPart[] {
    const paged: LogQuery = { ...query, offset: 0, limit: 0 };
    const expression = this.#indexExpression(paged, serverKey);
    if (expression === null) {
      const plan = this.#plan(paged, serverKey);
      return [{ sql: plan.from, params: plan.params, col: '', order: 'time' }];
    }
    const { floor, indexed, ahead, late } = this.#searchSources(paged, expression.match, expression.exact, serverKey);
    return [
      { ...indexed(floor), col: 'l.', order: 'rowid' },
      { ...ahead, col: 'l.', order: 'time' },
      { ...late, col: 'l.', order: 'time' },
    ];
  }

  async stats(serverId: string, range: { readonly fromDay: string; readonly toDay: string }): Promise<LogStats> {
    const fromDay = parseDay(range.fromDay);
    const toDay = parseDay(range.toDay);
    const stats = new StatsBuilder();
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return stats.build();
    for (const row of this.#prepare('SELECT day, log_type, n FROM rollup_day WHERE server_key = ? AND n > 0').all(serverKey)) {
      const day = num(row['day']);
      const logType = str(row['log_type']);
      const n = num(row['n']);
      stats.addTotal(logType, n);
      if (day >= fromDay && day <= toDay) stats.addDay(dayString(day), logType, n);
    }
    for (const row of this.#prepare('SELECT dim, value, log_type, n FROM rollup_dim WHERE server_key = ? AND n > 0 ORDER BY log_type DESC').all(serverKey)) {
      const dim = DIM_BY_NAME[num(row['dim'])];
      if (dim !== undefined) stats.addDim(dim[1], str(row['value']), str(row['log_type']), num(row['n']));
    }
    return stats.build();
  }

  async facets(serverId: string): Promise<{ levels: string[]; types: string[]; resources: string[] }> {
    const out = { levels: [] as string[], types: [] as string[], resources: [] as string[] };
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return out;
    const lists = [out.levels, out.types, out.resources];
    const rows = this.#prepare('SELECT dim, value FROM rollup_dim WHERE server_key = ? AND n > 0 GROUP BY dim, value').all(serverKey);
    for (const row of rows) lists[num(row['dim'])]?.push(str(row['value']));
    // JS order (not NOCASE collation) so both adapters list facets identically.
    for (const list of lists) list.sort();
    return out;
  }

  async count(serverId: string, logType?: LogType): Promise<number> {
    if (logType !== undefined) assertLogType(logType);
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return 0;
    const logTypeSql = logType === undefined ? '' : ` AND log_type = '${logType}'`;
    return num(this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ?${logTypeSql}`).get(serverKey)?.['n']);
  }

  async deleteBefore(serverId: string, before: number): Promise<DeleteResult> {
    if (!Number.isFinite(before)) throw new RangeError('before must be finite epoch milliseconds');
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    return this.#deleteInChunks(`SELECT ${KEY_COLUMNS} FROM logs WHERE server_key = ? AND created_at < ? LIMIT ?`, [serverKey, before]);
  }

  /**
   * Visits only the (server, day) ranges whose rollup min_expires says they may hold expired rows, walks
   * each along the clustered key in chunks (a cursor on created_at, so kept rows are not rescanned), then
   * stores the exact min_expires of what is left so the next sweep skips the range until it expires.
   */
  async deleteExpired(now: number): Promise<DeleteResult> {
    if (!Number.isFinite(now)) throw new RangeError('now must be finite epoch milliseconds');
    const buckets = this.#prepare('SELECT server_key, day FROM rollup_day WHERE min_expires <= ? GROUP BY server_key, day').all(now);
    let deletedCount = 0;
    const objectKeys: string[] = [];
    const select = `SELECT ${KEY_COLUMNS} FROM logs WHERE server_key = ? AND created_at >= ? AND created_at < ? AND expires_at <= ? ORDER BY created_at, id LIMIT ?`;
    for (const bucket of buckets) {
      const serverKey = num(bucket['server_key']);
      const dayStart = num(bucket['day']) * DAY_MS;
      let cursor = dayStart;
      for (;;) {
        const deleted = await this.#write(() => {
          const n = this.#deleteChunk(select, [serverKey, cursor, dayStart + DAY_MS, now, this.#chunk], objectKeys);
          // Rows before the last deleted one were deleted or kept: the next chunk starts there.
          if (n > 0) cursor = num(this.#prepare('SELECT max(created_at) AS c FROM temp.doomed').get()?.['c']);
          return n;
        });
        deletedCount += deleted;
        if (deleted < this.#chunk) break;
        await yieldToEventLoop();
      }
      await this.#write(() =>
        this.#prepare(
          `UPDATE rollup_day SET min_expires = coalesce(
             (SELECT min(expires_at) FROM logs WHERE server_key = rollup_day.server_key AND created_at >= ? AND created_at < ? AND +log_type = rollup_day.log_type),
             ${Number.MAX_SAFE_INTEGER})
           WHERE server_key = ? AND day = ?`,
        ).run(dayStart, dayStart + DAY_MS, serverKey, num(bucket['day'])),
      );
      await yieldToEventLoop();
    }
    return { deletedCount, objectKeys };
  }

  async deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult> {
    assertLogType(logType);
    if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError('keep must be a non-negative integer');
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    // Each chunk removes the next rows beyond the newest `keep`, so repeating it converges on `keep`.
    // Photos through their partial index; text logs along the clustered key (the + keeps the photo index out).
    const source = logType === 'photo' ? `logs INDEXED BY logs_server_photo WHERE server_key = ? AND log_type = 'photo'` : `logs WHERE server_key = ? AND +log_type = 'text'`;
    return this.#deleteInChunks(
      `SELECT ${KEY_COLUMNS} FROM (SELECT ${KEY_COLUMNS} FROM ${source} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?)`,
      [serverKey],
      (chunk) => [chunk, keep],
    );
  }

  async getByKeys(serverId: string, keys: readonly LogKey[]): Promise<LogRecord[]> {
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined || keys.length === 0) return [];
    const select = this.#prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND created_at = ? AND id = ?`);
    const records: LogRecord[] = [];
    for (const key of keys) {
      const row = select.get(serverKey, key.createdAt, key.id);
      if (row !== undefined) records.push(toRecord(serverId, row));
    }
    return records;
  }

  /**
   * The table has no index on the id alone (each would cost every insert; sqlite-log-schema.ts): a UUIDv7's
   * arrival time finds the row with one seek when the log's time is its arrival (nearly every log), else
   * the server's rows are read in ranges widening from that time (idTimeRanges); any other id reads the
   * server's rows.
   */
  async getById(serverId: string, id: string): Promise<LogRecord | null> {
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined || typeof id !== 'string' || id === '') return null;
    const near = idTimeRanges(id);
    let row: Record<string, SQLOutputValue> | undefined;
    if (near === null) {
      row = this.#prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND id = ?`).get(serverKey, id);
    } else {
      row = this.#prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND created_at = ? AND id = ?`).get(serverKey, near.at, id);
      const inRange = this.#prepare(`SELECT ${PAGE_COLUMNS} FROM logs WHERE server_key = ? AND created_at BETWEEN ? AND ? AND id = ?`);
      for (const range of near.ranges) row ??= inRange.get(serverKey, range.from, range.to, id);
    }
    return row === undefined ? null : toRecord(serverId, row);
  }

  async neighbours(serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): Promise<LogRecord[]> {
    validateNeighbours(serverId, key, direction, limit);
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined || limit === 0) return [];
    return this.#prepare(NEIGHBOUR_SQL[direction])
      .all(serverKey, key.createdAt, key.id, limit)
      .map((row) => toRecord(serverId, row));
  }

  /** EXPLAIN QUERY PLAN of a neighbours() walk (tests: it must seek the clustered key, whatever the server's size). */
  explainNeighbours(serverId: string, direction: NeighbourDirection): string {
    return this.#db
      .prepare(`EXPLAIN QUERY PLAN ${NEIGHBOUR_SQL[direction]}`)
      .all(this.#serverKey(serverId, false) ?? 0, 0, '', 1)
      .map((row) => str(row['detail']))
      .join('\n');
  }

  async deleteByKeys(serverId: string, keys: readonly LogKey[]): Promise<DeleteResult> {
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    const unique = [...new Map(keys.map((key) => [`${key.createdAt}\u0000${key.id}`, [key.createdAt, key.id]])).values()];
    // Only the stored rows reach the doomed table (its count is what was deleted).
    const select = `SELECT l.server_key, l.created_at, l.id FROM json_each(?) j CROSS JOIN logs l ON l.server_key = ? AND l.created_at = j.value ->> 0 AND l.id = j.value ->> 1`;
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (let start = 0; start < unique.length; start += this.#chunk) {
      if (start > 0) await yieldToEventLoop();
      const chunk = JSON.stringify(unique.slice(start, start + this.#chunk));
      deletedCount += await this.#write(() => this.#deleteChunk(select, [chunk, serverKey], objectKeys));
    }
    return { deletedCount, objectKeys };
  }

  /**
   * Deletes, chunk by chunk, the rows whose keys `selectKeysSql` returns (its last parameters are supplied per
   * chunk: by default the chunk size as LIMIT), keeping the rollups in step in the same transaction.
   */
  async #deleteInChunks(
    selectKeysSql: string,
    params: readonly SQLInputValue[],
    chunkParams: (chunk: number) => SQLInputValue[] = (chunk) => [chunk],
  ): Promise<DeleteResult> {
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (;;) {
      const deleted = await this.#write(() => this.#deleteChunk(selectKeysSql, [...params, ...chunkParams(this.#chunk)], objectKeys));
      deletedCount += deleted;
      if (deleted < this.#chunk) break;
      await yieldToEventLoop();
    }
    return { deletedCount, objectKeys };
  }

  #deleteChunk(selectKeysSql: string, params: SQLInputValue[], objectKeys: string[]): number {
    this.#prepare('DELETE FROM temp.doomed').run();
    const selected = Number(this.#prepare(`INSERT INTO temp.doomed (${KEY_COLUMNS}) ${selectKeysSql}`).run(...params).changes);
    if (selected === 0) return 0;
    // CROSS JOIN pins the small temp table as the outer loop (the planner has no statistics to know).
    const doomedRows = 'temp.doomed d CROSS JOIN logs l ON l.server_key = d.server_key AND l.created_at = d.created_at AND l.id = d.id';
    this.#prepare(
      `INSERT INTO rollup_day (server_key, day, log_type, n, min_expires)
       SELECT l.server_key, CAST(l.created_at / ${DAY_MS} AS INTEGER), l.log_type, -count(*), min(l.expires_at) FROM ${doomedRows} WHERE true GROUP BY 1, 2, 3
       ON CONFLICT DO UPDATE SET n = n + excluded.n`,
    ).run();
    for (const [dim, column] of DIM_BY_NAME) {
      this.#prepare(
        `INSERT INTO rollup_dim (server_key, dim, value, log_type, n)
         SELECT l.server_key, ${dim}, l.${column}, l.log_type, -count(*) FROM ${doomedRows} WHERE true GROUP BY l.server_key, l.${column}, l.log_type
         ON CONFLICT DO UPDATE SET n = n + excluded.n`,
      ).run();
    }
    for (const row of this.#prepare(`SELECT l.image_key, l.thumb_key FROM ${doomedRows} WHERE l.log_type = 'photo'`).all()) {
      for (const key of [row['image_key'], row['thumb_key']]) if (typeof key === 'string' && key !== '') objectKeys.push(key);
    }
    const affected = `SELECT DISTINCT l.server_key FROM ${doomedRows}`;
    // Emptied rollup rows go, so facets only list values that still have logs.
    this.#prepare(`DELETE FROM rollup_day WHERE n <= 0 AND server_key IN (${affected})`).run();
    this.#prepare(`DELETE FROM rollup_dim WHERE n <= 0 AND server_key IN (${affected})`).run();
    // Their search index entries go with them (contentless_delete: by rowid), and their late-queue entries.
    this.#prepare(`DELETE FROM logs_fts WHERE rowid IN (SELECT l.fts_rowid FROM ${doomedRows} WHERE l.fts_rowid > 0)`).run();
    this.#prepare(`DELETE FROM search_late WHERE (${KEY_COLUMNS}) IN (SELECT ${KEY_COLUMNS} FROM temp.doomed)`).run();
    this.#prepare(`DELETE FROM logs WHERE (${KEY_COLUMNS}) IN (SELECT ${KEY_COLUMNS} FROM temp.doomed)`).run();
    return selected;
  }

  async close(): Promise<void> {
    this.#schedule?.stop();
    // The worker finishes its chunk and closes its connection before this one closes.
    await this.#thread?.close();
    if (!this.#db.isOpen) return;
    await this.#wal?.close();
    // Keeps planner statistics fresh for the next start (cheap: analyses only what changed a lot).
    this.#db.exec('PRAGMA optimize');
    // A graceful stop leaves no WAL behind: its pages go into the database file and the file is cut to zero, even
    // when another connection (a reader elsewhere in the process) keeps it from being deleted at this close.
    this.#db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    this.#db.close();
  }
}
