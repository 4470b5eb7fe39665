/**
 * Prepares a statement on a connection that writes 64-bit rowids (the log store's search index packs a
 * server key and a time slot into one, past 2^53 from the 1024th server on).
 *
 * `run()` answers the connection's last inserted rowid, whatever table the statement itself touched, and
 * since Node 26 node:sqlite throws ERR_OUT_OF_RANGE when that rowid is past Number.MAX_SAFE_INTEGER unless
 * the statement reads BigInts, AFTER the write happened: every later write on the connection would fail
 * and its transaction roll back. A statement that returns no rows reads BigInts here (its `changes` and
 * `lastInsertRowid` are then bigint; callers take `Number(changes)`); statements returning rows keep their
 * columns as numbers.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export function prepareStatement(db: DatabaseSync, sql: string): StatementSync {
  const statement = db.prepare(sql);
  if (statement.columns().length === 0) statement.setReadBigInts(true);
  return statement;
}

/** How many statements a StatementCache keeps before it starts over. */
export const STATEMENT_CACHE_LIMIT = 500;

/**
 * One connection's prepared statements by SQL text, each prepared once (prepareStatement), so filters of the
 * same shape reuse one statement. The stores build SQL from a query's filters, so a long-lived connection
 * sees many shapes: past `limit` statements the cache starts over rather than keep every shape it ever ran
 * (preparing one again costs microseconds).
 */
export class StatementCache {
  readonly #db: DatabaseSync;
  readonly #limit: number;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, limit = STATEMENT_CACHE_LIMIT) {
    this.#db = db;
    this.#limit = limit;
  }

  /** Statements held now (tests). */
  get size(): number {
    return this.#statements.size;
  }

  get(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = prepareStatement(this.#db, sql);
      if (this.#statements.size >= this.#limit) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
