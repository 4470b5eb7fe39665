/**
 * Schema of the block log store (docs/STORAGE.md, "The layout"): the same `servers` and rollup tables as the
 * row store (sqlite-log-schema.ts: stats, facets and rollup totals are read the same way), plus
 * - `tail`: fresh logs, uncompressed, clustered by (server_key, created_at, id) like the row store's `logs`
 *   (the key is the idempotency guard of a redelivery still in the tail); `stream` is the lower-cased level;
 * - `blocks`: one row per sealed block of one server's stream: its time range, row count, photo rows, expiry
 *   range, per-type/resource counts (`dims`), the token dictionary (`words`) and the zstd `meta` and `text`
 *   frames (block-codec.ts). Written by the sealer in the transaction that deletes the tail rows it holds;
 * - `parts`: one row per part dictionary over a run of one stream's blocks (block-parts.ts): its tier, its
 *   blocks' ids by position (0: a dropped block), the positions whose block was rewritten smaller, and the
 *   dictionary (block-part-dictionary.ts). Derived from the blocks' dictionaries; rebuilt when missing (and
 *   on open of a file whose parts have an older entry format);
 * - `rare_rows`: per block, the whole rows of its rare type and resource values (block-rare.ts), written with
 *   the block; a block without one (a file of an earlier layout) gets it in the background after open;
 * - `text_dictionaries`: the streams' text dictionaries (block-text-dictionaries.ts), keyed by their content,
 *   written with the first block that uses each. A block sealed before its stream had one keeps its text as one
 *   frame, and reads as before.
 */
import type { DatabaseSync } from 'node:sqlite';
import { ROLLUP_TABLES_SQL, SERVERS_TABLE_SQL, migrateLogSchema } from './sqlite-log-schema.ts';
import { writeTransaction } from '../sqlite/transaction.ts';

/** PRAGMA user_version of a file holding the block layout (the row store's files are 5 and below). */
export const BLOCK_SCHEMA_VERSION = 105;
/**
 * The block layout before the parts table (100), before the rare rows (101), before the parts listed the
 * rows of a block's rarest words (102), before the directory's index (103) and before the text dictionaries
 * (104): their files get the missing tables and index on open, lose their parts if older than 103 (the part
 * dictionaries' entries changed), and get what goes in them in the background (their blocks keep their one
 * text frame).
 */
const BLOCK_SCHEMA_EARLIER = [100, 101, 102, 103, 104];
/** The first layout whose parts list the rows of a block's rarest words. */
const PARTS_WITH_ROW_LISTS = 103;

export const BLOCK_SCHEMA_SQL = `
${SERVERS_TABLE_SQL}
${ROLLUP_TABLES_SQL}
CREATE TABLE IF NOT EXISTS tail (
  server_key INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  id TEXT NOT NULL,
  stream TEXT NOT NULL,
  level TEXT NOT NULL,
  type TEXT NOT NULL,
  resource TEXT NOT NULL,
  message TEXT NOT NULL,
  metadata TEXT,
  log_type TEXT NOT NULL,
  image_key TEXT,
  thumb_key TEXT,
  expires_at INTEGER NOT NULL,
  received_at INTEGER,
  PRIMARY KEY (server_key, created_at, id)
) WITHOUT ROWID;
-- No secondary index: the tail holds a few blocks' worth of rows per server (a level filter, the sealer's
-- choice of a stream's rows and getById read the server's range of the key), and an index would cost every
-- tail row ~20% more bytes (measured on FiveM lines, whose tail rows are ~500 B).
CREATE TABLE IF NOT EXISTS blocks (
  block_id INTEGER PRIMARY KEY AUTOINCREMENT,
  server_key INTEGER NOT NULL,
  stream TEXT NOT NULL,
  min_at INTEGER NOT NULL,
  max_at INTEGER NOT NULL,
  n INTEGER NOT NULL,
  photos INTEGER NOT NULL,
  min_expires INTEGER NOT NULL,
  max_expires INTEGER NOT NULL,
  dims TEXT NOT NULL,
  words BLOB NOT NULL,
  meta BLOB NOT NULL,
  text BLOB NOT NULL
);
-- The directory (block-directory.ts) reads every column here for a server's blocks, newest first: from the
-- index alone, not from the rows, whose blobs spread them over a page each (at 5 million logs 1,222 pages,
-- ~90 ms, each time a server's directory is loaded again after a seal).
CREATE INDEX IF NOT EXISTS blocks_directory ON blocks (server_key, max_at, block_id, stream, min_at, n, photos, min_expires, max_expires, dims);
CREATE INDEX IF NOT EXISTS blocks_expires ON blocks (min_expires);
CREATE TABLE IF NOT EXISTS parts (
  part_id INTEGER PRIMARY KEY AUTOINCREMENT,
  server_key INTEGER NOT NULL,
  stream TEXT NOT NULL,
  tier INTEGER NOT NULL,
  first_block INTEGER NOT NULL,
  ids TEXT NOT NULL,
  inexact TEXT NOT NULL,
  words BLOB NOT NULL,
  UNIQUE (server_key, stream, tier, first_block)
);
CREATE TABLE IF NOT EXISTS rare_rows (
  block_id INTEGER PRIMARY KEY,
  rows BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS text_dictionaries (
  dict_id INTEGER PRIMARY KEY,
  server_key INTEGER NOT NULL,
  stream TEXT NOT NULL,
  dict BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS text_dictionaries_stream ON text_dictionaries (server_key, stream, dict_id);
`;

