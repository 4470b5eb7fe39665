/**
 * Log store port: the high-volume store of text and photo logs.
 * Adapters: SQLite (embedded) and MongoDB. Both keep per-day rollups on write so that
 * dashboard statistics never scan the raw logs.
 */

export type LogType = 'text' | 'photo';

export interface LogRecord {
  /** Globally unique id assigned at ingestion; inserts are idempotent on it. */
  readonly id: string;
  readonly serverId: string;
  /**
   * Epoch milliseconds the log happened (the client's own time when ingestion took it, else its arrival).
   * Everything ordered, paged, filtered, bucketed or rolled up by time uses it.
   */
  readonly createdAt: number;
  /**
   * Epoch milliseconds Skald received the log, when that differs from createdAt; absent: received at
   * createdAt. Stores answer it only when it differs (a record given one equal to createdAt comes back
   * without it). Nothing is ordered or filtered by it: retention counts from it through expiresAt, which
   * the caller computes.
   */
  readonly receivedAt?: number;
  readonly level: string;
  readonly type: string;
  readonly resource: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly logType: LogType;
  /** Object-store key of the photo (photo logs only). */
  readonly imageKey: string | null;
  /** Object-store key of the thumbnail (photo logs only). */
  readonly thumbKey: string | null;
  /** Epoch milliseconds after which retention removes the log, whatever its createdAt (the logs service counts it from the arrival). */
  readonly expiresAt: number;
}

export interface LogQuery {
  readonly serverId: string;
  readonly logType?: LogType;
  /** Case-insensitive substring over message, type, level, resource and metadata text. */
  readonly search?: string;
  /** Case-insensitive equality. */
  readonly type?: string;
  readonly level?: string;
  readonly resource?: string;
  /** Inclusive epoch-ms bounds on createdAt. */
  readonly from?: number;
  readonly to?: number;
  /**
   * Only logs whose id sorts after this one (plain string order; ingestion ids are UUIDv7, so this is
   * "accepted after"). The live tail's resume reads the store with it.
   */
  readonly afterId?: string;
  readonly offset: number;
  readonly limit: number;
}

/** A query without paging, for scan(). */
export type LogScanQuery = Omit<LogQuery, 'offset' | 'limit'>;

export interface LogPage {
  /** Newest first (createdAt desc, then id desc). */
  readonly items: LogRecord[];
  /**
   * The number of logs matching (all pages): exact up to the store's count cap (default 100,000); past
   * it, the cap itself with totalCapped true ("100,000+"), so a count never walks millions of rows.
   */
  readonly total: number;
  readonly totalCapped: boolean;
}

export interface TextPhotoCount {
  readonly text: number;
  readonly photo: number;
}

export interface LogStats {
  readonly totals: TextPhotoCount;
  /** Keyed by UTC day `YYYY-MM-DD`, only days inside the requested range that have logs. */
  readonly perDay: Readonly<Record<string, TextPhotoCount>>;
  readonly perLevel: Readonly<Record<string, TextPhotoCount>>;
  readonly perType: Readonly<Record<string, TextPhotoCount>>;
  readonly perResource: Readonly<Record<string, TextPhotoCount>>;
}

/**
 * Where the matches of a histogram lie (epoch ms): the oldest and newest counted. `capped` when more than the
 * store's count cap match: `first` is then the earliest instant from which every match is counted (the
 * newest cap matches at most), and older matches are left out.
 */
export interface LogMatchSpan {
  readonly first: number;
  readonly last: number;
  readonly capped: boolean;
}

/** Counts per time bucket and level; bucket i holds the matches with createdAt in [edges[i], edges[i+1]). */
export interface LogHistogram {
  readonly edges: readonly number[];
  /** One entry per bucket: lower-cased level -> count (levels without matches absent). */
  readonly counts: ReadonlyArray<Readonly<Record<string, number>>>;
  /** As LogMatchSpan.capped: matches older than `first` (and edges[0]) were not counted. */
  readonly capped: boolean;
  readonly span: LogMatchSpan | null;
}

