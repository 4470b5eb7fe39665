import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareStatement, StatementCache } from '../src/sqlite/statements.ts';

/** A rowid past 2^53, as the log store's search index writes from the 1024th server on. */
const WIDE_ROWID = 2n ** 60n;

let db: DatabaseSync;
afterEach(() => db.close());

describe('prepareStatement', () => {
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

describe('StatementCache', () => {
  function items(): DatabaseSync {
    db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE items (name TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID');
    return db;
  }

  it('prepares a statement once per SQL text, through prepareStatement', () => {
    const cache = new StatementCache(items());
    const insert = cache.get('INSERT INTO items (name, n) VALUES (?, ?)');
    expect(cache.get('INSERT INTO items (name, n) VALUES (?, ?)')).toBe(insert);
    expect(cache.get('SELECT n FROM items WHERE name = ?')).not.toBe(insert);
    // A statement without result columns reads BigInts, as prepareStatement makes it.
    expect(insert.run('a', 1).changes).toBe(1n);
    expect(cache.get('SELECT n FROM items WHERE name = ?').get('a')).toEqual({ n: 1 });
    expect(cache.size).toBe(2);
  });

  it('starts over past its limit, and what it hands out still works', () => {
    const cache = new StatementCache(items(), 3);
    cache.get('INSERT INTO items (name, n) VALUES (?, ?)').run('a', 1);
    const shapes = [1, 2, 3, 4, 5].map((k) => `SELECT n FROM items WHERE name = ? AND n < ${k + 1}`);
    const held = shapes.map((sql) => cache.get(sql));
    expect(cache.size).toBeLessThanOrEqual(3);
    for (const statement of held) expect(statement.get('a')).toEqual({ n: 1 });
    // Prepared again after the clear: a new statement for the same text, same answers.
    expect(cache.get(shapes[0]!)).not.toBe(held[0]);
    expect(cache.get(shapes[0]!).get('a')).toEqual({ n: 1 });
  });
});
