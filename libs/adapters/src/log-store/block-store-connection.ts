/**
 * The block log store's connection: opened with the row store's pragmas, its schema created
 * (block-store-schema.ts), registered with the WAL checkpointer; prepared statements cached by SQL text, each
 * server id's small integer key, and write transactions. The one writing connection, on the store's thread: the
 * sealer and the deletes write on it between other work. Other connections only read (the seal workers) or
 * checkpoint (the WAL checkpointer's worker, whose resets take the write lock): the writes under ingest wait for
 * those off the event loop (`write`), never in SQLite's busy handler, which sleeps the thread.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { createBlockSchema, hasRowTable } from './block-store-schema.ts';
import { PAGE_SIZE_SQL, PRAGMAS_SQL } from './sqlite-log-schema.ts';
import { ServerKeys } from './server-keys.ts';
import { checkpointBounded } from '../sqlite/wal-bound.ts';
import { StatementCache } from '../sqlite/statements.ts';
import { writeTransaction, writeTransactionWhenFree } from '../sqlite/transaction.ts';
import type { WalCheckpointer, WalFile } from '../sqlite/wal-checkpointer.ts';

/** How long a write waits for another connection's write lock (a statement's busy_timeout, a BEGIN's tries). */
const BUSY_TIMEOUT_MS = 5000;
/** Free pages a close gives back at most: 32 MiB of 16 KiB pages. */
const CLOSE_VACUUM_PAGES = 2048;

export class BlockConnection {
  readonly db: DatabaseSync;
  readonly #statements: StatementCache;
  readonly #serverKeys: ServerKeys;
  readonly #wal: WalFile | null;
  /** The file still holds the row store's `logs` table, whose rows a migration moves into blocks (read meanwhile). */
  #rowTable: boolean;

  /** `checkpointer` null leaves the checkpoints to SQLite inside the commits (wal_autocheckpoint). */
  constructor(file: string, checkpointer: WalCheckpointer | null) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.#statements = new StatementCache(this.db);
    this.#serverKeys = new ServerKeys((sql) => this.#statements.get(sql));
    // The busy timeout before anything reads the file: another process may hold it (a CLI beside the service).
    this.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.db.exec(PAGE_SIZE_SQL);
    // A new file only (SQLite changes it on an empty file alone): close() can then give freed pages back.
    this.db.exec('PRAGMA auto_vacuum = INCREMENTAL');
    this.db.exec(PRAGMAS_SQL);
    createBlockSchema(this.db);
    this.#rowTable = hasRowTable(this.db);
    if (checkpointer === null || file === ':memory:') this.#wal = null;
    else {
      this.db.exec('PRAGMA wal_autocheckpoint = 0');
      // Gated: under sustained ingest this connection commits back to back, so its writes wait for the WAL's
      // resets (walReady) rather than leave them to contend with its commits (wal-checkpointer.ts).
      this.#wal = checkpointer.register(
        file,
        () => {
          if (this.db.isOpen) checkpointBounded(this.db, 0, BUSY_TIMEOUT_MS);
        },
        { gated: true },
      );
    }
  }

  /** The tables holding unsealed rows: the tail, and the row store's table while a migration empties it. */
  get rowTables(): readonly ('tail' | 'logs')[] {
    return this.#rowTable ? ['tail', 'logs'] : ['tail'];
  }

  get migrating(): boolean {
    return this.#rowTable;
  }

  /** The migration dropped the row store's table. */
  rowTableDropped(): void {
    this.#rowTable = false;
  }

  prepare(sql: string): StatementSync {
    return this.#statements.get(sql);
  }

  /** The small integer standing for a server id; undefined for a server that never stored a log. */
  serverKey(serverId: string, create: boolean): number | undefined {
    return this.#serverKeys.get(serverId, create);
  }

  /**
   * Null when a write may go on; else a reset of the WAL under way (past its bound), which the write paths that
   * fill it (insertBatch, seals, a migration's chunks) await first, off the event loop.
   */
  walReady(): Promise<void> | null {
    return this.#wal?.ready() ?? null;
  }

  /**
   * A write transaction begun at once: its BEGIN waits in SQLite's busy handler, a synchronous sleep of the event
   * loop, if another connection holds the write lock. For the schema at open and the deletes of tail rows (which
   * wait for a reset of the WAL at the start of their turn only); every other write path uses `write`.
   */
  transaction<R>(work: () => R): R {
    let result: R;
    try {
      result = writeTransaction(this.db, work);
    } catch (err) {
      this.#rolledBack();
      throw err;
    }
    this.#wal?.wrote();
    return result;
  }

  /**
   * A write transaction that never waits on the event loop: it begins once no reset of the WAL is under way
   * (walReady, awaited again after each), and a BEGIN that finds the write lock taken by another connection (the
   * checkpoint worker's reset, another process) is tried again after a timer rather than in SQLite's busy handler,
   * which sleeps the thread up to the busy timeout. `work` runs synchronously inside it.
   */
  async write<R>(work: () => R): Promise<R> {
    let result: R;
    try {
      result = await writeTransactionWhenFree(this.db, work, { busyTimeoutMs: BUSY_TIMEOUT_MS, ready: () => this.walReady() });
    } catch (err) {
      this.#rolledBack();
      throw err;
    }
    this.#wal?.wrote();
    return result;
  }

  /** A server key created in the rolled-back transaction is gone from the table: forget the cached ones. */
  #rolledBack(): void {
    this.#serverKeys.forget();
  }

  async close(): Promise<void> {
    if (!this.db.isOpen) return;
    await this.#wal?.close();
    this.db.exec('PRAGMA optimize');
    // The pages the close's seals freed (the tail's rows are ~10 times their sealed size), and up to this many
    // others, go back to the file system rather than waiting in the file for the next writes. Bounded: a
    // retention sweep can leave far more free, and each page moved goes through the WAL.
    this.db.prepare(`PRAGMA incremental_vacuum(${CLOSE_VACUUM_PAGES})`).all();
    // A graceful stop leaves no WAL behind (see sqlite-log-connection.ts).
    this.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    this.db.close();
  }
}
