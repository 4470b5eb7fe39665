/**
 * Player store port: the players of the logs service (docs/PLAYERS.md). A player is a group of game
 * identifiers seen together in logs; the store keeps which logs mention which player, joins players a log
 * shows to be one (the older id stays), and forgets logs with the log store's deletions.
 * Adapters: SQLite (embedded) and MongoDB. One contract suite: libs/ports/contract/player-store.contract.ts.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import type { LogType } from './log-store.ts';

/** One player a log names, as extraction found it. */
export interface MentionedPlayer {
  /** Identifiers that make the player and join players (`license:…`, `discord:…`): at least one, kind lower case. */
  readonly linking: readonly string[];
  /** Identifiers listed with the player that never join players (`ip:…`, `token:…`). */
  readonly listed: readonly string[];
  readonly names: readonly string[];
}

/** A stored log and the players it names. */
export interface LogMentions {
  /** The log's id (UUIDv7 from ingestion; any string is accepted). */
  readonly logId: string;
  readonly serverId: string;
  /** The log's time (LogRecord.createdAt), epoch ms: what timelines order by and seen times come from. */
  readonly at: number;
  readonly logType: LogType;
  /** The log's expiry (LogRecord.expiresAt): retention forgets the mention with the log. */
  readonly expiresAt: number;
  readonly players: readonly MentionedPlayer[];
}

/** Where a log sits in a timeline: newest first by `at`, then by log id (plain string order), both descending. */
export interface LogPosition {
  readonly at: number;
  readonly logId: string;
}

export interface PlayerLogRef extends LogPosition {
  readonly logType: LogType;
}

export interface SeenSpan {
  /** Epoch ms. */
  readonly firstSeen: number;
  readonly lastSeen: number;
}

interface PlayerCounts extends SeenSpan {
  /** Decimal digits; stable while the player only grows. */
  readonly id: string;
  readonly serverId: string;
  /** The name seen last, null when no log named the player. */
  readonly name: string | null;
  /** Text logs still stored that mention the player. */
  readonly logCount: number;
  readonly photoCount: number;
}

/** A row of the player list: names and identifiers newest seen first, at most the query's `itemsPerRow` of each. */
export interface PlayerSummary extends PlayerCounts {
  readonly names: readonly string[];
  readonly identifiers: readonly string[];
}

/** One player with every name and identifier seen, newest seen first. */
export interface PlayerDetail extends PlayerCounts {
  readonly names: ReadonlyArray<SeenSpan & { readonly name: string }>;
  readonly identifiers: ReadonlyArray<SeenSpan & { readonly identifier: string }>;
}

/** What an id answers: the player, or the surviving player it was merged into (never an intermediate one). */
export type PlayerLookup = { readonly player: PlayerDetail } | { readonly mergedInto: string };

export interface PlayerListQuery {
  readonly serverId: string;
  /**
   * A name (case-insensitive, contains) or an identifier (exact, kind matched case-insensitively, or its
   * value without the kind). Blank: every player.
   */
  readonly search?: string;
  readonly offset: number;
  readonly limit: number;
  /** The most names and the most identifiers each row carries. */
  readonly itemsPerRow: number;
}

export interface PlayerTimelineQuery {
  readonly serverId: string;
  readonly playerId: string;
  /** Only logs strictly older than this position. */
  readonly before?: LogPosition;
  readonly logType?: LogType;
  readonly limit: number;
}

/**
 * A stored log as the queue keeps it until its players are recorded: what extraction reads (message and
 * metadata) and what recording keeps of the log. Extraction runs when the queue is recorded, off the
 * storing of logs (docs/PLAYERS.md, "Recording").
 */
export interface QueuedLog {
  readonly logId: string;
  readonly serverId: string;
  readonly at: number;
  readonly logType: LogType;
  readonly expiresAt: number;
  readonly message: string;
  readonly metadata: Readonly<Record<string, unknown>> | null;
}

/**
 * A queued log as queued() answers it. Its metadata may come as the JSON text a store already keeps (the
 * embedded store reads queued logs back from the log store by key): extraction parses it only when the
 * text may hold an identifier.
 */
