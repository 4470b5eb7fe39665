/**
 * A write transaction on a node:sqlite connection, as every embedded store runs one. IMMEDIATE takes the write
 * lock up front, so a concurrent writer (another connection, another process on the file) waits for it
 * (busy_timeout) or is refused at BEGIN, never half-way through. On an error the transaction is rolled back
 * if it is still open: SQLite itself ends one on some errors (a full disk, an interrupted statement), and a
 * ROLLBACK then would throw and hide the error that matters.
 *
 * SQLite may answer BEGIN IMMEDIATE with SQLITE_BUSY well before the connection's busy_timeout: the event bus
 * journal (busy_timeout 5000) was refused after 18 ms beside its checkpoint worker under a profiled load, and
 * failed a publish (a POST /api/logs answered 500) and a consumer's commit. A refused BEGIN has taken nothing
 * and run nothing, so it is tried again until the busy_timeout has really passed. A connection with
 * busy_timeout 0 (the log store beside its indexing worker, which retries from the event loop) is refused at
 * once, as before.
 */
import type { DatabaseSync } from 'node:sqlite';

/** SQLite's SQLITE_BUSY (primary code): another connection holds the lock. */
const SQLITE_BUSY = 5;
/** The pause between two BEGINs when SQLite answered the previous one at once. */
const RETRY_PAUSE_MS = 1;
const pause = new Int32Array(new SharedArrayBuffer(4));

export function isBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'errcode' in error && typeof error.errcode === 'number' && (error.errcode & 0xff) === SQLITE_BUSY;
}

function busyTimeoutMs(db: DatabaseSync): number {
  return Number(db.prepare('PRAGMA busy_timeout').get()?.['timeout'] ?? 0);
}

/** BEGIN IMMEDIATE, tried again while SQLite answers SQLITE_BUSY before the connection's busy_timeout passed. */
function beginImmediate(db: DatabaseSync): void {
  const started = performance.now();
  let budgetMs: number | undefined;
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if (!isBusy(error)) throw error;
      budgetMs ??= busyTimeoutMs(db);
      if (performance.now() - started >= budgetMs) throw error;
      Atomics.wait(pause, 0, 0, RETRY_PAUSE_MS);
    }
  }
}

/**
 * BEGIN IMMEDIATE that never waits: answers SQLite's busy error, with nothing taken, when another connection
 * holds the write lock, else null. For a connection on the event loop's thread, whose busy handler would sleep
 * that thread: it waits off the loop and tries again (`writeTransactionWhenFree`). The connection's busy_timeout
 * (`busyTimeoutMs`) is kept for its other statements.
 */
function beginWithoutWaiting(db: DatabaseSync, busyTimeoutMs: number): Error | null {
  db.exec('PRAGMA busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
    return null;
  } catch (error) {
    if (!isBusy(error)) throw error;
    return error as Error;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  }
}

/** Runs `work` inside the transaction BEGIN IMMEDIATE (taken by the caller) opened: COMMIT, or ROLLBACK on an error. */
function inTransaction<R>(db: DatabaseSync, work: () => R): R {
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

export function writeTransaction<R>(db: DatabaseSync, work: () => R): R {
  beginImmediate(db);
  return inTransaction(db, work);
}

/** The first pause between two BEGINs refused without waiting, doubled up to MAX_FREE_PAUSE_MS. */
const FIRST_FREE_PAUSE_MS = 1;
const MAX_FREE_PAUSE_MS = 16;

export interface WhenFreeOptions {
  /** The connection's busy_timeout, set again after each BEGIN that did not wait (its other statements keep it). */
  busyTimeoutMs: number;
  /** How long BEGINs may be refused before the busy error is thrown; the busy timeout by default. */
  giveUpMs?: number;
  /** Awaited before every try while it answers a promise: a reset of the WAL under way, say. */
  ready?: () => Promise<void> | null;
  /** The wait after a refused BEGIN, `ms` long or shorter: a connection told when the holder lets go ends it then. */
  pause?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A write transaction whose BEGIN waits for the write lock off the event loop: refused at once while another
 * connection holds it (beginWithoutWaiting), it is tried again after a pause of 1, 2, 4 ... up to 16 ms, until it
 * has been refused for `giveUpMs` (then the busy error is thrown, as a synchronous BEGIN's would be). `work` runs
 * synchronously inside the transaction.
 */
export async function writeTransactionWhenFree<R>(db: DatabaseSync, work: () => R, options: WhenFreeOptions): Promise<R> {
  const { busyTimeoutMs, giveUpMs = busyTimeoutMs, ready = () => null, pause = sleep } = options;
  let refusedSince: number | null = null;
  let pauseMs = FIRST_FREE_PAUSE_MS;
  for (;;) {
    for (let wait = ready(); wait !== null; wait = ready()) {
      await wait;
      refusedSince = null;
    }
    const busy = beginWithoutWaiting(db, busyTimeoutMs);
    if (busy === null) return inTransaction(db, work);
    refusedSince ??= performance.now();
    // Refused for as long as a synchronous BEGIN would have waited: the same error.
    if (performance.now() - refusedSince >= giveUpMs) throw busy;
    await pause(pauseMs);
    pauseMs = Math.min(MAX_FREE_PAUSE_MS, pauseMs * 2);
  }
}
