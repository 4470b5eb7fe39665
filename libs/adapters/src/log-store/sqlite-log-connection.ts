/**
 * The embedded log store's own connection and the rules every statement on it follows: opened with the
 * store's pragmas, migrated, registered with the WAL checkpointer; its prepared statements (cached by SQL
 * text), the small integer key of each server id, and the three ways work runs on it: a write transaction,
 * a write from an async path that retries while the indexing worker holds the lock, and a read snapshot.
 * The read, write and delete modules hold one of these; only this module knows about the lock shared with
 * the indexing worker (search-index-thread.ts) and about keeping the search indexer's caches coherent with it.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { PAGE_SIZE_SQL, PRAGMAS_SQL, migrateLogSchema } from './sqlite-log-schema.ts';
import { SearchIndexer } from './sqlite-log-search.ts';
import { ServerKeys } from './server-keys.ts';
import { checkpointBounded } from '../sqlite/wal-bound.ts';
import { StatementCache } from '../sqlite/statements.ts';
import { writeTransaction, writeTransactionWhenFree } from '../sqlite/transaction.ts';
import type { WalCheckpointer, WalFile } from '../sqlite/wal-checkpointer.ts';

/** A write refused the lock this long gives up (the caller fails, the bus delivers the batch again). */
export const BUSY_GIVE_UP_MS = 30_000;
/** PRAGMAS_SQL's busy_timeout, the connection's own until the indexing worker writes beside it (then 0). */
const OWN_BUSY_TIMEOUT_MS = 5_000;

export class LogConnection {
  readonly db: DatabaseSync;
  /** The search index's writer on this connection; its cached cursors follow this connection's transactions. */
  readonly indexer: SearchIndexer;
  readonly #statements: StatementCache;
  readonly #serverKeys: ServerKeys;
  /** Writes waiting for the worker's lock (write()), woken when one of its chunks ends. */
  readonly #lockWaiters: (() => void)[] = [];
  /** The file as registered with the WAL checkpointer (null: SQLite checkpoints inside the commits). */
  readonly #wal: WalFile | null;
  #shared = false;

  /** `checkpointer` null leaves the checkpoints to SQLite inside the commits (wal_autocheckpoint). */
  constructor(file: string, checkpointer: WalCheckpointer | null) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.#statements = new StatementCache(this.db);
    this.#serverKeys = new ServerKeys((sql) => this.#statements.get(sql));
    this.indexer = new SearchIndexer(this.db);
    this.db.exec(PAGE_SIZE_SQL);
    this.db.exec(PRAGMAS_SQL);
    this.#wal = this.#registerWal(file, checkpointer);
    migrateLogSchema(this.db, (work) => this.transaction(work));
  }

  /**
   * Whether another connection (the indexing worker) may write the index beside this one: a store file
   * indexed in the background. Its cached cursors are then read again in every transaction, a search reads
   * in one snapshot, and writes meeting the lock retry (write()).
   */
  get shared(): boolean {
    return this.#shared;
  }

  /** From now on the indexing worker writes beside this connection: writes meeting its lock retry from the event loop instead of sleeping in SQLite. */
  shareWithIndexWorker(): void {
    this.#shared = true;
    this.db.exec('PRAGMA busy_timeout = 0');
  }

  /** The lock may be free (a chunk of the worker ended, or the worker is gone): writes waiting for it go now rather than at the end of their backoff. */
  wakeWriters(): void {
    for (const wake of this.#lockWaiters.splice(0)) wake();
  }

  /** Tells the WAL checkpointer that a commit (of this or the worker's connection) grew the WAL. */
  wrote(): void {
    this.#wal?.wrote();
  }

  prepare(sql: string): StatementSync {
    return this.#statements.get(sql);
  }

  /** The small integer standing for a server id; undefined for a server that never stored a log. */
  serverKey(serverId: string, create: boolean): number | undefined {
    return this.#serverKeys.get(serverId, create);
  }

  #registerWal(file: string, checkpointer: WalCheckpointer | null): WalFile | null {
    if (checkpointer === null || file === ':memory:') return null;
    this.db.exec('PRAGMA wal_autocheckpoint = 0');
    return checkpointer.register(file, () => {
      // busy 0: the event loop never waits for the indexer's write lock (an oversized WAL is reset by a later
      // try); afterwards the connection's own busy timeout again (0 beside the indexing worker, else PRAGMAS_SQL's).
      if (this.db.isOpen) checkpointBounded(this.db, 0, this.#shared ? 0 : 5000);
    });
  }

  transaction<R>(work: () => R): R {
    let result: R;
    try {
      result = writeTransaction(this.db, () => this.#inWrite(work));
    } catch (err) {
      this.#rolledBack();
      throw err;
    }
    this.#wal?.wrote();
    return result;
  }

  /**
   * A write transaction from an async path that never waits on the event loop: a BEGIN IMMEDIATE that meets
   * another connection's lock (the indexing worker's) is refused at once and tried again when the worker's chunk
   * ends (wakeWriters) or after a backoff of 1 to 16 ms, whichever comes first, while this thread answers other
   * work. `work` runs only once the lock is held.
   */
  async write<R>(work: () => R): Promise<R> {
    let result: R;
    try {
      result = await writeTransactionWhenFree(this.db, () => this.#inWrite(work), {
        busyTimeoutMs: this.#shared ? 0 : OWN_BUSY_TIMEOUT_MS,
        giveUpMs: BUSY_GIVE_UP_MS,
        pause: (ms) => new Promise<void>((resolve) => {
          this.#lockWaiters.push(resolve);
          setTimeout(resolve, ms);
        }),
      });
    } catch (err) {
      this.#rolledBack();
      throw err;
    }
    this.#wal?.wrote();
    return result;
  }

  /** The worker's commits may have moved the cursors and next rowids this connection read before. */
  #inWrite<R>(work: () => R): R {
    if (this.#shared) this.indexer.forgetCaches();
    return work();
  }

  /** A server key created in the rolled-back transaction is gone from the table: forget the cached ones. */
  #rolledBack(): void {
    this.#serverKeys.forget();
    this.indexer.reset();
  }

  /**
   * Reads that must agree with each other (a search's cursor, index and scans) in one snapshot: beside the
   * indexing worker a commit of it could fall between two statements otherwise. Synchronous work only.
   */
  snapshot<R>(work: () => R): R {
    if (!this.#shared) return work();
    this.db.exec('BEGIN');
    this.indexer.forgetCaches();
    try {
      return work();
    } finally {
      this.db.exec('COMMIT');
    }
  }

  /** Closes the connection once the indexing worker has closed its own (the caller awaits that first). */
  async close(): Promise<void> {
    if (!this.db.isOpen) return;
    await this.#wal?.close();
    // Keeps planner statistics fresh for the next start (cheap: analyses only what changed a lot).
    this.db.exec('PRAGMA optimize');
    // A graceful stop leaves no WAL behind: its pages go into the database file and the file is cut to zero, even
    // when another connection (a reader elsewhere in the process) keeps it from being deleted at this close.
    this.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    this.db.close();
  }
}