/**
 * The row store's search index and its bookkeeping: dropped when a row-store file becomes a block-store file
 * (the blocks carry their own dictionaries; the rows still waiting in `logs` are searched by LIKE).
 */
const DROP_ROW_SEARCH_SQL = `
DROP INDEX IF EXISTS logs_fts_rowid;
DROP TABLE IF EXISTS logs_fts;
DROP TABLE IF EXISTS search_progress;
DROP TABLE IF EXISTS search_late;
`;

/** Whether the file still holds the row store's `logs` table (a migration under way: its rows move into blocks). */
export function hasRowTable(db: DatabaseSync): boolean {
  return db.prepare("SELECT 1 AS yes FROM sqlite_master WHERE type = 'table' AND name = 'logs'").get() !== undefined;
}

/**
 * Creates the tables of an empty file. A file of the row store (any of its layouts, brought to its latest
 * first) gets the block tables beside its `logs` table and loses its search index, in one transaction; the
 * rows of `logs` then move into blocks in the background (block-migration.ts), and stay readable where they
 * are meanwhile. The rollups and server keys are the row store's own tables, kept as they are.
 */
export function createBlockSchema(db: DatabaseSync): void {
  const version = Number(db.prepare('PRAGMA user_version').get()?.['user_version'] ?? 0);
  if (version === BLOCK_SCHEMA_VERSION) return;
  if (version > BLOCK_SCHEMA_VERSION) throw new Error(`block log store: the file's layout ${version} is newer than this version knows`);
  const transaction = (work: () => void): void => writeTransaction(db, work);
  if (BLOCK_SCHEMA_EARLIER.includes(version)) {
    transaction(() => {
      db.exec(BLOCK_SCHEMA_SQL);
      // Parts are derived from the blocks' dictionaries: rebuilt after open, the blocks' own dictionaries
      // answering meanwhile.
      if (version < PARTS_WITH_ROW_LISTS) db.exec('DELETE FROM parts');
      // The directory's index serves every query the narrower one did.
      db.exec('DROP INDEX IF EXISTS blocks_server');
      db.exec(`PRAGMA user_version = ${BLOCK_SCHEMA_VERSION}`);
    });
    return;
  }
  if (hasRowTable(db)) migrateLogSchema(db, transaction);
  transaction(() => {
    if (hasRowTable(db)) db.exec(DROP_ROW_SEARCH_SQL);
    db.exec(BLOCK_SCHEMA_SQL);
    db.exec(`PRAGMA user_version = ${BLOCK_SCHEMA_VERSION}`);
  });
}