/** Most buckets a histogram may ask for (the logs service asks for about 30-60). */
export const MAX_HISTOGRAM_BUCKETS = 200;

export interface LogStore {
  /** Inserts the records; a record whose id is already stored is skipped. Returns how many were new. */
  insertBatch(records: readonly LogRecord[]): Promise<{ inserted: number }>;
  query(query: LogQuery): Promise<LogPage>;
  /**
   * Every log matching the query, newest first (createdAt desc, then id desc), in pages of at most
   * `pageSize` (1..10,000). Keyset paging: each page starts after the last row of the one before, so page
   * 1,000 costs what page 1 does, nothing is held between pages and no total is counted (exports).
   * Rows inserted or deleted while a scan runs may or may not be seen; none is seen twice.
   */
  scan(query: LogScanQuery, pageSize: number): AsyncIterable<LogRecord[]>;
  /**
   * Counts the logs matching `query` (the same filters and search as query()) per time bucket and
   * lower-cased level, in the store, reading at most the count cap of matches (plus one) per access path.
   * The store first finds the matches' span and hands it to `bucketEdges`, which answers the bucket edges
   * (ascending epoch ms, 2 to MAX_HISTOGRAM_BUCKETS + 1 of them); matches before span.first are never
   * counted. No match: no edges, no counts, span null (bucketEdges is not called).
   */
  histogram(query: LogScanQuery, bucketEdges: (span: LogMatchSpan) => readonly number[]): Promise<LogHistogram>;
  /** Totals and per level/type/resource over all stored logs; perDay over [fromDay, toDay] (inclusive, UTC). */
  stats(serverId: string, range: { readonly fromDay: string; readonly toDay: string }): Promise<LogStats>;
  /** Distinct levels, types and resources a server has used (for filters and webhook options). */
  facets(serverId: string): Promise<{ levels: string[]; types: string[]; resources: string[] }>;
  count(serverId: string, logType?: LogType): Promise<number>;
  /** Deletes a server's logs created before `before` (epoch ms); returns the deleted photo logs' object keys too. */
  deleteBefore(serverId: string, before: number): Promise<DeleteResult>;
  /** Deletes logs of every server whose expiresAt <= now. */
  deleteExpired(now: number): Promise<DeleteResult>;
  /** Keeps the newest `keep` logs of the type for the server and deletes the rest. */
  deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult>;
  /** The server's logs with these keys that are still stored, in any order (a player's timeline, erasure). */
  getByKeys(serverId: string, keys: readonly LogKey[]): Promise<LogRecord[]>;
  /**
   * The server's log with this id, or null (no such log, or another server's). A store without an index on
   * the id alone may narrow the search by the time a UUIDv7 id carries (ingestion's ids: their time is the
   * arrival, and createdAt lies within CLIENT_TIME_WINDOW of it); any other id is looked for among all the
   * server's logs.
   */
  getById(serverId: string, id: string): Promise<LogRecord | null>;
  /**
   * Up to `limit` (0 to MAX_NEIGHBOURS) of the server's logs, text and photo, strictly before ('older') or
   * after ('newer') `key` in (createdAt, id) order, the nearest first. Keyset: a seek to the key and a walk
   * of `limit` rows, whatever the number of logs. The key need not be a stored log's.
   */
  neighbours(serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): Promise<LogRecord[]>;
  /** Deletes the server's logs with these keys (those stored); returns the deleted photo logs' object keys too. */
  deleteByKeys(serverId: string, keys: readonly LogKey[]): Promise<DeleteResult>;
  close(): Promise<void>;
}

/** Which side of a key neighbours() walks: towards older logs or newer ones. */
export type NeighbourDirection = 'older' | 'newer';

/** Most logs one neighbours() call answers. */
export const MAX_NEIGHBOURS = 1_000;

/** Where a log is found: its time and id (a log's id alone is not indexed on every adapter). */
export interface LogKey {
  readonly createdAt: number;
  readonly id: string;
}

export interface DeleteResult {
  readonly deletedCount: number;
  /** Object keys (images and thumbnails) of deleted photo logs, for the caller to remove. */
  readonly objectKeys: string[];
}
