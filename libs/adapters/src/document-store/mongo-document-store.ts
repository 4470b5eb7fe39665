/**
 * MongoDB document store (mongodb 7 driver), writeConcern majority.
 *
 * Filters, updates and sorts are validated by query-validation first and then REBUILT from the
 * validated conditions, so nothing a client sent is ever handed to the server verbatim.
 */
import { randomUUID } from 'node:crypto';
import { MongoClient, MongoServerError } from 'mongodb';
import type { Collection as MongoCollection, Db, Document, Filter as MongoFilter, Sort, UpdateFilter } from 'mongodb';
import { DuplicateKeyError } from '@skald/ports';
import type { BaseDocument, Collection, DocumentStore, Filter, FindOptions, GuardedUpdate, IndexSpec, Update } from '@skald/ports';
import { indexName, validateCollection, validateDocument, validateFilter, validateFindOptions, validateGuardedUpdates, validateUpdate } from './query-validation.ts';
import type { FieldCondition, ValidatedSort, ValidatedUpdate } from './query-validation.ts';

const DUPLICATE_KEY = 11000;

function isDuplicateKey(err: unknown): boolean {
  if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) return true;
  // Bulk and upsert errors carry the code on nested write errors.
  return typeof err === 'object' && err !== null && 'code' in err && err.code === DUPLICATE_KEY;
}

async function translateErrors<R>(collection: string, write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (err) {
    if (isDuplicateKey(err)) throw new DuplicateKeyError(`duplicate key in ${collection}`);
    throw err;
  }
}

/** Rebuilds the Mongo filter from validated conditions (same semantics as the SQLite translation). */
export function mongoFilter(conditions: readonly FieldCondition[]): MongoFilter<Document> {
  const filter: Record<string, Record<string, unknown>> = {};
  const add = (field: string, op: string, value: unknown): void => {
    filter[field] ??= {};
    filter[field][op] = value;
  };
  for (const c of conditions) {
    switch (c.op) {
      case 'eq':
        add(c.field, '$eq', c.value);
        break;
      case 'ne':
        add(c.field, '$ne', c.value);
        break;
      case 'in':
        add(c.field, '$in', [...c.values]);
        break;
      default:
        add(c.field, c.op, c.value);
    }
  }
  return filter;
}

function mongoUpdate(update: ValidatedUpdate): UpdateFilter<Document> {
  const out: UpdateFilter<Document> = {};
  if (update.set.length > 0) out.$set = Object.fromEntries(update.set);
  if (update.unset.length > 0) out.$unset = Object.fromEntries(update.unset.map((f) => [f, '']));
  if (update.inc.length > 0) out.$inc = Object.fromEntries(update.inc);
  return out;
}

function mongoSort(sort: readonly ValidatedSort[]): Sort {
  const out: Record<string, 1 | -1> = {};
  for (const s of sort) out[s.field] = s.direction;
  // Same tie-breaker as SQLite so that skip/limit pages are stable.
  if (sort.length > 0 && !('_id' in out)) out['_id'] = 1;
  return out;
}

class MongoDocumentCollection<T extends BaseDocument> implements Collection<T> {
  readonly #c: MongoCollection<Document>;
  readonly #name: string;

  constructor(c: MongoCollection<Document>, name: string) {
    this.#c = c;
    this.#name = name;
  }

