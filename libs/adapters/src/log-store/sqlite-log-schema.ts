/**
 * Schema of the embedded log store (DATA_DIR/logs/logs.db). Design notes in docs/DOCUMENT_STORE.md, "Log store".
 *
 * - `servers` maps each server id (a UUID string) to a small integer key. Every log row and every index
 *   entry carries the 1-2 byte key instead of a 36-byte string: the six per-server indexes stay small,
 *   which is most of what makes 200k inserts/s and millisecond pages possible at millions of rows.
 * - level/type/resource are `COLLATE NOCASE`, so the case-insensitive equality filters are plain index
 *   lookups (ASCII case folding, as SQLite's NOCASE does) with no lower-cased copies to compute or store.
 * - Rollups are maintained on write by the adapter and decremented on every delete path:
 *     rollup_day (server, UTC day, logType) -> n         totals, perDay, count(), range totals
 *     rollup_dim (server, dim, value, logType) -> n      perLevel/perType/perResource, facets, filter totals
 *   so stats and facets never read raw logs. `value` keeps the first spelling seen (NOCASE key).
 */

export const DIM_LEVEL = 0;
export const DIM_TYPE = 1;
export const DIM_RESOURCE = 2;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS servers (
  key INTEGER PRIMARY KEY,
  server_id TEXT NOT NULL UNIQUE
);

CREATE TABLE IF NOT EXISTS logs (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  server_key INTEGER NOT NULL,
  created_at INTEGER NOT NULL CHECK (created_at >= 0),
  level TEXT NOT NULL COLLATE NOCASE,
  type TEXT NOT NULL COLLATE NOCASE,
  resource TEXT NOT NULL COLLATE NOCASE,
  message TEXT NOT NULL,
  metadata TEXT,
  log_type TEXT NOT NULL CHECK (log_type IN ('text', 'photo')),
  image_key TEXT,
  thumb_key TEXT,
  expires_at INTEGER NOT NULL
);

-- Idempotent inserts (INSERT OR IGNORE) are keyed on the ingestion id.
CREATE UNIQUE INDEX IF NOT EXISTS logs_id ON logs (id);
-- Newest page of one server (ORDER BY created_at DESC, id DESC), time ranges, deleteBefore.
CREATE INDEX IF NOT EXISTS logs_server_time ON logs (server_key, created_at, id);
-- Newest page of one server filtered by level / type / resource.
CREATE INDEX IF NOT EXISTS logs_server_level ON logs (server_key, level, created_at);
CREATE INDEX IF NOT EXISTS logs_server_type ON logs (server_key, type, created_at);
CREATE INDEX IF NOT EXISTS logs_server_resource ON logs (server_key, resource, created_at);
-- Photo logs are few (tier-capped) among many text logs: a partial index costs text inserts nothing.
CREATE INDEX IF NOT EXISTS logs_server_photo ON logs (server_key, created_at, id) WHERE log_type = 'photo';
-- Retention sweep across all servers.
CREATE INDEX IF NOT EXISTS logs_expires ON logs (expires_at);

CREATE TABLE IF NOT EXISTS rollup_day (
  server_key INTEGER NOT NULL,
  day INTEGER NOT NULL,
  log_type TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (server_key, day, log_type)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rollup_dim (
  server_key INTEGER NOT NULL,
  dim INTEGER NOT NULL,
  value TEXT NOT NULL COLLATE NOCASE,
  log_type TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (server_key, dim, value, log_type)
) WITHOUT ROWID;
`;

/** Connection settings: WAL + NORMAL (crash-safe, no fsync per commit), big page cache, memory-mapped reads. */
export const PRAGMAS_SQL = `
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA busy_timeout = 5000;
PRAGMA temp_store = MEMORY;
PRAGMA cache_size = -262144;
PRAGMA mmap_size = 1073741824;
PRAGMA wal_autocheckpoint = 10000;
`;
