/**
 * Schema of the embedded log store (DATA_DIR/logs/logs.db). Design notes in docs/DOCUMENT_STORE.md, "Log store".
 *
 * - `servers` maps each server id (a UUID string) to a small integer key. Every log row and every index
 *   entry carries the 1-2 byte key instead of a 36-byte string.
 * - `logs` is a WITHOUT ROWID table clustered by PRIMARY KEY (server_key, created_at, id): one server's
 *   logs are stored contiguously in time order, so the newest page is a short sequential walk from the
 *   end of the server's key range, inserts of one server append to one place in the b-tree, and the key
 *   doubles as the idempotency guard (ingestion assigns id, createdAt and serverId together, so a
 *   redelivered record repeats the whole triple). There is no rowid b-tree and no separate id index.
 *   created_at is the time the log happened (a client's own time can be up to a day before its arrival:
 *   such a row lands inside the server's range, not at its end); `received_at` is its arrival, NULL when
 *   that is created_at (the common case, and every row stored before the column existed), so it costs a
 *   log without a time of its own one byte. Nothing is ordered or filtered by it; retention reads expires_at.
 * - Only two secondary indexes (each costs ~0.6-1 µs per inserted row, and its entries carry the whole
 *   primary key): level (the filter the UI uses most; the selective values error/fatal are rare) and a
 *   partial photo index (photo logs are few, so it costs text inserts nothing). type/resource filters walk
 *   the clustered key newest-first and stop after the page (measured figures in the doc). There is no
 *   expires_at index: rollup_day.min_expires tells the retention sweep which (server, day) ranges of the
 *   clustered key hold expired rows.
 * - level/type/resource are `COLLATE NOCASE`, so the case-insensitive equality filters compare with ASCII
 *   case folding and need no lower-cased copies.
 * - Rollups are maintained on write by the adapter (aggregated per batch in JS) and decremented on every
 *   delete path:
 *     rollup_day (server, UTC day, logType) -> n         totals, perDay, count(), range totals
 *                                          -> min_expires  a lower bound of the rows' expires_at (exact
 *                                             after each retention sweep; other deletes may leave it low)
 *     rollup_dim (server, dim, value, logType) -> n      perLevel/perType/perResource, facets, filter totals
 *   so stats and facets never read raw logs. `value` keeps the first spelling seen (NOCASE key).
 *
 * migrateLogSchema() brings a file of any earlier layout up to this one when the store opens.
 */
import type { DatabaseSync } from 'node:sqlite';
import { MIGRATE_TO_V3_SQL, MIGRATE_TO_V4_SQL, SEARCH_SCHEMA_SQL } from './sqlite-log-search.ts';

export const DIM_LEVEL = 0;
export const DIM_TYPE = 1;
export const DIM_RESOURCE = 2;

/**
 * PRAGMA user_version of this layout. 0 = empty file or the first layout (rowid table with `seq`);
 * 2 = the clustered table without the search index; 3 = with it (sqlite-log-search.ts); 4 = the same, its
 * level column carrying a level code (rebuilt in the background from a layout-3 file); 5 = with the
 * `received_at` column (MIGRATE_TO_V5_SQL).
 */
export const SCHEMA_VERSION = 5;

/** The columns the first layout shares with this one (its rows are copied by MIGRATE_FROM_V1_SQL). */
const V1_COLUMNS = 'server_key, created_at, id, level, type, resource, message, metadata, log_type, image_key, thumb_key, expires_at';
/** The columns insertBatch writes, in fillRow's order. */
export const LOG_COLUMNS = `${V1_COLUMNS}, received_at`;

// The embedded player store reads message, metadata, log_type and expires_at back from this table by its key
// (player-store/sqlite-log-texts.ts; libs/adapters/test/player-store-sqlite-log-texts.test.ts holds the two together).
const LOGS_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS logs (
  server_key INTEGER NOT NULL,
  created_at INTEGER NOT NULL CHECK (created_at >= 0),
  id TEXT NOT NULL,
  level TEXT NOT NULL COLLATE NOCASE,
  type TEXT NOT NULL COLLATE NOCASE,
  resource TEXT NOT NULL COLLATE NOCASE,
  message TEXT NOT NULL,
  metadata TEXT,
  log_type TEXT NOT NULL CHECK (log_type IN ('text', 'photo')),
  image_key TEXT,
  thumb_key TEXT,
  expires_at INTEGER NOT NULL,
  fts_rowid INTEGER,
  received_at INTEGER,
  PRIMARY KEY (server_key, created_at, id)
) WITHOUT ROWID;
`;

/** Secondary index entries also carry the primary key, so every one of them is ordered by (created_at, id). */
const LOGS_INDEXES_SQL = `
-- Newest page of one server filtered by level (ORDER BY created_at DESC, id DESC without a sort).
CREATE INDEX IF NOT EXISTS logs_server_level ON logs (server_key, level, created_at);
-- Photo logs are few (tier-capped) among many text logs: a partial index costs text inserts nothing.
CREATE INDEX IF NOT EXISTS logs_server_photo ON logs (server_key, created_at) WHERE log_type = 'photo';
`;

/** Server keys: the row store's and the block store's files share this table (block-store-schema.ts). */
export const SERVERS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS servers (
  key INTEGER PRIMARY KEY,
  server_id TEXT NOT NULL UNIQUE
);`;

