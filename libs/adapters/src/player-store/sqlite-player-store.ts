/**
 * Embedded player store on SQLite (node:sqlite), its own file beside the log store's. Writes happen in one
 * transaction per call; a batch's seen times and counts are gathered per player in memory and written once
 * per player, so a batch costs one mapping row per (player, log) plus a few rows per player it names.
 * Merges move the younger player's rows to the older one (rare, and each row moves once).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type {
  LogMentions,
  LogPosition,
  LogType,
  MentionedPlayer,
  PlayerDetail,
  PlayerListQuery,
  PlayerLogRef,
  PlayerLookup,
  PlayerQueuePage,
  PlayerStore,
  PlayerStoreWorkerOptions,
  PlayerSummary,
  PlayerTimelineQuery,
  QueuedLog,
  RecordableLog,
} from '@skald/ports';
import { BACKGROUND_THREADS } from '../background-threads.ts';
import { StatementCache } from '../sqlite/statements.ts';
import { registerPassiveCheckpoints, sharedWalCheckpointer } from '../sqlite/wal-checkpointer.ts';
import type { WalCheckpointer, WalFile } from '../sqlite/wal-checkpointer.ts';
import { PLAYER_PRAGMAS_SQL, PLAYER_SCHEMA_SQL, PLAYER_SCHEMA_VERSION } from './sqlite-player-schema.ts';
import { foldName, isLinking, joinOf, newestOf, normalizedIdentifier, packQueued, playerIdOf, playerSearchOf, queuedFromMentions, unpackQueued } from './player-store-shared.ts';
import type { PlayerStoreWorkerData } from './player-store-worker.ts';
import { SqliteLogTexts, isKeysRow, packKeys } from './sqlite-log-texts.ts';
import { SqlitePlayerQueue, queueFileOf } from './sqlite-player-queue.ts';
import { searchCondition } from './sqlite-player-search.ts';

export interface SqlitePlayerStoreOptions {
  /** Who checkpoints the WAL (default: the process's shared checkpointer; null: SQLite inside the commits). */
  readonly walCheckpointer?: WalCheckpointer | null;
  /** Players handled per transaction by the deletions (retention, cleanup); default 200. */
  readonly maintenanceChunk?: number;
  /**
   * The embedded log store's file (logs.db) holding every log queued here: the queue then keeps each log's
   * keys only and reads its message and metadata back from there (sqlite-log-texts.ts). Without it the queue
   * keeps whole logs.
   */
  readonly logFile?: string;
}

type Row = Record<string, SQLInputValue>;

/** Lower-case hex digit values by char code (-1: not one); a UUID is only lower case here, as ingestion writes it. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 16; c++) HEX['0123456789abcdef'.charCodeAt(c)] = c;

/** The 16 bytes of a lower-case UUID (8-4-4-4-12), or null. A hand parser: it runs for every recorded log. */
function uuidBytes(id: string): Uint8Array | null {
  if (id.length !== 36 || id.charCodeAt(8) !== 0x2d || id.charCodeAt(13) !== 0x2d || id.charCodeAt(18) !== 0x2d || id.charCodeAt(23) !== 0x2d) return null;
  const bytes = Buffer.allocUnsafe(16);
  let b = 0;
  for (let i = 0; i < 36; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) i++;
    const high = id.charCodeAt(i);
    const low = id.charCodeAt(i + 1);
    const value = high < 128 && low < 128 ? (HEX[high]! << 4) | HEX[low]! : -1;
    if (value < 0) return null;
    bytes[b++] = value;
  }
  return bytes;
}

/** A UUID (every id ingestion gives) is kept as its 16 bytes; their order is the order of the text. */
function encodeLogId(id: string): Uint8Array | string {
  return uuidBytes(id) ?? id;
}

function decodeLogId(value: SQLInputValue): string {
  if (!(value instanceof Uint8Array)) return String(value);
  const hex = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}


const num = (value: SQLInputValue | undefined): number => Number(value ?? 0);

/** First and last log time a name or identifier was seen at, and what the table holds of them. */
interface Seen {
  first: number;
  last: number;
  writtenFirst: number;
  writtenLast: number;
}

/** A player as this connection remembers it between batches. */
interface KnownPlayer {
  readonly serverId: string;
  name: string | null;
  nameSeen: number;
  readonly identifiers: Map<string, Seen>;
  readonly names: Map<string, Seen>;
  /** The record() call that last used it (#recordings). */
  used: number;
}

/**
 * Seen times gathered in memory are written at least this often (wall clock), and whenever their player is
 * read, merged or let go of: a player active for an hour costs a minute's writes of its identifiers, not one
 * per log. A crash loses at most this much of their progress (never a log, a count or a player).
 */
export const SEEN_WRITE_EVERY_MS = 60_000;
/** Players remembered between batches (their seen times and name); the least recently active are let go of. */
const KNOWN_PLAYERS = 20_000;
/** Identifier owners remembered; past it the map starts over. */
const OWNER_CACHE = 200_000;
const ROW_VALUES = 5;
const ROWS_PER_INSERT = 100;
/** A maintenance chunk (forgetExpired, forgetBefore) takes no further player once it has run this long. */
const MAINTENANCE_TURN_MS = 8;

