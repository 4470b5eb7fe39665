/**
 * Document store port: service metadata (users, servers, memberships, webhooks, ...).
 *
 * The query subset is deliberately small so that an embedded engine (SQLite) and MongoDB
 * behave the same. See docs/DOCUMENT_STORE.md "Document store query subset".
 *   - Filters: top-level field equality (string, number, boolean, null) and the operators
 *     $in, $ne, $gt, $gte, $lt, $lte on top-level fields. Fields are ANDed.
 *   - Updates: $set, $unset, $inc on top-level fields.
 *   - Sorting on top-level fields, skip and limit.
 *   - Several conditional updates applied all or none (DocumentStore.updateAllOrNone).
 * Field names starting with `$` or containing `.` are refused with InvalidQueryError.
 */

export type Scalar = string | number | boolean | null;

export interface FieldOperators {
  readonly $in?: readonly Scalar[];
  readonly $ne?: Scalar;
  readonly $gt?: string | number;
  readonly $gte?: string | number;
  readonly $lt?: string | number;
  readonly $lte?: string | number;
}

export type Filter = Readonly<Record<string, Scalar | FieldOperators>>;

export interface Update {
  readonly $set?: Readonly<Record<string, unknown>>;
  readonly $unset?: readonly string[];
  readonly $inc?: Readonly<Record<string, number>>;
}

export interface FindOptions {
  /** Field to direction: 1 ascending, -1 descending. Applied in key order. */
  readonly sort?: Readonly<Record<string, 1 | -1>>;
  readonly skip?: number;
  readonly limit?: number;
}

export interface IndexSpec {
  readonly fields: readonly string[];
  readonly unique?: boolean;
}

export interface BaseDocument {
  readonly _id: string;
}

export interface Collection<T extends BaseDocument> {
  /** Throws DuplicateKeyError when a unique index (or _id) already holds the value. */
  insertOne(doc: T): Promise<void>;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** Updates the first match; with upsert, inserts `{_id from filter, ...$set}` when none matches. */
  updateOne(filter: Filter, update: Update, options?: { readonly upsert?: boolean }): Promise<{ matched: number }>;
  updateMany(filter: Filter, update: Update): Promise<{ matched: number }>;
  /** Applies the update to the first match and returns the document after it, or null. */
  findOneAndUpdate(filter: Filter, update: Update): Promise<T | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
}

/** One step of DocumentStore.updateAllOrNone: the update for the first document of `collection` the filter matches. */
export interface GuardedUpdate {
  readonly collection: string;
  readonly filter: Filter;
  readonly update: Update;
}

export interface DocumentStore {
  /** Opens (creating if needed) a collection and its indexes. */
  collection<T extends BaseDocument>(name: string, indexes?: readonly IndexSpec[]): Promise<Collection<T>>;
  /**
   * Applies the updates in order, each to the first document its filter matches (a later filter sees the
   * earlier updates), across collections of this store, all or none: when one filter matches nothing, no
   * document changes and the answer is false. Readers never see some of the updates without the others, and
   * of two calls guarding the same values only one applies. A unique violation throws DuplicateKeyError and
   * changes nothing; a refused query throws InvalidQueryError before anything changes.
   */
  updateAllOrNone(updates: readonly GuardedUpdate[]): Promise<boolean>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
}

export class InvalidQueryError extends Error {
  override readonly name = 'InvalidQueryError';
}