/** The rollups (stats, facets, totals, retention's lower bound): shared by both stores' files, read the same way. */
export const ROLLUP_TABLES_SQL = `CREATE TABLE IF NOT EXISTS rollup_day (
  server_key INTEGER NOT NULL,
  day INTEGER NOT NULL,
  log_type TEXT NOT NULL,
  n INTEGER NOT NULL,
  min_expires INTEGER NOT NULL,
  PRIMARY KEY (server_key, day, log_type)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rollup_dim (
  server_key INTEGER NOT NULL,
  dim INTEGER NOT NULL,
  value TEXT NOT NULL COLLATE NOCASE,
  log_type TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (server_key, dim, value, log_type)
) WITHOUT ROWID;`;

export const SCHEMA_SQL = `
${SERVERS_TABLE_SQL}
${LOGS_TABLE_SQL}
${LOGS_INDEXES_SQL}
${ROLLUP_TABLES_SQL}
`;

/**
 * Upgrades a file written by the first layout (rowid `logs` with a `seq` column, unique id index and one
 * index per dimension) in one transaction: the rows are copied into the clustered table, the old table
 * and its indexes are dropped. Rollup counts and server keys are unchanged; min_expires starts at 0 (a
 * valid lower bound), so the first retention sweep visits every day once and makes it exact.
 * Run only when `logs.seq` exists.
 */
export const MIGRATE_FROM_V1_SQL = `
ALTER TABLE logs RENAME TO logs_v1;
DROP INDEX IF EXISTS logs_id;
DROP INDEX IF EXISTS logs_server_time;
DROP INDEX IF EXISTS logs_server_level;
DROP INDEX IF EXISTS logs_server_type;
DROP INDEX IF EXISTS logs_server_resource;
DROP INDEX IF EXISTS logs_server_photo;
DROP INDEX IF EXISTS logs_expires;
${LOGS_TABLE_SQL}
INSERT INTO logs (${V1_COLUMNS}) SELECT ${V1_COLUMNS} FROM logs_v1 ORDER BY server_key, created_at, id ON CONFLICT DO NOTHING;
DROP TABLE logs_v1;
ALTER TABLE rollup_day ADD COLUMN min_expires INTEGER NOT NULL DEFAULT 0;
${LOGS_INDEXES_SQL}
`;

/**
 * Layout 4 -> 5: the arrival column, NULL for every existing row (each was received at its created_at, the
 * only time a log had then). One statement that rewrites nothing: a data folder of any size opens at once.
 */
export const MIGRATE_TO_V5_SQL = `ALTER TABLE logs ADD COLUMN received_at INTEGER;`;

/**
 * Set before the first table exists (no effect on an existing file): 16 KiB pages hold ~80 rows of the
 * clustered table per leaf, so a page of 50 logs is usually one or two leaves and the b-trees are shallower.
 */
export const PAGE_SIZE_SQL = 'PRAGMA page_size = 16384;';

/**
 * Connection settings: WAL + NORMAL (crash-safe, no fsync per commit), big page cache, memory-mapped reads; the
 * WAL file cut back to 64 MiB when it restarts after a burst. The autocheckpoint applies only to a store opened
 * without the WAL checkpointer (sqlite/wal-checkpointer.ts), which turns it off.
 */
export const PRAGMAS_SQL = `
PRAGMA busy_timeout = 5000;
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA temp_store = MEMORY;
PRAGMA cache_size = -262144;
PRAGMA mmap_size = 4294967296;
PRAGMA journal_size_limit = 67108864;
PRAGMA wal_autocheckpoint = 10000;
`;

/**
 * Creates the schema, upgrading older files in place (inside `transaction`): the first layout (see
 * MIGRATE_FROM_V1_SQL), and layout 2, which gains the search index's column and indexes (its rows are then
 * indexed in the background), layout 3, whose index is emptied to be rebuilt with level codes in the
 * background (MIGRATE_TO_V4_SQL), and any layout before 5, which gains the arrival column (MIGRATE_TO_V5_SQL).
 */
export function migrateLogSchema(db: DatabaseSync, transaction: (work: () => void) => void): void {
  const version = Number(db.prepare('PRAGMA user_version').get()?.['user_version'] ?? 0);
  if (version >= SCHEMA_VERSION) return;
  const hasColumn = (name: string): boolean => db.prepare('SELECT 1 AS yes FROM pragma_table_info(\'logs\') WHERE name = ?').get(name) !== undefined;
  transaction(() => {
    if (hasColumn('seq')) db.exec(MIGRATE_FROM_V1_SQL);
    const hasLogs = hasColumn('id');
    if (hasLogs && !hasColumn('fts_rowid')) db.exec(MIGRATE_TO_V3_SQL);
    if (hasLogs && !hasColumn('received_at')) db.exec(MIGRATE_TO_V5_SQL);
    db.exec(SCHEMA_SQL);
    db.exec(SEARCH_SCHEMA_SQL);
    if (version === 3) db.exec(MIGRATE_TO_V4_SQL);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}
