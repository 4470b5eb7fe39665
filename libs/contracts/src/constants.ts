/**
 * Plain values of the contracts, in a module that imports nothing: the adapters' worker threads (a block store's
 * seal worker, the player store's second connection) read them through `@skald/contracts/constants` and so do not
 * load the schema library with the rest of the contracts (~700 modules, ~0.25 s of CPU at each worker's start).
 * The contracts' own modules re-export them where they were always found.
 */

/**
 * How far a client's own time for a log may lie from its arrival to be taken as the log's time: at most a
 * day before (a client that batches or retries after an outage) and 5 minutes after (a clock a little
 * ahead). Outside it the arrival time stands and the log's metadata says so (docs/INGESTION.md).
 */
export const CLIENT_TIME_WINDOW = {
  maxAgeMs: 24 * 60 * 60 * 1000,
  maxAheadMs: 5 * 60 * 1000,
} as const;

/** The identifier kinds recognised in logs, lower case (`<kind>:<value>`; the kind is matched case-insensitively). */
export const IDENTIFIER_KINDS = ['license', 'license2', 'discord', 'steam', 'fivem', 'xbl', 'live', 'ip', 'token'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** Kinds listed with a player but never joining two players (shared connections, shared hardware). */
export const NON_LINKING_IDENTIFIER_KINDS = ['ip', 'token'] as const;

/** Metadata keys whose string value names the player of its object (docs/PLAYERS.md, "Name"). */
export const PLAYER_NAME_KEYS = ['name', 'playerName', 'player_name', 'player'] as const;
