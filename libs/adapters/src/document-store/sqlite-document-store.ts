/**
 * Embedded document store on node:sqlite: one table per collection, `(_id TEXT PRIMARY KEY, doc TEXT)`
 * holding the JSON document, with json_extract expression indexes for the declared IndexSpecs.
 *
 * node:sqlite is synchronous and this adapter owns its connection, so every statement (including
 * the read-modify-write of $inc and findOneAndUpdate, done as one UPDATE ... RETURNING) is atomic
 * with respect to every other call in the process.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { DuplicateKeyError } from '@skald/ports';
import type { BaseDocument, Collection, DocumentStore, Filter, FindOptions, GuardedUpdate, IndexSpec, Update } from '@skald/ports';
import { equalityFields, indexName, validateCollection, validateDocument, validateFilter, validateFindOptions, validateGuardedUpdates, validateUpdate } from './query-validation.ts';
import type { ValidatedUpdate } from './query-validation.ts';
import { StatementCache } from '../sqlite/statements.ts';
import { fieldExpr, orderByClause, whereClause } from './sqlite-filter-sql.ts';
import type { SqlFragment } from './sqlite-filter-sql.ts';

/** SQLITE_CONSTRAINT_PRIMARYKEY and SQLITE_CONSTRAINT_UNIQUE extended result codes. */
const DUPLICATE_KEY_CODES: ReadonlySet<number> = new Set([1555, 2067]);

function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'errcode' in err && DUPLICATE_KEY_CODES.has(Number(err.errcode));
}

/** Runs a write and maps unique violations to the port's DuplicateKeyError. */
function translateErrors<R>(collection: string, write: () => R): R {
  try {
    return write();
  } catch (err) {
    if (isDuplicateKey(err)) {
      throw new DuplicateKeyError(`duplicate key in ${collection}: ${err instanceof Error ? err.message : String(err)}`);
    }
    throw err;
  }
}

/** Integers are bound as BigInt so that $inc keeps JSON integers integral ("3", not "3.0"). */
function numberParam(n: number): SQLInputValue {
  return Number.isSafeInteger(n) ? BigInt(n) : n;
}

/** The SQL expression producing the updated document from `doc`. */
function updateExpr(update: ValidatedUpdate): { sql: string; params: SQLInputValue[] } {
  const params: SQLInputValue[] = [];
  let expr = 'doc';
  if (update.unset.length > 0) expr = `json_remove(${expr}, ${update.unset.map((f) => `'$.${f}'`).join(', ')})`;
  const assignments: string[] = [];
  for (const [field, value] of update.set) {
    assignments.push(`'$.${field}', json(?)`);
    params.push(JSON.stringify(value));
  }
  for (const [field, by] of update.inc) {
    // Reads the pre-update document: the field cannot also be in $set/$unset (validated).
    assignments.push(`'$.${field}', coalesce(${fieldExpr(field)}, 0) + ?`);
    params.push(numberParam(by));
  }
  if (assignments.length > 0) expr = `json_set(${expr}, ${assignments.join(', ')})`;
  return { sql: expr, params };
}

function tableOf(collection: string): string {
  return `"c_${collection}"`;
}

/** UPDATE of the first document (in insertion order) the WHERE matches, as updateOne and MongoDB pick it. */
function updateFirstSql(table: string, set: string, where: string): string {
  return `UPDATE ${table} SET doc = ${set} WHERE rowid = (SELECT rowid FROM ${table} WHERE ${where} ORDER BY rowid LIMIT 1)`;
}

function parseDoc<T>(row: Record<string, SQLInputValue> | undefined): T | null {
  if (row === undefined) return null;
  return JSON.parse(String(row['doc'])) as T;
}

class SqliteCollection<T extends BaseDocument> implements Collection<T> {
  readonly #name: string;
  readonly #table: string;
  readonly #insert: StatementSync;
  /** Prepared statements keyed by their SQL text: filters of the same shape reuse one statement. */
  readonly #statements: StatementCache;

  constructor(db: DatabaseSync, name: string) {
    this.#statements = new StatementCache(db);
    this.#name = name;
    this.#table = tableOf(name);
    this.#insert = db.prepare(`INSERT INTO ${this.#table} (_id, doc) VALUES (?, ?)`);
  }

