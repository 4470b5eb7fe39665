/**
 * The search index of the embedded log store (issue 17): FTS5 with the trigram tokenizer over message,
 * type, level, resource and the metadata JSON, so a substring search of 3 characters or more reads an
 * index instead of every row of the server.
 *
 * Built in the background, never on the write path. Measured on this project's machine, indexing a
 * typical log costs ~100 µs (one token per character), 5 to 10 times the whole insert, so indexing inside
 * insertBatch would cut ingest to a fifth. Instead a new row arrives with `fts_rowid` NULL (the partial
 * index logs_unindexed holds exactly those rows, ~1 µs per insert), and the store's indexer moves them
 * into the FTS table in small chunks between other work. A search reads the FTS table for indexed rows
 * and scans only the not-yet-indexed rows of the server (LIKE, through logs_unindexed); the answer is the
 * same whatever the indexer has reached. Existing files are migrated at open by two cheap statements (a
 * column and the partial index); their rows are then indexed in the background like new ones.
 *
 * FTS rowids are server-major, so one server's matches are one rowid range (counting them never reads
 * the logs table): rowid = server_key * 2^43 + slot, slot >= (created_at - 2020) * 8, assigned in
 * (created_at, id) order as rows are indexed and always past the server's last slot. A row indexed late
 * (an older created_at arriving after newer rows were indexed) takes the next slot, so slot order follows
 * time order except for such rows, which only ever sit later: every row with created_at >= C has
 * slot >= base(C), which is what the exact newest-first page relies on (sqlite-log-store.ts, #searchPage).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

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
-- Rows the indexer has not reached yet (every new row until then); entries leave when it sets fts_rowid.
CREATE INDEX IF NOT EXISTS logs_unindexed ON logs (server_key, created_at) WHERE fts_rowid IS NULL;
-- From an FTS rowid to its log (the page of a search); only indexed rows, so inserts pay nothing for it.
CREATE INDEX IF NOT EXISTS logs_fts_rowid ON logs (fts_rowid) WHERE fts_rowid > 0;
`;

/** Layout 2 -> 3: the column (NULL for every existing row, so all of them wait for the indexer). */
export const MIGRATE_TO_V3_SQL = `ALTER TABLE logs ADD COLUMN fts_rowid INTEGER;`;

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

/** The search text as an FTS5 phrase: quoted, inner quotes doubled, so nothing in it is query syntax. */
export function ftsPhrase(search: string): string {
  return `"${search.replace(/"/g, '""')}"`;
}

export function isIndexedSearch(search: string): boolean {
  return [...search].length >= MIN_INDEXED_SEARCH_CHARS;
}

const INDEX_COLUMNS = 'server_key, created_at, id, level, type, resource, message, metadata';

/** Moves not-yet-indexed rows into the FTS table; the caller runs it inside a write transaction. */
export class SearchIndexer {
  readonly #db: DatabaseSync;
  readonly #nextRowid = new Map<number, bigint>();
  #select: StatementSync | undefined;
  #insert: StatementSync | undefined;
  #mark: StatementSync | undefined;
  #maxRowid: StatementSync | undefined;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Forget cached slots (a rolled-back transaction may have used some). */
  reset(): void {
    this.#nextRowid.clear();
  }

  /** Indexes up to `max` rows, oldest first per server; answers how many it took (0: nothing left). */
  indexChunk(max: number): number {
    this.#select ??= this.#db.prepare(`SELECT ${INDEX_COLUMNS} FROM logs INDEXED BY logs_unindexed WHERE fts_rowid IS NULL ORDER BY server_key, created_at, id LIMIT ?`);
    this.#insert ??= this.#db.prepare('INSERT INTO logs_fts (rowid, message, type, level, resource, metadata) VALUES (?, ?, ?, ?, ?, ?)');
    this.#mark ??= this.#db.prepare('UPDATE logs SET fts_rowid = ? WHERE server_key = ? AND created_at = ? AND id = ?');
    const rows = this.#select.all(max);
    for (const row of rows) {
      const serverKey = Number(row['server_key']);
      const createdAt = Number(row['created_at']);
      if (serverKey > MAX_INDEXED_SERVER_KEY) {
        this.#mark.run(NOT_INDEXABLE, serverKey, createdAt, row['id'] ?? '');
        continue;
      }
      const floor = rowidFloor(serverKey, createdAt);
      const next = this.#next(serverKey);
      const rowid = next > floor ? next : floor;
      this.#nextRowid.set(serverKey, rowid + 1n);
      this.#insert.run(rowid, row['message'] ?? '', row['type'] ?? '', row['level'] ?? '', row['resource'] ?? '', row['metadata'] ?? '');
      this.#mark.run(rowid, serverKey, createdAt, row['id'] ?? '');
    }
    return rows.length;
  }

  /** The server's next free rowid: past the highest one its indexed rows hold. */
  #next(serverKey: number): bigint {
    const cached = this.#nextRowid.get(serverKey);
    if (cached !== undefined) return cached;
    if (!this.#maxRowid) {
      this.#maxRowid = this.#db.prepare('SELECT max(fts_rowid) AS m FROM logs INDEXED BY logs_fts_rowid WHERE fts_rowid > 0 AND fts_rowid BETWEEN ? AND ?');
      this.#maxRowid.setReadBigInts(true);
    }
    const { lo, hi } = serverRowidRange(serverKey);
    const max = this.#maxRowid.get(lo, hi)?.['m'];
    const next = typeof max === 'bigint' ? max + 1n : lo;
    this.#nextRowid.set(serverKey, next);
    return next;
  }
}
