/**
 * writeTransaction against a BEGIN IMMEDIATE that SQLite refuses with SQLITE_BUSY before the connection's
 * busy_timeout (seen on the event bus journal beside its checkpoint worker): tried again until the timeout
 * really passed, the work run once; refused at once on a connection with busy_timeout 0.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { writeTransaction } from '../src/sqlite/transaction.ts';

/** A connection whose first `refusals` BEGIN IMMEDIATEs are answered "database is locked" at once. */
class EarlyBusyDatabase extends DatabaseSync {
  refused = 0;
  readonly #refusals: number;

  constructor(refusals: number) {
    super(':memory:');
    this.#refusals = refusals;
  }

  override exec(sql: string): void {
    if (sql === 'BEGIN IMMEDIATE' && this.refused < this.#refusals) {
      this.refused += 1;
      throw Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5, errstr: 'database is locked' });
    }
    super.exec(sql);
  }
}

function openWithTable(refusals: number, busyTimeoutMs: number): EarlyBusyDatabase {
  const db = new EarlyBusyDatabase(refusals);
  db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}; CREATE TABLE rows (x INTEGER)`);
  return db;
}

const count = (db: DatabaseSync): number => Number(db.prepare('SELECT COUNT(*) AS n FROM rows').get()?.['n']);

describe('writeTransaction', () => {
  it('tries a BEGIN refused before the busy timeout again, and runs the work once', () => {
    const db = openWithTable(3, 5000);
    let runs = 0;
    const result = writeTransaction(db, () => {
      runs += 1;
      db.prepare('INSERT INTO rows VALUES (1)').run();
      return 'done';
    });
    expect(result).toBe('done');
    expect(db.refused).toBe(3);
    expect(runs).toBe(1);
    expect(count(db)).toBe(1);
    expect(db.isTransaction).toBe(false);
    db.close();
  });

  it('is refused at once on a connection with busy_timeout 0, without running the work', () => {
    const db = openWithTable(1, 0);
    let runs = 0;
    expect(() => writeTransaction(db, () => (runs += 1))).toThrow('database is locked');
    expect(runs).toBe(0);
    expect(db.refused).toBe(1);
    db.close();
  });

  it('gives up once the busy timeout has passed', () => {
    const db = openWithTable(Number.MAX_SAFE_INTEGER, 30);
    const started = performance.now();
    expect(() => writeTransaction(db, () => undefined)).toThrow('database is locked');
    expect(performance.now() - started).toBeGreaterThanOrEqual(30);
    expect(db.isTransaction).toBe(false);
    db.close();
  });
});
