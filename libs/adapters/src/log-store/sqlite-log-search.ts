/**
 * The search index of the embedded log store: FTS5 with the trigram tokenizer over message,
 * type, level, resource and the metadata JSON, so a substring search of 3 characters or more reads an
 * index instead of every row of the server.
 *
 * Built in the background, never on the write path. Measured on this project's machine, indexing a
 * typical log costs 30-100 µs (one token per character), 5 to 10 times the whole insert, so indexing
 * inside insertBatch would cut ingest to a fifth. Instead the indexer walks each server's logs along the
 * clustered key, oldest first, from a per-server cursor (`search_progress`: the last (created_at, id) it
 * indexed) in small chunks between other work. A row stored BEHIND its server's cursor (an older
 * createdAt arriving late, e.g. a consumer catching up) is listed in `search_late` by insertBatch, the
 * only insert cost, and paid by late rows only. A search reads the FTS table for indexed rows and scans
 * only the rows ahead of the cursor (the newest: a short clustered range) and the late ones; the answer is
 * the same whatever the indexer has reached. Existing files are migrated at open by cheap statements (a
 * column and two tables, no pass over the rows); their rows are then indexed in the background.
 *
 * FTS rowids are server-major, so one server's matches are one rowid range (counting them never reads
 * the logs table): rowid = server_key * 2^43 + slot, slot >= (created_at - 2020) * 8, assigned in
 * (created_at, id) order as rows are indexed and always past the server's last slot. A late row takes the
 * next slot, so slot order follows time order except for such rows, which only ever sit later: every row
 * with created_at >= C has slot >= base(C), which is what the exact newest-first page relies on
 * (sqlite-log-indexed-search.ts, searchPage).
 */
import type { DatabaseSync, SQLOutputValue, StatementSync } from 'node:sqlite';
import { StatementCache } from '../sqlite/statements.ts';

/** 2020-01-01T00:00:00Z: slots count from here (43 bits of 1/8 ms reach 2054). */
const SLOT_EPOCH_MS = 1_577_836_800_000;
const SLOTS_PER_MS = 8n;
const SLOT_BITS = 43n;
/** Server keys from here on have no room in a rowid: their rows are never indexed and searches scan. */
export const MAX_INDEXED_SERVER_KEY = 2 ** 20 - 1;
/** fts_rowid of a row that will never be indexed (its server key is too large). */
export const NOT_INDEXABLE = -1;
/** Trigrams: a shorter search has no token to look up and is answered by a scan. */
export const MIN_INDEXED_SEARCH_CHARS = 3;

export const SEARCH_SCHEMA_SQL = `
CREATE VIRTUAL TABLE IF NOT EXISTS logs_fts USING fts5(
  message, type, level, resource, metadata,
  tokenize = 'trigram', content = '', contentless_delete = 1
);
-- From an FTS rowid to its log (the page of a search); only indexed rows, so inserts pay nothing for it.
CREATE INDEX IF NOT EXISTS logs_fts_rowid ON logs (fts_rowid) WHERE fts_rowid > 0;
-- Per server, the last (created_at, id) the indexer's walk has indexed: the rows after it wait.
CREATE TABLE IF NOT EXISTS search_progress (
  server_key INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL,
  id TEXT NOT NULL
);
-- Rows stored behind their server's cursor, waiting to be indexed.
CREATE TABLE IF NOT EXISTS search_late (
  server_key INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (server_key, created_at, id)
) WITHOUT ROWID;
`;

/** Layout 2 -> 3: the column (NULL for every existing row; no cursor yet, so all of them wait for the indexer). */
export const MIGRATE_TO_V3_SQL = `ALTER TABLE logs ADD COLUMN fts_rowid INTEGER;`;

/**
 * Layout 3 -> 4 (level codes, see CODE_MARK): the index is emptied and every server's walk starts again, so
 * the background indexer rebuilds it in the new form while searches scan what it has not reached. No pass
 * over the logs: their old fts_rowid values stay until the walk overwrites them, and cannot be mistaken for
 * new entries, because a server's new rowids are taken past the highest one its rows hold (#next).
 */
export const MIGRATE_TO_V4_SQL = `
INSERT INTO logs_fts (logs_fts) VALUES ('delete-all');
DELETE FROM search_progress;
DELETE FROM search_late;
`;

export function serverRowidRange(serverKey: number): { lo: bigint; hi: bigint } {
  const lo = BigInt(serverKey) << SLOT_BITS;
  return { lo, hi: lo + (1n << SLOT_BITS) - 1n };
}

/** The smallest rowid a row of the server created at `createdAt` can have. */
export function rowidFloor(serverKey: number, createdAt: number): bigint {
  const slot = BigInt(Math.max(0, Math.floor(createdAt) - SLOT_EPOCH_MS)) * SLOTS_PER_MS;
  const { lo, hi } = serverRowidRange(serverKey);
  const floor = lo + slot;
  return floor > hi ? hi : floor;
}

