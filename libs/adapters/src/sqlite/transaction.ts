/**
 * A write transaction on a node:sqlite connection, as every embedded store runs one. IMMEDIATE takes the write
 * lock up front, so a concurrent writer (another connection, another process on the file) waits for it
 * (busy_timeout) or is refused at BEGIN, never half-way through. On an error the transaction is rolled back
 * if it is still open: SQLite itself ends one on some errors (a full disk, an interrupted statement), and a
 * ROLLBACK then would throw and hide the error that matters.
 */
import type { DatabaseSync } from 'node:sqlite';

export function writeTransaction<R>(db: DatabaseSync, work: () => R): R {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
