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

function isBusy(error: unknown): boolean {
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

export function writeTransaction<R>(db: DatabaseSync, work: () => R): R {
  beginImmediate(db);
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