/**
 * Written after a standard level's text in the index's level column, around a letter naming the level:
 * `error` is indexed as `error\x1fc\x1f`, whose last trigram `\x1fc\x1f` is held by exactly the rows
 * whose level equals `error` the way the NOCASE column compares (ASCII case folding). A level filter is
 * then one trigram inside the index: `word AND level` is counted without reading each match's row. Photo
 * logs add PHOTO_CODE the same way (text logs, nearly all rows, have none: `NOT photo` reads only the few
 * photo entries). A search containing this character is answered by a scan (it could match a code).
 */
const CODE_MARK = '\x1f';
/**
 * The letter of each level ingestion accepts (LOG_LEVELS). Written into every index: never change a
 * letter without a new layout that rebuilds the index. A level added later simply has no code (its
 * filter then narrows by text and is checked on each row, still exact).
 */
const LEVEL_LETTERS: ReadonlyMap<string, string> = new Map([
  ['info', 'a'],
  ['warn', 'b'],
  ['error', 'c'],
  ['fatal', 'd'],
  ['debug', 'e'],
]);

/** ASCII-only lower case: what COLLATE NOCASE folds. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** Held by the level column of photo logs only (see CODE_MARK). */
export const PHOTO_CODE = `${CODE_MARK}p${CODE_MARK}`;

/** The code a level is indexed with (see CODE_MARK), or null for a level ingestion does not accept. */
export function levelCode(level: string): string | null {
  const letter = LEVEL_LETTERS.get(asciiLower(level));
  return letter === undefined ? null : `${CODE_MARK}${letter}${CODE_MARK}`;
}

/** What the index holds in its level column: the level's text (a search matches it) and its codes. */
function levelColumn(level: string, logType: string): string {
  return `${level}${levelCode(level) ?? ''}${logType === 'photo' ? PHOTO_CODE : ''}`;
}

/** The search text as an FTS5 phrase: quoted, inner quotes doubled, so nothing in it is query syntax. */
export function ftsPhrase(search: string): string {
  return `"${search.replace(/"/g, '""')}"`;
}

export function isIndexedSearch(search: string): boolean {
  return [...search].length >= MIN_INDEXED_SEARCH_CHARS && !search.includes(CODE_MARK);
}

function str(value: SQLOutputValue | undefined): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

const INDEX_COLUMNS = 'server_key, created_at, id, level, type, resource, message, metadata, log_type';

/** Where a server's walk stands: rows after (createdAt, id) are not indexed yet (null: none is). */
export interface SearchCursor {
  readonly createdAt: number;
  readonly id: string;
}

/** True when the row sorts at or before the cursor, i.e. the walk has passed its place. */
export function isBehind(cursor: SearchCursor | null, createdAt: number, id: string): boolean {
  return cursor !== null && (createdAt < cursor.createdAt || (createdAt === cursor.createdAt && id <= cursor.id));
}

/** Moves not-yet-indexed rows into the FTS table; the caller runs it inside a write transaction. */
export class SearchIndexer {
  readonly #nextRowid = new Map<number, bigint>();
  readonly #cursors = new Map<number, SearchCursor | null>();
  /** Servers whose walk may have rows ahead of it (all of them after opening; then those inserted into). */
  readonly #pending = new Set<number>();
  #pendingLoaded = false;
  readonly #statements: StatementCache;

  constructor(db: DatabaseSync) {
    this.#statements = new StatementCache(db);
  }