  async insertOne(doc: T): Promise<void> {
    validateDocument(doc);
    // Copy: the driver would otherwise add fields to the caller's object.
    const copy: Document = { ...doc };
    await translateErrors(this.#name, () => this.#c.insertOne(copy));
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.#c.findOne(mongoFilter(validateFilter(filter)))) as T | null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    const conditions = validateFilter(filter);
    const { sort, skip, limit } = validateFindOptions(options);
    let cursor = this.#c.find(mongoFilter(conditions));
    if (sort.length > 0) cursor = cursor.sort(mongoSort(sort));
    if (skip > 0) cursor = cursor.skip(skip);
    if (limit !== undefined) cursor = cursor.limit(limit);
    const docs: Document[] = await cursor.toArray();
    return docs as T[];
  }

  async count(filter: Filter): Promise<number> {
    return this.#c.countDocuments(mongoFilter(validateFilter(filter)));
  }

  async updateOne(filter: Filter, update: Update, options?: { readonly upsert?: boolean }): Promise<{ matched: number }> {
    const conditions = validateFilter(filter);
    const body = mongoUpdate(validateUpdate(update));
    const upsert = options?.upsert === true;
    // Our ids are strings: without an _id equality in the filter, an upsert would create an ObjectId.
    if (upsert && !conditions.some((c) => c.op === 'eq' && c.field === '_id')) body.$setOnInsert = { _id: randomUUID() };
    const result = await translateErrors(this.#name, () => this.#c.updateOne(mongoFilter(conditions), body, { upsert }));
    return { matched: result.matchedCount };
  }

  async updateMany(filter: Filter, update: Update): Promise<{ matched: number }> {
    const body = mongoUpdate(validateUpdate(update));
    const filterDoc = mongoFilter(validateFilter(filter));
    const result = await translateErrors(this.#name, () => this.#c.updateMany(filterDoc, body));
    return { matched: result.matchedCount };
  }

  async findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    const body = mongoUpdate(validateUpdate(update));
    const filterDoc = mongoFilter(validateFilter(filter));
    const doc = await translateErrors(this.#name, () => this.#c.findOneAndUpdate(filterDoc, body, { returnDocument: 'after' }));
    return doc as T | null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    return (await this.#c.deleteOne(mongoFilter(validateFilter(filter)))).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.#c.deleteMany(mongoFilter(validateFilter(filter)))).deletedCount;
  }
}

export class MongoDocumentStore implements DocumentStore {
  readonly #client: MongoClient;
  readonly #db: Db;

  constructor(url: string, database: string) {
    this.#client = new MongoClient(url, {
      writeConcern: { w: 'majority' },
      // Fail fast instead of hanging when the server is unreachable.
      serverSelectionTimeoutMS: 10_000,
      ignoreUndefined: true,
    });
    this.#db = this.#client.db(database);
  }

  async collection<T extends BaseDocument>(name: string, indexes: readonly IndexSpec[] = []): Promise<Collection<T>> {
    validateCollection(name, indexes);
    const c = this.#db.collection<Document>(name);
    for (const index of indexes) {
      const keys = Object.fromEntries(index.fields.map((f) => [f, 1 as const]));
      // SQLite unique indexes ignore rows whose indexed value is NULL/missing; a partial index gives
      // MongoDB the same rule (otherwise two documents without the field would collide).
      const partial = index.unique === true ? { partialFilterExpression: Object.fromEntries(index.fields.map((f) => [f, { $exists: true }])) } : {};
      await c.createIndex(keys, { name: indexName(index), unique: index.unique === true, ...partial });
    }
    return new MongoDocumentCollection<T>(c, name);
  }

  async updateAllOrNone(updates: readonly GuardedUpdate[]): Promise<boolean> {
    // Everything is validated before the transaction starts: a refused query changes nothing.
    const steps = validateGuardedUpdates(updates).map((u) => ({ collection: u.collection, filter: mongoFilter(u.conditions), update: mongoUpdate(u.update) }));
    if (steps.length === 0) return true;
    // A multi-document transaction (MongoDB runs as a replica set: docker-compose, k8s, the test container).
    // withTransaction retries a transient write conflict from the start, where a concurrent winner's change
    // makes our filter miss: the loser answers false rather than overwriting it.
    const session = this.#client.startSession();
    try {
      return await session.withTransaction(async () => {
        for (const step of steps) {
          const result = await translateErrors(step.collection, () => this.#db.collection<Document>(step.collection).updateOne(step.filter, step.update, { session }));
          if (result.matchedCount === 0) {
            await session.abortTransaction();
            return false;
          }
        }
        return true;
      });
    } finally {
      await session.endSession();
    }
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
