/**
 * The embedded player store's tables (DATA_DIR/logs/players.db). Integer player ids; the one row per
 * (player, log) is kept small (disk per log matters): WITHOUT ROWID, keyed by what a timeline page reads
 * (player, photo or not, log time, log id as 16 bytes), plus the log's expiry for retention.
 */
/** 2: the queue keeps the logs (message and metadata), not their extracted players, in a file of its own (sqlite-player-queue.ts); player_epoch. */
/** 3: player_identifiers clustered by player (it was keyed by server and identifier, with an index by player). */
/** 4: player_search_trigrams, a trigram index over player_search kept in step by triggers (name searches read it, not every row). */
export const PLAYER_SCHEMA_VERSION = 4;

export const PLAYER_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS players (
  id INTEGER PRIMARY KEY,
  server_id TEXT NOT NULL,
  -- The surviving player of a merge (this row then keeps nothing else); NULL for a live player.
  merged_into INTEGER,
  -- The name seen last and when (a name seen in an older log does not replace it).
  name TEXT,
  name_seen INTEGER,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  log_count INTEGER NOT NULL DEFAULT 0,
  photo_count INTEGER NOT NULL DEFAULT 0,
  -- The earliest expiry among its logs: retention visits only the players it concerns.
  next_expiry INTEGER
);
CREATE INDEX IF NOT EXISTS players_recent ON players (server_id, last_seen DESC, id DESC) WHERE merged_into IS NULL;
CREATE INDEX IF NOT EXISTS players_first_seen ON players (server_id, first_seen) WHERE merged_into IS NULL;
CREATE INDEX IF NOT EXISTS players_expiry ON players (next_expiry) WHERE merged_into IS NULL;
CREATE INDEX IF NOT EXISTS players_merged ON players (merged_into) WHERE merged_into IS NOT NULL;

-- Each live player's names, lower case, one per line (a search shorter than a trigram scans the server's rows).
CREATE TABLE IF NOT EXISTS player_search (
  server_id TEXT NOT NULL,
  player_id INTEGER NOT NULL,
  folded TEXT NOT NULL,
  PRIMARY KEY (server_id, player_id)
) WITHOUT ROWID;

-- The same text by trigram (rowid: the player): a name search of 3 characters or more reads the players
-- holding its trigrams instead of every player's row. Contentless (the text is player_search's); the
-- triggers keep it in step with every write of player_search (recording, merges, erasure, retention).
-- The text is already lower case: case_sensitive keeps a match exactly the substring match of instr().
CREATE VIRTUAL TABLE IF NOT EXISTS player_search_trigrams USING fts5 (folded, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1);
CREATE TRIGGER IF NOT EXISTS player_search_inserted AFTER INSERT ON player_search WHEN new.folded <> '' BEGIN
  INSERT INTO player_search_trigrams (rowid, folded) VALUES (new.player_id, new.folded);
END;
-- A player's row is made empty, and its first name is an update: nothing indexed to delete then.
CREATE TRIGGER IF NOT EXISTS player_search_updated AFTER UPDATE OF folded ON player_search BEGIN
  DELETE FROM player_search_trigrams WHERE rowid = old.player_id AND old.folded <> '';
  INSERT INTO player_search_trigrams (rowid, folded) SELECT new.player_id, new.folded WHERE new.folded <> '';
END;
CREATE TRIGGER IF NOT EXISTS player_search_deleted AFTER DELETE ON player_search WHEN old.folded <> '' BEGIN
  DELETE FROM player_search_trigrams WHERE rowid = old.player_id;
END;

-- A linking identifier has one row (its player); an ip or token one row per player listing it. Clustered by
-- player: a player's identifiers share a page, so writing their seen times (every minute, and when the
-- recorder lets go of the player) and loading them touch one page, not one per identifier anywhere in the
-- table. Lookups by identifier read the unique index alone (it holds the player).
CREATE TABLE IF NOT EXISTS player_identifiers (
  player_id INTEGER NOT NULL,
  identifier TEXT NOT NULL,
  server_id TEXT NOT NULL,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  PRIMARY KEY (player_id, identifier)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS player_identifiers_owner ON player_identifiers (server_id, identifier, player_id);

CREATE TABLE IF NOT EXISTS player_names (
  player_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  PRIMARY KEY (player_id, name)
) WITHOUT ROWID;

-- How many players were ever dropped (retention, erasure) or merged: a connection seeing it move lets go of
-- the players and identifier owners it remembers (the recorder's worker has a connection of its own).
CREATE TABLE IF NOT EXISTS player_epoch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS player_logs (
  player_id INTEGER NOT NULL,
  photo INTEGER NOT NULL,
  at INTEGER NOT NULL,
  log_id BLOB NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (player_id, photo, at, log_id)
) WITHOUT ROWID;
`;

/**
 * WAL and NORMAL like the log store (crash-safe, no fsync per commit); 4 KiB pages: a batch touches one
 * page per active player, and small pages keep what each commit writes small.
 */
export const PLAYER_PRAGMAS_SQL = `
PRAGMA page_size = 4096;
PRAGMA busy_timeout = 5000;
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA temp_store = MEMORY;
PRAGMA cache_size = -65536;
PRAGMA journal_size_limit = 67108864;
`;