  #prepare(sql: string): StatementSync {
    return this.#statements.get(sql);
  }

  /** Forget cached state (a rolled-back transaction may have changed some of it). */
  reset(): void {
    this.forgetCaches();
    this.#pendingLoaded = false;
  }

  /**
   * Forget the cursors and next rowids read so far. When another connection also writes the index (the
   * indexing worker beside the store's own connection), these are read again in every transaction: what
   * one connection cached may have moved under the other's commits.
   */
  forgetCaches(): void {
    this.#nextRowid.clear();
    this.#cursors.clear();
  }

  /** Servers that stored rows on another connection: their walks may have rows ahead of them. */
  markPending(serverKeys: Iterable<number>): void {
    for (const serverKey of serverKeys) this.#pending.add(serverKey);
  }

  /** The server's cursor (cached). */
  cursor(serverKey: number): SearchCursor | null {
    if (this.#cursors.has(serverKey)) return this.#cursors.get(serverKey) ?? null;
    const row = this.#prepare('SELECT created_at, id FROM search_progress WHERE server_key = ?').get(serverKey);
    const cursor = row === undefined ? null : { createdAt: Number(row['created_at']), id: String(row['id']) };
    this.#cursors.set(serverKey, cursor);
    return cursor;
  }

  /**
   * Called by insertBatch for each new row, inside its transaction: a row behind its server's cursor is
   * listed as late (the walk will not come back for it); any other row is ahead, where the walk finds it.
   */
  stored(serverKey: number, createdAt: number, id: string): void {
    this.#pending.add(serverKey);
    if (isBehind(this.cursor(serverKey), createdAt, id)) this.#prepare('INSERT OR IGNORE INTO search_late (server_key, created_at, id) VALUES (?, ?, ?)').run(serverKey, createdAt, id);
  }

  /** Indexes up to `max` rows: late ones first, then each pending server's walk; answers how many. */
  indexChunk(max: number): number {
    let done = this.#indexLate(max);
    if (!this.#pendingLoaded) {
      for (const row of this.#prepare('SELECT key FROM servers').all()) this.#pending.add(Number(row['key']));
      this.#pendingLoaded = true;
    }
    for (const serverKey of [...this.#pending]) {
      if (done >= max) break;
      const n = this.#walk(serverKey, max - done);
      done += n;
      if (done < max) this.#pending.delete(serverKey);
    }
    return done;
  }

  #indexLate(max: number): number {
    const rows = this.#prepare(
      `SELECT ${INDEX_COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')} FROM search_late q CROSS JOIN logs l ON l.server_key = q.server_key AND l.created_at = q.created_at AND l.id = q.id LIMIT ?`,
    ).all(max);
    for (const row of rows) {
      this.#index(row);
      this.#prepare('DELETE FROM search_late WHERE server_key = ? AND created_at = ? AND id = ?').run(row['server_key'] ?? 0, row['created_at'] ?? 0, row['id'] ?? '');
    }
    return rows.length;
  }

  /** The next rows of one server after its cursor, oldest first; the cursor moves past them. */
  #walk(serverKey: number, max: number): number {
    const cursor = this.cursor(serverKey);
    const rows =
      cursor === null
        ? this.#prepare(`SELECT ${INDEX_COLUMNS} FROM logs WHERE server_key = ? ORDER BY created_at, id LIMIT ?`).all(serverKey, max)
        : this.#prepare(`SELECT ${INDEX_COLUMNS} FROM logs WHERE server_key = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`).all(serverKey, cursor.createdAt, cursor.id, max);
    if (rows.length === 0) return 0;
    for (const row of rows) this.#index(row);
    const last = rows[rows.length - 1]!;
    const next = { createdAt: Number(last['created_at']), id: String(last['id']) };
    this.#prepare('INSERT INTO search_progress (server_key, created_at, id) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET created_at = excluded.created_at, id = excluded.id').run(
      serverKey,
      next.createdAt,
      next.id,
    );
    this.#cursors.set(serverKey, next);
    return rows.length;
  }

  #index(row: Record<string, SQLOutputValue>): void {
    const serverKey = Number(row['server_key']);
    const createdAt = Number(row['created_at']);
    const id = String(row['id']);
    if (serverKey > MAX_INDEXED_SERVER_KEY) {
      this.#prepare('UPDATE logs SET fts_rowid = ? WHERE server_key = ? AND created_at = ? AND id = ?').run(NOT_INDEXABLE, serverKey, createdAt, id);
      return;
    }
    const floor = rowidFloor(serverKey, createdAt);
    const next = this.#next(serverKey);
    const rowid = next > floor ? next : floor;
    this.#nextRowid.set(serverKey, rowid + 1n);
    this.#prepare('INSERT INTO logs_fts (rowid, message, type, level, resource, metadata) VALUES (?, ?, ?, ?, ?, ?)').run(
      rowid,
      row['message'] ?? '',
      row['type'] ?? '',
      levelColumn(str(row['level']), str(row['log_type'])),
      row['resource'] ?? '',
      row['metadata'] ?? '',
    );
    this.#prepare('UPDATE logs SET fts_rowid = ? WHERE server_key = ? AND created_at = ? AND id = ?').run(rowid, serverKey, createdAt, id);
  }

  /** The server's next free rowid: past the highest one its indexed rows hold. */
  #next(serverKey: number): bigint {
    const cached = this.#nextRowid.get(serverKey);
    if (cached !== undefined) return cached;
    const stmt = this.#prepare('SELECT max(fts_rowid) AS m FROM logs INDEXED BY logs_fts_rowid WHERE fts_rowid > 0 AND fts_rowid BETWEEN ? AND ?');
    stmt.setReadBigInts(true);
    const { lo, hi } = serverRowidRange(serverKey);
    const max = stmt.get(lo, hi)?.['m'];
    const next = typeof max === 'bigint' ? max + 1n : lo;
    this.#nextRowid.set(serverKey, next);
    return next;
  }
}
