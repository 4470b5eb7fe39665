/**
 * Validation of the document-store query subset (see docs/DOCUMENT_STORE.md).
 *
 * Every filter, update, sort and index spec passes through here BEFORE it reaches SQLite or MongoDB.
 * This is the NoSQL-injection guard: a request body that smuggles `{ "$where": ... }`, `{ "$regex": ... }`,
 * a nested object or a dotted path into a filter is refused with InvalidQueryError instead of being
 * interpreted by the database. Both adapters share it, so they accept exactly the same language.
 */
import { InvalidQueryError } from '@skald/ports';
import type { Filter, FindOptions, GuardedUpdate, IndexSpec, Scalar, Update } from '@skald/ports';

/**
 * Field names are plain identifiers: no leading `$` (operator), no `.` (Mongo path), nothing that would
 * need quoting inside a SQLite JSON path. Keeping them this strict lets the SQLite adapter inline the
 * path as a literal (needed for its expression indexes) without any injection risk.
 */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Collection names become SQLite table names / Mongo collection names. */
const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export type ComparisonOperator = '$gt' | '$gte' | '$lt' | '$lte';

/** One validated condition on one field; the adapters translate these, never the raw input. */
export type FieldCondition =
  | { readonly op: 'eq'; readonly field: string; readonly value: Scalar }
  | { readonly op: 'ne'; readonly field: string; readonly value: Scalar }
  | { readonly op: 'in'; readonly field: string; readonly values: readonly Scalar[] }
  | { readonly op: ComparisonOperator; readonly field: string; readonly value: string | number };

export interface ValidatedUpdate {
  readonly set: ReadonlyArray<readonly [string, unknown]>;
  readonly unset: readonly string[];
  readonly inc: ReadonlyArray<readonly [string, number]>;
}

export interface ValidatedSort {
  readonly field: string;
  readonly direction: 1 | -1;
}

const COMPARISON_OPERATORS: ReadonlySet<string> = new Set(['$gt', '$gte', '$lt', '$lte']);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