export interface RecordableLog extends Omit<QueuedLog, 'metadata'> {
  /** The metadata object, or its JSON text (JSON.stringify of the object), or null. */
  readonly metadata: QueuedLog['metadata'] | string;
}

/** The oldest queued logs, and the queue position that record() drops through once they are recorded. */
export interface PlayerQueuePage {
  readonly logs: readonly RecordableLog[];
  readonly through: number;
}

/**
 * A module run on a worker thread beside a connection of its own to the store (PlayerStore.startWorker):
 * its default export receives that connection, the thread's port to its starter, and the starter's data.
 */
export type PlayerStoreWorkerMain = (store: PlayerStore, port: MessagePort, data: unknown) => void | Promise<void>;

export interface PlayerStoreWorkerOptions {
  /** The module (file URL) whose default export is a PlayerStoreWorkerMain. */
  readonly module: URL;
  /** Structured-cloneable data handed to the module. */
  readonly data?: unknown;
}

export interface PlayerStore {
  /**
   * Queues stored logs for recording their players (durable and cheap: one row for the lot; extraction and
   * recording happen from the queue in bigger runs, docs/PLAYERS.md "Recording").
   */
  queue(logs: readonly QueuedLog[]): Promise<void>;
  /** The oldest queued logs, at least `limit` when that many wait (whole queue entries), in queue order; through -1 when none. */
  queued(limit: number): Promise<PlayerQueuePage>;
  /**
   * Records stored logs and the players they name, in order, and (`queuedThrough`) then drops the queue up to
   * that position (a crash in between leaves it queued, to be recorded again). Idempotent: a log already recorded for a player changes nothing
   * (at-least-once delivery, also after a merge). A log joining players merges them into the oldest
   * (smallest id); the others answer `{ mergedInto }` from then on.
   */
  record(logs: readonly LogMentions[], queuedThrough?: number): Promise<void>;
  /** The server's players, newest lastSeen first (then id, descending), and how many match in all. */
  list(query: PlayerListQuery): Promise<{ readonly players: PlayerSummary[]; readonly total: number }>;
  /**
   * Writes what this connection gathered in memory and has not written yet (seen times), so that other
   * connections read it exactly. A read on this connection needs no call (it writes what it reads first).
   */
  settle(): Promise<void>;
  /**
   * Starts a worker thread with a connection of its own to this store and runs `module` there (the players'
   * recorder). The two connections stay coherent: what one deletes, the other no longer remembers. Absent
   * when the adapter has no such connection (the work then runs on the caller's thread).
   */
  startWorker?(options: PlayerStoreWorkerOptions): Worker;
  /** A player of the server by id; null when unknown to this server (or erased, or gone with its logs). */
  get(serverId: string, playerId: string): Promise<PlayerLookup | null>;
  /**
   * The player an identifier belongs to (`ip`/`token`: the one that last saw it); null if never seen. The
   * kind is matched case-insensitively.
   */
  byIdentifier(serverId: string, identifier: string): Promise<PlayerDetail | null>;
  /** A page of the player's logs, newest first; a merged id reads its survivor's. Empty for an unknown player. */
  timeline(query: PlayerTimelineQuery): Promise<PlayerLogRef[]>;
  /** Every log of the player (a merged id: its survivor's), for erasure. */
  logsOf(serverId: string, playerId: string): Promise<PlayerLogRef[]>;
  /**
   * Forgets these logs (deleted from the log store by id): each is removed from the players its linking
   * identifiers belong to. Players left without logs disappear.
   */
  forgetLogs(serverId: string, logs: ReadonlyArray<PlayerLogRef & { readonly identifiers: readonly string[] }>): Promise<void>;
  /** Removes the player (a merged id: its survivor), its identifiers, names, logs and the ids merged into it. */
  erase(serverId: string, playerId: string): Promise<void>;
  /**
   * Forgets a server's logs older than `before` (LogStore.deleteBefore: `{ at: before, logId: '' }`; the
   * photo limit: the oldest photo kept), of one type or both. Players left without logs disappear.
   */
  forgetBefore(serverId: string, before: LogPosition, logType?: LogType): Promise<void>;
  /** Forgets every log whose expiry is <= now (retention). Players left without logs disappear. */
  forgetExpired(now: number): Promise<void>;
  close(): Promise<void>;
}