  #prepare(sql: string): StatementSync {
    return this.#statements.get(sql);
  }

  async insertOne(doc: T): Promise<void> {
    const { id } = validateDocument(doc);
    translateErrors(this.#name, () => this.#insert.run(id, JSON.stringify(doc)));
  }

  async findOne(filter: Filter): Promise<T | null> {
    const where = whereClause(validateFilter(filter));
    const row = this.#prepare(`SELECT doc FROM ${this.#table} WHERE ${where.sql} ORDER BY rowid LIMIT 1`).get(...where.params);
    return parseDoc<T>(row);
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    const where = whereClause(validateFilter(filter));
    const { sort, skip, limit } = validateFindOptions(options);
    const params = [...where.params, limit === undefined ? -1 : limit, skip];
    const rows = this.#prepare(`SELECT doc FROM ${this.#table} WHERE ${where.sql} ORDER BY ${orderByClause(sort)} LIMIT ? OFFSET ?`).all(...params);
    return rows.map((row) => JSON.parse(String(row['doc'])) as T);
  }

  async count(filter: Filter): Promise<number> {
    const where = whereClause(validateFilter(filter));
    const row = this.#prepare(`SELECT count(*) AS n FROM ${this.#table} WHERE ${where.sql}`).get(...where.params);
    return Number(row?.['n'] ?? 0);
  }

  async updateOne(filter: Filter, update: Update, options?: { readonly upsert?: boolean }): Promise<{ matched: number }> {
    const conditions = validateFilter(filter);
    const changes = validateUpdate(update);
    const where = whereClause(conditions);
    const set = updateExpr(changes);
    const result = translateErrors(this.#name, () =>
      this.#prepare(updateFirstSql(this.#table, set.sql, where.sql)).run(...set.params, ...where.params),
    );
    const matched = Number(result.changes);
    if (matched === 0 && options?.upsert === true) {
      // Same document MongoDB builds: the filter's equality fields, then $set, then $inc values.
      const doc: Record<string, unknown> = { ...equalityFields(conditions) };
      for (const [field, value] of changes.set) doc[field] = value;
      for (const [field, by] of changes.inc) doc[field] = by;
      if (typeof doc['_id'] !== 'string') doc['_id'] = randomUUID();
      const id = String(doc['_id']);
      translateErrors(this.#name, () => this.#insert.run(id, JSON.stringify(doc)));
    }
    return { matched };
  }

  async updateMany(filter: Filter, update: Update): Promise<{ matched: number }> {
    const where = whereClause(validateFilter(filter));
    const set = updateExpr(validateUpdate(update));
    // One statement: a unique violation on any row rolls back the whole update (Mongo would stop midway).
    const result = translateErrors(this.#name, () =>
      this.#prepare(`UPDATE ${this.#table} SET doc = ${set.sql} WHERE ${where.sql}`).run(...set.params, ...where.params),
    );
    return { matched: Number(result.changes) };
  }

  async findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    const where = whereClause(validateFilter(filter));
    const set = updateExpr(validateUpdate(update));
    const row = translateErrors(this.#name, () =>
      this.#prepare(`${updateFirstSql(this.#table, set.sql, where.sql)} RETURNING doc`).get(...set.params, ...where.params),
    );
    return parseDoc<T>(row);
  }

  async deleteOne(filter: Filter): Promise<number> {
    const where = whereClause(validateFilter(filter));
    const result = this.#prepare(
      `DELETE FROM ${this.#table} WHERE rowid = (SELECT rowid FROM ${this.#table} WHERE ${where.sql} ORDER BY rowid LIMIT 1)`,
    ).run(...where.params);
    return Number(result.changes);
  }

  async deleteMany(filter: Filter): Promise<number> {
    const where = whereClause(validateFilter(filter));
    return Number(this.#prepare(`DELETE FROM ${this.#table} WHERE ${where.sql}`).run(...where.params).changes);
  }
}

export class SqliteDocumentStore implements DocumentStore {
  readonly #db: DatabaseSync;
  readonly #statements: StatementCache;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    // WAL + NORMAL: durable against process crashes (SIGKILL), fast commits; busy_timeout for other readers,
    // set first: switching a new file to WAL needs it to itself, so a process opening it at the same moment waits.
    this.#db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF;');
    this.#statements = new StatementCache(this.#db);
  }

  async collection<T extends BaseDocument>(name: string, indexes: readonly IndexSpec[] = []): Promise<Collection<T>> {
    validateCollection(name, indexes);
    const table = tableOf(name);
    this.#db.exec(`CREATE TABLE IF NOT EXISTS ${table} (_id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    for (const index of indexes) {
      const columns = index.fields.map(fieldExpr).join(', ');
      this.#db.exec(`CREATE ${index.unique === true ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${name}__${indexName(index)}" ON ${table} (${columns})`);
    }
    return new SqliteCollection<T>(this.#db, name);
  }

  async updateAllOrNone(updates: readonly GuardedUpdate[]): Promise<boolean> {
    // Everything is validated before the transaction opens: a refused query changes nothing.
    const steps = validateGuardedUpdates(updates).map((u) => ({ collection: u.collection, where: whereClause(u.conditions), set: updateExpr(u.update) }));
    // Synchronous from BEGIN to COMMIT: no other call of this process runs in between, and IMMEDIATE takes
    // the write lock up front against another process on the same file (an operator command).
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      if (!steps.every((step) => this.#updateFirst(step))) {
        this.#db.exec('ROLLBACK');
        return false;
      }
      this.#db.exec('COMMIT');
      return true;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  /** One step of updateAllOrNone: false when its filter matches nothing (a collection never opened holds nothing). */
  #updateFirst(step: { readonly collection: string; readonly where: SqlFragment; readonly set: SqlFragment }): boolean {
    const exists = this.#statements.get(`SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?`).get(`c_${step.collection}`);
    if (exists === undefined) return false;
    const sql = updateFirstSql(tableOf(step.collection), step.set.sql, step.where.sql);
    const result = translateErrors(step.collection, () => this.#statements.get(sql).run(...step.set.params, ...step.where.params));
    return Number(result.changes) > 0;
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