export function assertFieldName(field: string, where: string): void {
  if (!FIELD_NAME.test(field)) {
    // The name is echoed, but truncated: it may come from a client.
    throw new InvalidQueryError(`${where}: invalid field name ${JSON.stringify(field.slice(0, 64))}`);
  }
}

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name)) {
    throw new InvalidQueryError(`invalid collection name ${JSON.stringify(name.slice(0, 64))}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function assertScalar(value: unknown, where: string): Scalar {
  if (!isScalar(value)) throw new InvalidQueryError(`${where}: expected a string, finite number, boolean or null, got ${describe(value)}`);
  return value;
}

function operatorConditions(field: string, operators: Record<string, unknown>): FieldCondition[] {
  const keys = Object.keys(operators);
  if (keys.length === 0) throw new InvalidQueryError(`filter on ${field}: empty operator object`);
  const conditions: FieldCondition[] = [];
  for (const op of keys) {
    const operand = operators[op];
    const where = `filter on ${field}, ${op.slice(0, 32)}`;
    if (op === '$ne') {
      conditions.push({ op: 'ne', field, value: assertScalar(operand, where) });
    } else if (op === '$in') {
      if (!Array.isArray(operand)) throw new InvalidQueryError(`${where}: expected an array, got ${describe(operand)}`);
      const values: unknown[] = operand;
      conditions.push({ op: 'in', field, values: values.map((v) => assertScalar(v, where)) });
    } else if (COMPARISON_OPERATORS.has(op)) {
      if (typeof operand !== 'string' && !(typeof operand === 'number' && Number.isFinite(operand))) {
        throw new InvalidQueryError(`${where}: expected a string or finite number, got ${describe(operand)}`);
      }
      conditions.push({ op: op as ComparisonOperator, field, value: operand });
    } else {
      // $where, $regex, $expr, $exists, $elemMatch, plain keys inside an operator object, ...
      throw new InvalidQueryError(`filter on ${field}: operator ${JSON.stringify(op.slice(0, 32))} is not allowed`);
    }
  }
  return conditions;
}

/** Validates a filter and flattens it into ANDed field conditions. */
export function validateFilter(filter: Filter): FieldCondition[] {
  if (!isPlainObject(filter)) throw new InvalidQueryError(`filter must be a plain object, got ${describe(filter)}`);
  const conditions: FieldCondition[] = [];
  for (const field of Object.keys(filter)) {
    assertFieldName(field, 'filter');
    const value: unknown = filter[field];
    if (isPlainObject(value)) {
      conditions.push(...operatorConditions(field, value));
    } else {
      conditions.push({ op: 'eq', field, value: assertScalar(value, `filter on ${field}`) });
    }
  }
  return conditions;
}

/** Plain equality fields of a filter: what an upsert copies into the inserted document (as MongoDB does). */
export function equalityFields(conditions: readonly FieldCondition[]): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const c of conditions) if (c.op === 'eq') out[c.field] = c.value;
  return out;
}

/** Values stored through $set / insertOne must survive a JSON round trip identically in both adapters. */
function assertStorableValue(value: unknown, where: string, depth = 0): void {
  if (depth > 32) throw new InvalidQueryError(`${where}: value nested too deeply`);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidQueryError(`${where}: numbers must be finite`);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) assertStorableValue(item, where, depth + 1);
    return;
  }
  if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      // Nested keys may be free-form (e.g. metadata) but never operators or Mongo paths.
      if (key.startsWith('$') || key.includes('.')) throw new InvalidQueryError(`${where}: nested key ${JSON.stringify(key.slice(0, 64))} is not allowed`);
      assertStorableValue(value[key], where, depth + 1);
    }
    return;
  }
  throw new InvalidQueryError(`${where}: ${describe(value)} values are not storable (use epoch ms or ISO strings for dates)`);
}

export function validateDocument(doc: unknown): { readonly id: string } {
  if (!isPlainObject(doc)) throw new InvalidQueryError(`document must be a plain object, got ${describe(doc)}`);
  const id = doc['_id'];
  if (typeof id !== 'string' || id.length === 0) throw new InvalidQueryError('document _id must be a non-empty string');
  for (const key of Object.keys(doc)) {
    assertFieldName(key, 'document');
    const value = doc[key];
    // undefined is dropped by JSON in SQLite and by the Mongo driver (ignoreUndefined) alike.
    if (value !== undefined) assertStorableValue(value, `document field ${key}`);
  }
  return { id };
}

const UPDATE_OPERATORS: ReadonlySet<string> = new Set(['$set', '$unset', '$inc']);

export function validateUpdate(update: Update): ValidatedUpdate {
  if (!isPlainObject(update)) throw new InvalidQueryError(`update must be a plain object, got ${describe(update)}`);
  for (const key of Object.keys(update)) {
    if (!UPDATE_OPERATORS.has(key)) throw new InvalidQueryError(`update operator ${JSON.stringify(key.slice(0, 32))} is not allowed (use $set, $unset, $inc)`);
  }
  const seen = new Set<string>();
  const claim = (field: string, where: string): void => {
    assertFieldName(field, where);
    if (field === '_id') throw new InvalidQueryError(`${where}: _id is immutable`);
    if (seen.has(field)) throw new InvalidQueryError(`${where}: ${field} appears in more than one update operator`);
    seen.add(field);
  };

  const set: Array<readonly [string, unknown]> = [];
  if (update.$set !== undefined) {
    if (!isPlainObject(update.$set)) throw new InvalidQueryError('$set must be a plain object');
    for (const [field, value] of Object.entries(update.$set)) {
      claim(field, '$set');
      const stored = value === undefined ? null : value;
      assertStorableValue(stored, `$set ${field}`);
      set.push([field, stored]);
    }
  }
  const unset: string[] = [];
  if (update.$unset !== undefined) {
    if (!Array.isArray(update.$unset)) throw new InvalidQueryError('$unset must be an array of field names');
    for (const field of update.$unset as unknown[]) {
      if (typeof field !== 'string') throw new InvalidQueryError('$unset must be an array of field names');
      claim(field, '$unset');
      unset.push(field);
    }
  }
  const inc: Array<readonly [string, number]> = [];
  if (update.$inc !== undefined) {
    if (!isPlainObject(update.$inc)) throw new InvalidQueryError('$inc must be a plain object');
    for (const [field, by] of Object.entries(update.$inc)) {
      claim(field, '$inc');
      if (typeof by !== 'number' || !Number.isFinite(by)) throw new InvalidQueryError(`$inc ${field}: expected a finite number`);
      inc.push([field, by]);
    }
  }
  if (set.length + unset.length + inc.length === 0) throw new InvalidQueryError('update changes nothing');
  return { set, unset, inc };
}

export function validateFindOptions(options: FindOptions | undefined): { sort: ValidatedSort[]; skip: number; limit: number | undefined } {
  const sort: ValidatedSort[] = [];
  if (options?.sort !== undefined) {
    if (!isPlainObject(options.sort)) throw new InvalidQueryError('sort must be a plain object');
    for (const [field, direction] of Object.entries(options.sort)) {
      assertFieldName(field, 'sort');
      if (direction !== 1 && direction !== -1) throw new InvalidQueryError(`sort ${field}: direction must be 1 or -1`);
      sort.push({ field, direction });
    }
  }
  const skip = options?.skip ?? 0;
  if (!Number.isSafeInteger(skip) || skip < 0) throw new InvalidQueryError('skip must be a non-negative integer');
  const limit = options?.limit;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw new InvalidQueryError('limit must be a non-negative integer');
  // Mongo treats limit 0 as "no limit"; we do the same in both adapters.
  return { sort, skip, limit: limit === 0 ? undefined : limit };
}

export function validateIndexes(indexes: readonly IndexSpec[]): void {
  for (const index of indexes) {
    if (index.fields.length === 0) throw new InvalidQueryError('index needs at least one field');
    for (const field of index.fields) assertFieldName(field, 'index');
  }
}

/** Stable index name shared by both adapters, e.g. `ux_email` / `ix_serverId_createdAt`. */
export function indexName(index: IndexSpec): string {
  return `${index.unique === true ? 'ux' : 'ix'}_${index.fields.join('_')}`;
}

/** A collection's name and declared indexes, checked before an adapter creates either. */
export function validateCollection(name: string, indexes: readonly IndexSpec[]): void {
  assertCollectionName(name);
  validateIndexes(indexes);
}

/** One step of updateAllOrNone, validated: the adapter translates its conditions and update. */
export interface ValidatedGuardedUpdate {
  readonly collection: string;
  readonly conditions: FieldCondition[];
  readonly update: ValidatedUpdate;
}

/** Every step of updateAllOrNone, validated before the adapter's transaction starts: a refused query changes nothing. */
export function validateGuardedUpdates(updates: readonly GuardedUpdate[]): ValidatedGuardedUpdate[] {
  return updates.map((u) => {
    assertCollectionName(u.collection);
    return { collection: u.collection, conditions: validateFilter(u.filter), update: validateUpdate(u.update) };
  });
}
