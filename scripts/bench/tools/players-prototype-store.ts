/**
 * A prototype of the player store without (player, log) rows and per-log counts (docs/PLAYERS.md, "Ingest
 * through the API"): only the players themselves kept as logs arrive (identifier -> player, names, seen
 * times), each mention compared in memory against the remembered player (first against the player's last
 * mention, which most logs repeat exactly), written only when an identifier, a name or a player is new, or
 * read back when a player comes back after being let go; seen times written once a minute for the players
 * touched. Not the store: no merges (a log joining two players is counted, not merged), no reads for the
 * player view. Used by players-record-prototype.ts and players-ingest-api.ts (players-prototype-worker.ts).
 */
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import type { LogMentions, MentionedPlayer } from '@skald/ports';

/** Players kept in memory (the least recently seen let go), as the shipped store's connection does. */
const REMEMBER = Number(process.env['PLAYERS_PROTO_REMEMBER'] ?? 20_000);
const SEEN_EVERY_MS = 60_000;

interface Remembered {
  readonly id: number;
  readonly identifiers: Set<string>;
  readonly names: Set<string>;
  firstSeen: number;
  lastSeen: number;
  touched: boolean;
  /** The last mention recorded: most logs name a player exactly as the one before (compared, not looked up). */
  last: MentionedPlayer | null;
}

/** The players alone: identifier -> player, names, seen times; rows written only when something is new. */
export class PrototypePlayers {
  readonly #db: DatabaseSync;
  readonly #owner: StatementSync;
  readonly #identifiersOf: StatementSync;
  readonly #namesOf: StatementSync;
  readonly #insertPlayer: StatementSync;
  readonly #insertIdentifier: StatementSync;
  readonly #insertName: StatementSync;
  readonly #seen: StatementSync;
  /** identifier -> remembered player (only players in memory). */
  readonly #owners = new Map<string, Remembered>();
  /** Remembered players, least recently seen first (Map order, re-set on each sight). */
  readonly #players = new Map<number, Remembered>();
  writes = 0;
  loads = 0;
  joins = 0;