export class SqlitePlayerStore implements PlayerStore {
  readonly #file: string;
  readonly #db: DatabaseSync;
  readonly #statements: StatementCache;
  readonly #wal: WalFile | null;
  readonly #queue: SqlitePlayerQueue;
  readonly #chunk: number;
  readonly #logFile: string | undefined;
  readonly #logTexts: SqliteLogTexts | null;
  /** The values of one full insert of (player, log) rows, reused run after run. */
  readonly #chunkValues: SQLInputValue[] = new Array<SQLInputValue>(ROW_VALUES * ROWS_PER_INSERT);
  /** The seen times of one mention's identifiers (#recordKnown), reused mention after mention. */
  readonly #seenScratch: Seen[] = [];
  /** The moved identifiers of one player grouped by their seen times (#writeSeen), reused player after player. */
  readonly #seenGroups: Array<{ first: number; last: number; identifiers: string[] }> = [];
  /** Counts record() calls: a player remembered is moved to the most recently used end once per call. */
  #recordings = 0;
  /** Per server, a linking identifier's player (a cache of player_identifiers). */
  readonly #owners = new Map<string, Map<string, number>>();
  #ownersCached = 0;
  readonly #known = new Map<number, KnownPlayer>();
  /** Remembered players whose gathered seen times moved since they were last written. */
  readonly #dirty = new Set<number>();
  #seenWrittenAt = Date.now();
  /**
   * The file's count of dropped and merged players (player_epoch) as this connection last knew it: another
   * connection dropping (retention, erasure) or merging players makes what this one remembers of players
   * and owners stale.
   */
  #epoch = 0;

  constructor(file: string, options: SqlitePlayerStoreOptions = {}) {
    this.#file = file;
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    this.#statements = new StatementCache(this.#db);
    this.#db.exec(PLAYER_PRAGMAS_SQL);
    this.#chunk = options.maintenanceChunk ?? 200;
    this.#logFile = options.logFile;
    this.#logTexts = options.logFile === undefined ? null : new SqliteLogTexts(options.logFile);
    const checkpointer = options.walCheckpointer === undefined ? sharedWalCheckpointer() : options.walCheckpointer;
    this.#wal = registerPassiveCheckpoints(this.#db, file, checkpointer);
    this.#queue = new SqlitePlayerQueue(queueFileOf(file), file === ':memory:' ? null : checkpointer);
    this.#migrate();
    this.#epoch = this.#storedEpoch();
  }

  #storedEpoch(): number {
    return num(this.#get('SELECT n FROM player_epoch WHERE id = 1')?.['n']);
  }

  /**
   * Inside a write transaction: when another connection dropped or merged players since this one last
   * looked, what it remembers of players (their seen times written first: a live player keeps them) and
   * owners is let go of.
   */
  #followOtherConnections(): void {
    const epoch = this.#storedEpoch();
    if (epoch === this.#epoch) return;
    for (const playerId of this.#dirty) {
      const known = this.#known.get(playerId);
      if (known !== undefined) this.#writeSeen(playerId, known);
    }
    this.#dirty.clear();
    this.#known.clear();
    this.#forgetOwners();
    this.#epoch = epoch;
  }

