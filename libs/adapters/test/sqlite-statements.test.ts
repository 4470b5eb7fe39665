import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareStatement } from '../src/sqlite/statements.ts';

/** A rowid past 2^53, as the log store's search index writes from the 1024th server on. */
const WIDE_ROWID = 2n ** 60n;

describe('prepareStatement', () => {
  let db: DatabaseSync;
  afterEach(() => db.close());

  function connectionAfterAWideRowid(): DatabaseSync {
    db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE wide (id INTEGER PRIMARY KEY); CREATE TABLE items (name TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID');
    prepareStatement(db, 'INSERT INTO wide (id) VALUES (?)').run(WIDE_ROWID);
    return db;
  }

  it('writes on a connection whose last inserted rowid is past 2^53, and says how many rows changed', () => {
    const connection = connectionAfterAWideRowid();
    const result = prepareStatement(connection, 'INSERT INTO items (name, n) VALUES (?, ?)').run('a', 1);
    expect(Number(result.changes)).toBe(1);
    expect(result.lastInsertRowid).toBe(WIDE_ROWID);
    expect(Number(prepareStatement(connection, 'DELETE FROM items WHERE name = ?').run('a').changes)).toBe(1);
  });

  it('leaves statements that return rows reading numbers', () => {
    const connection = connectionAfterAWideRowid();
    prepareStatement(connection, 'INSERT INTO items (name, n) VALUES (?, ?)').run('a', 7);
    expect(prepareStatement(connection, 'SELECT n FROM items').get()?.['n']).toBe(7);
    expect(prepareStatement(connection, 'DELETE FROM items RETURNING n').all()).toEqual([{ n: 7 }]);
  });
});