  constructor(file: string) {
    this.#db = new DatabaseSync(file);
    this.#db.exec(`
      PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536;
      CREATE TABLE players (id INTEGER PRIMARY KEY, server_id TEXT NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL);
      CREATE TABLE player_identifiers (player_id INTEGER NOT NULL, identifier TEXT NOT NULL, server_id TEXT NOT NULL, PRIMARY KEY (player_id, identifier)) WITHOUT ROWID;
      CREATE UNIQUE INDEX player_identifiers_owner ON player_identifiers (server_id, identifier, player_id);
      CREATE TABLE player_names (player_id INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (player_id, name)) WITHOUT ROWID;
    `);
    this.#owner = this.#db.prepare('SELECT player_id FROM player_identifiers WHERE server_id = ? AND identifier = ?');
    this.#identifiersOf = this.#db.prepare('SELECT identifier FROM player_identifiers WHERE player_id = ?');
    this.#namesOf = this.#db.prepare('SELECT name FROM player_names WHERE player_id = ?');
    this.#insertPlayer = this.#db.prepare('INSERT INTO players (server_id, first_seen, last_seen) VALUES (?, ?, ?) RETURNING id');
    this.#insertIdentifier = this.#db.prepare('INSERT OR IGNORE INTO player_identifiers (player_id, identifier, server_id) VALUES (?, ?, ?)');
    this.#insertName = this.#db.prepare('INSERT OR IGNORE INTO player_names (player_id, name) VALUES (?, ?)');
    this.#seen = this.#db.prepare('UPDATE players SET first_seen = min(first_seen, ?), last_seen = max(last_seen, ?) WHERE id = ?');
    for (const stmt of [this.#owner, this.#identifiersOf, this.#namesOf]) stmt.setReturnArrays(true);
  }

  /** One run: every mention compared against its remembered player, what is new written in one transaction. */
  record(logs: readonly LogMentions[]): void {
    this.#db.exec('BEGIN');
    try {
      for (const log of logs) {
        for (const mention of log.players) {
          const known = this.#owners.get(mention.linking[0]!);
          if (known !== undefined && known.last !== null && sameMention(known.last, mention)) {
            if (log.at > known.lastSeen) known.lastSeen = log.at;
            if (log.at < known.firstSeen) known.firstSeen = log.at;
            known.touched = true;
            continue;
          }
          const player = this.#playerOf(log.serverId, mention.linking, log.at);
          for (const identifier of mention.linking) this.#identifier(player, identifier, log.serverId);
          for (const identifier of mention.listed) this.#identifier(player, identifier, log.serverId);
          for (const name of mention.names) {
            if (player.names.has(name)) continue;
            player.names.add(name);
            this.#insertName.run(player.id, name);
            this.writes++;
          }
          if (log.at > player.lastSeen) player.lastSeen = log.at;
          if (log.at < player.firstSeen) player.firstSeen = log.at;
          player.touched = true;
          player.last = mention;
        }
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  #seenWritten = Date.now();

  /** Seen times of the players touched, once a minute (as the shipped store). */
  writeSeenTimesIfDue(): void {
    if (Date.now() - this.#seenWritten < SEEN_EVERY_MS) return;
    this.writeSeenTimes();
  }

  /** Seen times of the players touched since the last write. */
  writeSeenTimes(): void {
    this.#seenWritten = Date.now();
    this.#db.exec('BEGIN');
    for (const player of this.#players.values()) {
      if (!player.touched) continue;
      this.#seen.run(player.firstSeen, player.lastSeen, player.id);
      player.touched = false;
      this.writes++;
    }
    this.#db.exec('COMMIT');
  }

  #identifier(player: Remembered, identifier: string, serverId: string): void {
    if (player.identifiers.has(identifier)) return;
    player.identifiers.add(identifier);
    this.#owners.set(identifier, player);
    this.#insertIdentifier.run(player.id, identifier, serverId);
    this.writes++;
  }

  #playerOf(serverId: string, linking: readonly string[], at: number): Remembered {
    let found: Remembered | undefined;
    for (const identifier of linking) {
      const owner = this.#owners.get(identifier) ?? this.#load(serverId, identifier);
      if (owner === undefined) continue;
      if (found === undefined) found = owner;
      else if (found !== owner) this.joins++;
    }
    if (found !== undefined) {
      // Seen again: last in the eviction order.
      this.#players.delete(found.id);
      this.#players.set(found.id, found);
      return found;
    }
    const id = Number((this.#insertPlayer.get(serverId, at, at) as { id: number }).id);
    this.writes++;
    return this.#remember({ id, identifiers: new Set(), names: new Set(), firstSeen: at, lastSeen: at, touched: true, last: null });
  }

  /** A player let go of (or never remembered): found by its identifier, its identifiers and names read back. */
  #load(serverId: string, identifier: string): Remembered | undefined {
    const row = this.#owner.get(serverId, identifier) as unknown as [number] | undefined;
    if (row === undefined) return undefined;
    const id = Number(row[0]);
    this.loads++;
    const identifiers = new Set((this.#identifiersOf.all(id) as unknown as [string][]).map((r) => r[0]));
    const names = new Set((this.#namesOf.all(id) as unknown as [string][]).map((r) => r[0]));
    return this.#remember({ id, identifiers, names, firstSeen: Number.POSITIVE_INFINITY, lastSeen: 0, touched: false, last: null });
  }

  #remember(player: Remembered): Remembered {
    this.#players.set(player.id, player);
    for (const identifier of player.identifiers) this.#owners.set(identifier, player);
    while (this.#players.size > REMEMBER) {
      const oldest = this.#players.values().next().value!;
      if (oldest.touched) this.#seen.run(oldest.firstSeen, oldest.lastSeen, oldest.id);
      this.#players.delete(oldest.id);
      for (const identifier of oldest.identifiers) if (this.#owners.get(identifier) === oldest) this.#owners.delete(identifier);
    }
    return player;
  }

  close(): void {
    this.#db.close();
  }
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};
const sameMention = (a: MentionedPlayer, b: MentionedPlayer): boolean => sameList(a.linking, b.linking) && sameList(a.listed, b.listed) && sameList(a.names, b.names);