  #migrate(): void {
    const version = num(this.#db.prepare('PRAGMA user_version').get()?.['user_version']);
    if (version > PLAYER_SCHEMA_VERSION) throw new Error(`player store: file schema ${version} is newer than this code (${PLAYER_SCHEMA_VERSION})`);
    // Files before 3 keep player_identifiers keyed by (server, identifier): its rows move to the layout
    // clustered by player, in one transaction (a crash before its commit leaves the old file as it was). Told
    // by the layout itself (the new one has the owner index), not the version: a crash after that commit and
    // before the version is written must not move the rows again.
    const reclusters = this.#hasTable('player_identifiers') && !this.#hasIndex('player_identifiers_owner');
    // Files before 4 have no trigram index of the names: it is made and filled from player_search in the
    // same transaction (told by the index's own absence, as above).
    const indexesNames = this.#hasTable('player_search') && !this.#hasTable('player_search_trigrams');
    const migrates = reclusters || indexesNames;
    if (migrates) this.#db.exec('BEGIN IMMEDIATE');
    if (reclusters) {
      this.#db.exec('DROP INDEX IF EXISTS player_identifiers_player; ALTER TABLE player_identifiers RENAME TO player_identifiers_by_identifier');
    }
    this.#db.exec(PLAYER_SCHEMA_SQL);
    if (reclusters) {
      this.#db.exec(`INSERT INTO player_identifiers (player_id, identifier, server_id, first_seen, last_seen)
        SELECT player_id, identifier, server_id, first_seen, last_seen FROM player_identifiers_by_identifier ORDER BY player_id, identifier;
        DROP TABLE player_identifiers_by_identifier`);
    }
    if (indexesNames) this.#db.exec("INSERT INTO player_search_trigrams (rowid, folded) SELECT player_id, folded FROM player_search WHERE folded <> ''");
    if (migrates) this.#db.exec('COMMIT');
    if (version === 1) {
      // The first layout queued extracted players in this file; the queue now keeps the logs themselves, in
      // a file of its own. A crash between the copy and the drop copies again: recording twice changes nothing.
      for (const row of this.#all('SELECT seq, logs FROM player_queue ORDER BY seq')) this.#queue.add(queuedFromMentions(String(row['logs'])));
      this.#db.exec('DROP TABLE player_queue');
    }
    this.#db.exec(`PRAGMA user_version = ${PLAYER_SCHEMA_VERSION}`);
  }

  #hasTable(name: string): boolean {
    return this.#db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  }

  #hasIndex(name: string): boolean {
    return this.#db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
  }

  #run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.#statements.get(sql).run(...params).changes);
  }

  #get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.#statements.get(sql).get(...params);
  }

  #all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.#statements.get(sql).all(...params);
  }

  #transaction<R>(work: () => R): R {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      this.#wal?.wrote();
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  // ---- recording ----

  async queue(logs: readonly QueuedLog[]): Promise<void> {
    if (logs.length === 0) return;
    this.#queue.add(this.#logTexts === null ? packQueued(logs) : packKeys(logs));
  }

  async queued(limit: number): Promise<PlayerQueuePage> {
    const logs: RecordableLog[] = [];
    let through = -1;
    const read = (): void => {
      for (const row of this.#queue.rows()) {
        if (!isKeysRow(row.logs)) for (const log of unpackQueued(row.logs)) logs.push(log);
        // Keys without the log store's file (a store opened without it): nothing to read them from.
        else if (this.#logTexts !== null) this.#logTexts.logsOf(row.logs, logs);
        through = row.seq;
        if (logs.length >= limit) break;
      }
    };
    if (this.#logTexts === null) read();
    else this.#logTexts.reading(read);
    return { logs, through };
  }

  /** The queue is dropped after the recording commits (its own file): a crash between them records again, idempotently. */
  async record(logs: readonly LogMentions[], queuedThrough?: number): Promise<void> {
    if (logs.some((log) => log.players.length > 0)) this.#transaction(() => this.#recordAll(logs));
    if (queuedThrough !== undefined && queuedThrough >= 0) this.#queue.dropThrough(queuedThrough);
  }

  #recordAll(logs: readonly LogMentions[]): void {
    this.#followOtherConnections();
    this.#recordings++;
    const batch = new RecordBatch();
    for (const log of logs) {
      for (const player of log.players) this.#recordPlayer(batch, log, player);
    }
    this.#flushRows(batch);
    if (Date.now() - this.#seenWrittenAt >= SEEN_WRITE_EVERY_MS) this.#writeDirty();
    this.#trimKnown();
  }

  async settle(): Promise<void> {
    if (this.#dirty.size === 0 || !this.#db.isOpen) return;
    this.#transaction(() => this.#writeDirty());
  }

  /** Writes the seen times of every remembered player they moved for. */
  #writeDirty(): void {
    for (const playerId of this.#dirty) {
      const known = this.#known.get(playerId);
      if (known !== undefined) this.#writeSeen(playerId, known);
    }
    this.#dirty.clear();
    this.#seenWrittenAt = Date.now();
  }

  /** A worker thread with its own connection to this file, running `options.module` (player-store-worker.ts). */
  startWorker(options: PlayerStoreWorkerOptions): Worker {
    if (this.#file === ':memory:') throw new Error('player store: an in-memory database has no second connection');
    const workerData: PlayerStoreWorkerData = { role: 'skald-player-store', file: this.#file, logFile: this.#logFile, module: options.module.href, data: options.data };
    return new Worker(new URL('./player-store-worker.ts', import.meta.url), { workerData, name: BACKGROUND_THREADS.playerStore });
  }

  #recordPlayer(batch: RecordBatch, log: LogMentions, mentioned: MentionedPlayer): void {
    const linking = mentioned.linking.every(isLinking) ? mentioned.linking : mentioned.linking.filter(isLinking);
    if (linking.length === 0) return;
    if (this.#recordKnown(batch, log, mentioned, linking)) return;
    const join = joinOf(this.#ownersOf(log.serverId, linking));
    const target = join === null ? this.#createPlayer(log.serverId, log.at) : join.survivor;
    for (const other of join?.merged ?? []) {
      // What the batch holds so far is written first: the merge moves rows and recounts the survivor.
      this.#flushRows(batch);
      this.#merge(log.serverId, other, target);
    }
    batch.rows.push(target, log.logType === 'photo' ? 1 : 0, log.at, encodeLogId(log.logId), log.expiresAt);
    const known = this.#knownPlayer(target, log.serverId);
    this.#dirty.add(target);
    for (const identifier of linking) {
      this.#seen(known, target, 'identifier', identifier, log.at);
      this.#rememberOwner(log.serverId, identifier, target);
    }
    this.#seenWith(batch, known, target, mentioned, log.at);
  }

  /**
   * The common mention: a remembered player named by identifiers it was seen with before. Each identifier
   * costs one lookup, of its remembered seen times, which also tell whose it is (a linking identifier belongs
   * to one player), instead of three (its owner, its seen times, the owner cache). False, having changed
   * nothing, for any other mention (#recordPlayer's general path records it).
   */
  #recordKnown(batch: RecordBatch, log: LogMentions, mentioned: MentionedPlayer, linking: readonly string[]): boolean {
    const target = this.#owners.get(log.serverId)?.get(linking[0]!);
    if (target === undefined) return false;
    const known = this.#known.get(target);
    if (known === undefined) return false;
    const seen = this.#seenScratch;
    seen.length = 0;
    for (const identifier of linking) {
      const times = known.identifiers.get(identifier);
      if (times === undefined) return false;
      seen.push(times);
    }
    const at = log.at;
    for (const times of seen) {
      if (at < times.first) times.first = at;
      if (at > times.last) times.last = at;
    }
    batch.rows.push(target, log.logType === 'photo' ? 1 : 0, at, encodeLogId(log.logId), log.expiresAt);
    this.#knownPlayer(target, log.serverId);
    this.#dirty.add(target);
    this.#seenWith(batch, known, target, mentioned, at);
    return true;
  }

  /** A mention's listed identifiers and names: their seen times, and the player's name when it is the newest. */
  #seenWith(batch: RecordBatch, known: KnownPlayer, target: number, mentioned: MentionedPlayer, at: number): void {
    for (const identifier of mentioned.listed) this.#seen(known, target, 'identifier', identifier, at);
    for (const name of mentioned.names) {
      this.#seen(known, target, 'name', name, at);
      if (at >= known.nameSeen) {
        // The players row is written when the name changes; the time it was seen at rides along then.
        if (name !== known.name) batch.renamed.add(target);
        known.name = name;
        known.nameSeen = at;
      }
    }
  }

  /** The players these linking identifiers belong to: remembered ones, the others in one query. */
  #ownersOf(serverId: string, linking: readonly string[]): Set<number> {
    const owners = new Set<number>();
    const remembered = this.#owners.get(serverId);
    let unknown: string[] | null = null;
    for (const identifier of linking) {
      const cached = remembered?.get(identifier);
      if (cached !== undefined) owners.add(cached);
      else (unknown ??= []).push(identifier);
    }
    if (unknown === null) return owners;
    for (const row of this.#all('SELECT identifier, player_id FROM player_identifiers WHERE server_id = ? AND identifier IN (SELECT value FROM json_each(?))', serverId, JSON.stringify(unknown))) {
      const owner = num(row['player_id']);
      owners.add(owner);
      this.#rememberOwner(serverId, String(row['identifier']), owner);
    }
    return owners;
  }

  #rememberOwner(serverId: string, identifier: string, owner: number): void {
    let owners = this.#owners.get(serverId);
    if (owners === undefined) {
      owners = new Map();
      this.#owners.set(serverId, owners);
    }
    if (owners.get(identifier) === owner) return;
    if (this.#ownersCached >= OWNER_CACHE) this.#forgetOwners();
    owners.set(identifier, owner);
    this.#ownersCached++;
  }

  /** The remembered owners of a player's identifiers, moved to another player (a merge) or forgotten (null). */
  #reassignOwners(serverId: string, from: number, to: number | null): void {
    const owners = this.#owners.get(serverId);
    if (owners === undefined) return;
    for (const row of this.#all('SELECT identifier FROM player_identifiers WHERE player_id = ?', from)) {
      const identifier = String(row['identifier']);
      if (owners.get(identifier) !== from) continue;
      if (to === null) owners.delete(identifier);
      else owners.set(identifier, to);
    }
  }

  #forgetOwners(): void {
    this.#owners.clear();
    this.#ownersCached = 0;
  }

  #createPlayer(serverId: string, at: number): number {
    const row = this.#get('INSERT INTO players (server_id, first_seen, last_seen) VALUES (?, ?, ?) RETURNING id', serverId, at, at);
    const id = num(row?.['id']);
    this.#run("INSERT INTO player_search (server_id, player_id, folded) VALUES (?, ?, '')", serverId, id);
    return id;
  }

  /** What this connection remembers of a player (its name, and the seen times of its names and identifiers). */
  #knownPlayer(playerId: number, serverId: string): KnownPlayer {
    let known = this.#known.get(playerId);
    if (known === undefined) {
      const row = this.#get('SELECT name, name_seen FROM players WHERE id = ?', playerId);
      known = {
        serverId,
        name: row?.['name'] === null || row?.['name'] === undefined ? null : String(row['name']),
        nameSeen: row?.['name_seen'] === null || row?.['name_seen'] === undefined ? Number.NEGATIVE_INFINITY : num(row['name_seen']),
        identifiers: new Map(),
        names: new Map(),
        used: this.#recordings,
      };
      // Everything the player has been seen with, in two reads (not two statements per name and identifier).
      for (const seen of this.#all('SELECT name, first_seen, last_seen FROM player_names WHERE player_id = ?', playerId)) {
        known.names.set(String(seen['name']), stored(seen));
      }
      for (const seen of this.#all('SELECT identifier, first_seen, last_seen FROM player_identifiers WHERE player_id = ?', playerId)) {
        known.identifiers.set(String(seen['identifier']), stored(seen));
      }
    } else if (known.used === this.#recordings) {
      return known;
    } else {
      // Most recently used last (once per recording: its order inside one does not matter): the first
      // entries are the ones #trimKnown lets go.
      this.#known.delete(playerId);
    }
    known.used = this.#recordings;
    this.#known.set(playerId, known);
    return known;
  }

  /** A name or identifier seen with a player at `at`: its row written when first seen, its times gathered after. */
  #seen(known: KnownPlayer, playerId: number, kind: 'identifier' | 'name', value: string, at: number): void {
    const map = kind === 'name' ? known.names : known.identifiers;
    let seen = map.get(value);
    if (seen === undefined) {
      seen = this.#loadSeen(known.serverId, playerId, kind, value, at);
      map.set(value, seen);
    }
    if (at < seen.first) seen.first = at;
    if (at > seen.last) seen.last = at;
  }

  /** A name or identifier the player was never seen with (its remembered ones are all loaded): its row. */
  #loadSeen(serverId: string, playerId: number, kind: 'identifier' | 'name', value: string, at: number): Seen {
    if (kind === 'name') {
      this.#run('INSERT OR IGNORE INTO player_names (player_id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)', playerId, value, at, at);
      this.#run('UPDATE player_search SET folded = folded || ? WHERE server_id = ? AND player_id = ?', `\n${foldName(value)}`, serverId, playerId);
    } else {
      this.#run('INSERT OR IGNORE INTO player_identifiers (player_id, identifier, server_id, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)', playerId, value, serverId, at, at);
    }
    return { first: at, last: at, writtenFirst: at, writtenLast: at };
  }

  /** Writes the gathered seen times that moved since they were last written. */
  #writeSeen(playerId: number, known: KnownPlayer): void {
    for (const [name, seen] of known.names) {
      if (!moved(seen)) continue;
      this.#run('UPDATE player_names SET first_seen = min(first_seen, ?), last_seen = max(last_seen, ?) WHERE player_id = ? AND name = ?', seen.first, seen.last, playerId, name);
      written(seen);
    }
    // A player's identifiers are nearly always seen together, so with the same times: one statement for each
    // set of identifiers sharing their times (their rows share a page), not one an identifier.
    const groups = this.#seenGroups;
    groups.length = 0;
    for (const [identifier, seen] of known.identifiers) {
      if (!moved(seen)) continue;
      const group = groups.find((g) => g.first === seen.first && g.last === seen.last);
      if (group === undefined) groups.push({ first: seen.first, last: seen.last, identifiers: [identifier] });
      else group.identifiers.push(identifier);
      written(seen);
    }
    for (const { first, last, identifiers } of groups) {
      if (identifiers.length === 1) {
        this.#run('UPDATE player_identifiers SET first_seen = min(first_seen, ?), last_seen = max(last_seen, ?) WHERE player_id = ? AND identifier = ?', first, last, playerId, identifiers[0]!);
      } else {
        this.#run(
          'UPDATE player_identifiers SET first_seen = min(first_seen, ?), last_seen = max(last_seen, ?) WHERE player_id = ? AND identifier IN (SELECT value FROM json_each(?))',
          first,
          last,
          playerId,
          JSON.stringify(identifiers),
        );
      }
    }
  }

  /** Before a player is read, merged or dropped: its gathered seen times written, and (`forget`) let go of. */
  #settle(playerId: number, forget: boolean): void {
    const known = this.#known.get(playerId);
    if (known === undefined) return;
    this.#writeSeen(playerId, known);
    this.#dirty.delete(playerId);
    if (forget) this.#known.delete(playerId);
  }

  /** Keeps at most KNOWN_PLAYERS remembered: the least recently seen are written and let go of. */
  #trimKnown(): void {
    for (const [playerId, known] of this.#known) {
      if (this.#known.size <= KNOWN_PLAYERS) return;
      this.#writeSeen(playerId, known);
      this.#dirty.delete(playerId);
      this.#known.delete(playerId);
    }
  }

  /**
   * Inserts the batch's (player, log) rows, and adds what was new (not an earlier delivery) to the players.
   * A chunk whose every row was new (nearly always) adds its rows' counts and times as the batch holds them;
   * a chunk holding rows already stored (a redelivery, a run recorded again after a crash) has its players
   * counted again from their rows. No row comes back from SQLite: RETURNING a row object per inserted row
   * cost more than the insert itself (garbage).
   */
  #flushRows(batch: RecordBatch): void {
    const rows = batch.rows;
    const gained = new Map<number, Gain>();
    const recount = new Set<number>();
    const chunkValues = ROW_VALUES * ROWS_PER_INSERT;
    for (let start = 0; start < rows.length; start += chunkValues) {
      const end = Math.min(rows.length, start + chunkValues);
      const values = end - start === chunkValues ? fillChunk(this.#chunkValues, rows, start) : rows.slice(start, end);
      const inserted = Number(this.#insertRows(values.length / ROW_VALUES).run(...values).changes);
      const allNew = inserted === values.length / ROW_VALUES;
      for (let o = start; o < end; o += ROW_VALUES) {
        const playerId = rows[o] as number;
        if (!allNew) {
          recount.add(playerId);
          continue;
        }
        const photo = rows[o + 1] as number;
        const at = rows[o + 2] as number;
        const expires = rows[o + 4] as number;
        const sum = gained.get(playerId);
        if (sum === undefined) {
          gained.set(playerId, { logs: 1 - photo, photos: photo, first: at, last: at, next: expires });
        } else {
          sum.logs += 1 - photo;
          sum.photos += photo;
          if (at < sum.first) sum.first = at;
          if (at > sum.last) sum.last = at;
          if (expires < sum.next) sum.next = expires;
        }
      }
    }
    rows.length = 0;
    for (const [playerId, sum] of gained) {
      if (recount.has(playerId)) continue;
      this.#run(
        `UPDATE players SET log_count = log_count + ?, photo_count = photo_count + ?, first_seen = min(first_seen, ?), last_seen = max(last_seen, ?),
           next_expiry = min(coalesce(next_expiry, ?), ?) WHERE id = ?`,
        sum.logs,
        sum.photos,
        sum.first,
        sum.last,
        sum.next,
        sum.next,
        playerId,
      );
    }
    for (const playerId of recount) this.#recount(playerId);
    for (const playerId of batch.renamed) {
      const known = this.#known.get(playerId);
      if (known !== undefined && known.name !== null) {
        this.#run('UPDATE players SET name = ?, name_seen = ? WHERE id = ? AND (name_seen IS NULL OR name_seen <= ?)', known.name, known.nameSeen, playerId, known.nameSeen);
      }
    }
    batch.renamed.clear();
  }

  /** `INSERT OR IGNORE` of n rows (a row already stored is an earlier delivery: its `changes` tell). */
  #insertRows(n: number): StatementSync {
    return this.#statements.get(`INSERT OR IGNORE INTO player_logs (player_id, photo, at, log_id, expires_at) VALUES ${new Array<string>(n).fill('(?, ?, ?, ?, ?)').join(', ')}`);
  }

  /** Another connection remembering players or identifier owners lets go of them (#followOtherConnections). */
  #bumpEpoch(): void {
    this.#epoch = num(this.#get('INSERT INTO player_epoch (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1 RETURNING n')?.['n']);
  }

  /** The younger player's logs, identifiers and names move to the older; the younger keeps only where it went. */
  #merge(serverId: string, loser: number, winner: number): void {
    this.#bumpEpoch();
    this.#settle(loser, true);
    this.#settle(winner, true);
    // Identifiers that named the younger now name the older.
    this.#reassignOwners(serverId, loser, winner);
    this.#run('INSERT OR IGNORE INTO player_logs (player_id, photo, at, log_id, expires_at) SELECT ?, photo, at, log_id, expires_at FROM player_logs WHERE player_id = ?', winner, loser);
    this.#run('DELETE FROM player_logs WHERE player_id = ?', loser);
    this.#run(
      `INSERT INTO player_identifiers (player_id, identifier, server_id, first_seen, last_seen)
         SELECT ?, identifier, server_id, first_seen, last_seen FROM player_identifiers WHERE player_id = ? AND true
       ON CONFLICT (player_id, identifier) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen)`,
      winner,
      loser,
    );
    this.#run('DELETE FROM player_identifiers WHERE player_id = ?', loser);
    this.#run(
      `INSERT INTO player_names (player_id, name, first_seen, last_seen)
         SELECT ?, name, first_seen, last_seen FROM player_names WHERE player_id = ? AND true
       ON CONFLICT (player_id, name) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen)`,
      winner,
      loser,
    );
    this.#run('DELETE FROM player_names WHERE player_id = ?', loser);
    this.#run('DELETE FROM player_search WHERE server_id = ? AND player_id = ?', serverId, loser);
    this.#run('UPDATE players SET merged_into = ?, log_count = 0, photo_count = 0, next_expiry = NULL WHERE id = ?', winner, loser);
    this.#run('UPDATE players SET merged_into = ? WHERE merged_into = ?', winner, loser);
    const folded = this.#all('SELECT name FROM player_names WHERE player_id = ?', winner)
      .map((row) => `\n${foldName(String(row['name']))}`)
      .join('');
    this.#run('UPDATE player_search SET folded = ? WHERE server_id = ? AND player_id = ?', folded, serverId, winner);
    const newest = this.#get('SELECT name, last_seen FROM player_names WHERE player_id = ? ORDER BY last_seen DESC, name LIMIT 1', winner);
    if (newest !== undefined) this.#run('UPDATE players SET name = ?, name_seen = ? WHERE id = ?', newest['name']!, newest['last_seen']!, winner);
    this.#recount(winner);
  }

  /** Counts, seen span and next expiry from the player's rows; a player without rows is dropped. */
  #recount(playerId: number): void {
    const row = this.#get(
      'SELECT count(*) AS n, total(photo) AS photos, min(at) AS first, max(at) AS last, min(expires_at) AS next FROM player_logs WHERE player_id = ?',
      playerId,
    );
    const n = num(row?.['n']);
    if (n === 0) {
      this.#drop(playerId);
      return;
    }
    const photos = num(row?.['photos']);
    this.#run(
      'UPDATE players SET log_count = ?, photo_count = ?, first_seen = ?, last_seen = ?, next_expiry = ? WHERE id = ?',
      n - photos,
      photos,
      row!['first']!,
      row!['last']!,
      row!['next']!,
      playerId,
    );
  }

  #serverOf(playerId: number): string {
    return String(this.#get('SELECT server_id FROM players WHERE id = ?', playerId)?.['server_id']);
  }

  #drop(playerId: number): void {
    const serverId = this.#serverOf(playerId);
    this.#known.delete(playerId);
    this.#dirty.delete(playerId);
    this.#bumpEpoch();
    this.#reassignOwners(serverId, playerId, null);
    this.#run('DELETE FROM player_logs WHERE player_id = ?', playerId);
    this.#run('DELETE FROM player_identifiers WHERE player_id = ?', playerId);
    this.#run('DELETE FROM player_names WHERE player_id = ?', playerId);
    this.#run('DELETE FROM player_search WHERE server_id = ? AND player_id = ?', serverId, playerId);
    this.#run('DELETE FROM players WHERE id = ? OR merged_into = ?', playerId, playerId);
  }

  // ---- reading ----

  async list(query: PlayerListQuery): Promise<{ players: PlayerSummary[]; total: number }> {
    const search = playerSearchOf(query.search);
    const columns = 'p.id, p.server_id, p.name, p.first_seen, p.last_seen, p.log_count, p.photo_count';
    let rows: Row[];
    let total: number;
    if (search === null) {
      rows = this.#all(
        `SELECT ${columns} FROM players p WHERE p.server_id = ? AND p.merged_into IS NULL ORDER BY p.last_seen DESC, p.id DESC LIMIT ? OFFSET ?`,
        query.serverId,
        query.limit,
        query.offset,
      );
      total = num(this.#get('SELECT count(*) AS n FROM players WHERE server_id = ? AND merged_into IS NULL', query.serverId)?.['n']);
    } else {
      const { sql: matching, params } = searchCondition(query.serverId, search);
      rows = this.#all(`SELECT ${columns} FROM players p WHERE ${matching} ORDER BY p.last_seen DESC, p.id DESC LIMIT ? OFFSET ?`, ...params, query.limit, query.offset);
      total = num(this.#get(`SELECT count(*) AS n FROM players p WHERE ${matching}`, ...params)?.['n']);
    }
    const players = rows.map((row) => {
      const id = num(row['id']);
      this.#settleForRead(id);
      return {
        ...summaryOf(row),
        names: this.#all('SELECT name FROM player_names WHERE player_id = ? ORDER BY last_seen DESC, name LIMIT ?', id, query.itemsPerRow).map((r) => String(r['name'])),
        identifiers: this.#all('SELECT identifier FROM player_identifiers WHERE player_id = ? ORDER BY last_seen DESC, identifier LIMIT ?', id, query.itemsPerRow).map((r) =>
          String(r['identifier']),
        ),
      };
    });
    return { players, total };
  }

  async get(serverId: string, playerId: string): Promise<PlayerLookup | null> {
    const id = playerIdOf(playerId);
    if (id === null) return null;
    const row = this.#get('SELECT * FROM players WHERE id = ? AND server_id = ?', id, serverId);
    if (row === undefined) return null;
    if (row['merged_into'] !== null) return { mergedInto: String(row['merged_into']) };
    return { player: this.#detail(row) };
  }

  async byIdentifier(serverId: string, identifier: string): Promise<PlayerDetail | null> {
    const normalized = normalizedIdentifier(identifier);
    if (normalized === null) return null;
    const owner = this.#get('SELECT player_id FROM player_identifiers WHERE server_id = ? AND identifier = ? ORDER BY last_seen DESC LIMIT 1', serverId, normalized);
    if (owner === undefined) return null;
    const row = this.#get('SELECT * FROM players WHERE id = ? AND server_id = ? AND merged_into IS NULL', owner['player_id']!, serverId);
    return row === undefined ? null : this.#detail(row);
  }

  #detail(row: Row): PlayerDetail {
    const id = num(row['id']);
    this.#settleForRead(id);
    return {
      ...summaryOf(row),
      names: this.#all('SELECT name, first_seen, last_seen FROM player_names WHERE player_id = ? ORDER BY last_seen DESC, name', id).map((r) => ({
        name: String(r['name']),
        firstSeen: num(r['first_seen']),
        lastSeen: num(r['last_seen']),
      })),
      identifiers: this.#all('SELECT identifier, first_seen, last_seen FROM player_identifiers WHERE player_id = ? ORDER BY last_seen DESC, identifier', id).map((r) => ({
        identifier: String(r['identifier']),
        firstSeen: num(r['first_seen']),
        lastSeen: num(r['last_seen']),
      })),
    };
  }

  /** Seen times gathered for a player are written before it is read (a read answers them exactly). */
  #settleForRead(playerId: number): void {
    const known = this.#known.get(playerId);
    if (known === undefined || !this.#dirty.has(playerId)) return;
    this.#transaction(() => this.#writeSeen(playerId, known));
    this.#dirty.delete(playerId);
  }

  /** The live player an id stands for (itself, or the survivor it was merged into), or null. */
  #liveId(serverId: string, playerId: string): number | null {
    const id = playerIdOf(playerId);
    if (id === null) return null;
    const row = this.#get('SELECT merged_into FROM players WHERE id = ? AND server_id = ?', id, serverId);
    if (row === undefined) return null;
    return row['merged_into'] === null ? id : num(row['merged_into']);
  }

  async timeline(query: PlayerTimelineQuery): Promise<PlayerLogRef[]> {
    const id = this.#liveId(query.serverId, query.playerId);
    if (id === null || query.limit <= 0) return [];
    const types: LogType[] = query.logType === undefined ? ['text', 'photo'] : [query.logType];
    const pages = types.map((type) => this.#timelineOf(id, type, query.before, query.limit));
    return pages.length === 1 ? pages[0]! : newestOf(pages[0]!, pages[1]!, query.limit);
  }

  #timelineOf(playerId: number, logType: LogType, before: LogPosition | undefined, limit: number): PlayerLogRef[] {
    const photo = logType === 'photo' ? 1 : 0;
    const rows =
      before === undefined
        ? this.#all('SELECT at, log_id FROM player_logs WHERE player_id = ? AND photo = ? ORDER BY at DESC, log_id DESC LIMIT ?', playerId, photo, limit)
        : this.#all(
            'SELECT at, log_id FROM player_logs WHERE player_id = ? AND photo = ? AND (at, log_id) < (?, ?) ORDER BY at DESC, log_id DESC LIMIT ?',
            playerId,
            photo,
            before.at,
            encodeLogId(before.logId),
            limit,
          );
    return rows.map((row) => ({ at: num(row['at']), logId: decodeLogId(row['log_id']!), logType }));
  }

  async logsOf(serverId: string, playerId: string): Promise<PlayerLogRef[]> {
    const id = this.#liveId(serverId, playerId);
    if (id === null) return [];
    return this.#all('SELECT photo, at, log_id FROM player_logs WHERE player_id = ? ORDER BY at DESC, log_id DESC', id).map((row) => ({
      at: num(row['at']),
      logId: decodeLogId(row['log_id']!),
      logType: num(row['photo']) === 1 ? 'photo' : 'text',
    }));
  }

  // ---- forgetting ----

  async forgetLogs(serverId: string, logs: ReadonlyArray<PlayerLogRef & { readonly identifiers: readonly string[] }>): Promise<void> {
    if (logs.length === 0) return;
    this.#transaction(() => {
      const touched = new Set<number>();
      for (const log of logs) {
        const owners = new Set<number>();
        for (const identifier of log.identifiers) {
          if (!isLinking(identifier)) continue;
          const row = this.#get('SELECT player_id FROM player_identifiers WHERE server_id = ? AND identifier = ? LIMIT 1', serverId, identifier);
          if (row !== undefined) owners.add(num(row['player_id']));
        }
        for (const owner of owners) {
          const removed = this.#run(
            'DELETE FROM player_logs WHERE player_id = ? AND photo = ? AND at = ? AND log_id = ?',
            owner,
            log.logType === 'photo' ? 1 : 0,
            log.at,
            encodeLogId(log.logId),
          );
          if (removed > 0) touched.add(owner);
        }
      }
      for (const owner of touched) this.#recount(owner);
    });
  }

  async erase(serverId: string, playerId: string): Promise<void> {
    const id = this.#liveId(serverId, playerId);
    if (id === null) return;
    this.#transaction(() => this.#drop(id));
  }

  async forgetBefore(serverId: string, before: LogPosition, logType?: LogType): Promise<void> {
    const ids = this.#all(
      `SELECT id FROM players WHERE server_id = ? AND merged_into IS NULL AND first_seen <= ?${logType === 'photo' ? ' AND photo_count > 0' : ''}`,
      serverId,
      before.at,
    ).map((row) => num(row['id']));
    const photos = logType === undefined ? [0, 1] : [logType === 'photo' ? 1 : 0];
    const position = encodeLogId(before.logId);
    await this.#inChunks(ids, (id) => {
      let removed = 0;
      for (const photo of photos) {
        removed += this.#run('DELETE FROM player_logs WHERE player_id = ? AND photo = ? AND (at, log_id) < (?, ?)', id, photo, before.at, position);
      }
      if (removed > 0) this.#recount(id);
    });
  }

  async forgetExpired(now: number): Promise<void> {
    const ids = this.#all('SELECT id FROM players WHERE merged_into IS NULL AND next_expiry <= ?', now).map((row) => num(row['id']));
    await this.#inChunks(ids, (id) => {
      this.#run('DELETE FROM player_logs WHERE player_id = ? AND expires_at <= ?', id, now);
      // Also when nothing was removed: a next_expiry left behind by a deletion is set right.
      this.#recount(id);
    });
  }

  /**
   * Deletions over many players: a transaction per chunk, the event loop free between chunks. A chunk ends at
   * `#chunk` players or once it has run MAINTENANCE_TURN_MS: a busy server's player holds thousands of rows, and
   * 200 of them in one transaction held the loop ~100-150 ms during a retention sweep.
   */
  async #inChunks(ids: readonly number[], work: (id: number) => void): Promise<void> {
    let next = 0;
    while (next < ids.length) {
      if (next > 0) await nextTurn();
      if (!this.#db.isOpen) return;
      const started = performance.now();
      const end = Math.min(ids.length, next + this.#chunk);
      this.#transaction(() => {
        do work(ids[next++]!);
        while (next < end && performance.now() - started < MAINTENANCE_TURN_MS);
      });
    }
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    this.#transaction(() => this.#writeDirty());
    await this.#wal?.close();
    this.#db.exec('PRAGMA optimize');
    this.#db.close();
    await this.#queue.close();
    this.#logTexts?.close();
  }
}

/** One record() call: the (player, log) rows to insert (ROW_VALUES values each), and the players it renamed. */
class RecordBatch {
  readonly rows: SQLInputValue[] = [];
  readonly renamed = new Set<number>();
}

/** What a run's new (player, log) rows add to one player. */
interface Gain {
  logs: number;
  photos: number;
  first: number;
  last: number;
  next: number;
}

/** `into` filled with the `into.length` values of `rows` from `start` (no new array per insert). */
function fillChunk(into: SQLInputValue[], rows: readonly SQLInputValue[], start: number): SQLInputValue[] {
  for (let k = 0; k < into.length; k++) into[k] = rows[start + k]!;
  return into;
}

/** A seen-time row as read: written as it is. */
function stored(row: Row): Seen {
  const first = num(row['first_seen']);
  const last = num(row['last_seen']);
  return { first, last, writtenFirst: first, writtenLast: last };
}

const moved = (seen: Seen): boolean => seen.first < seen.writtenFirst || seen.last > seen.writtenLast;

function written(seen: Seen): void {
  seen.writtenFirst = seen.first;
  seen.writtenLast = seen.last;
}


function summaryOf(row: Row): Omit<PlayerSummary, 'names' | 'identifiers'> {
  return {
    id: String(row['id']),
    serverId: String(row['server_id']),
    name: row['name'] === null || row['name'] === undefined ? null : String(row['name']),
    firstSeen: num(row['first_seen']),
    lastSeen: num(row['last_seen']),
    logCount: num(row['log_count']),
    photoCount: num(row['photo_count']),
  };
}
