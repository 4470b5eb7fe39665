/**
 * The SQLite journal behind the in-process bus: one table of messages (append-only, seq grows
 * forever thanks to AUTOINCREMENT so offsets are never reused after pruning), the ensured topics,
 * and each consumer group's committed offset per topic. Every method is synchronous; a method that
 * returns has committed its transaction.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { sharedWalCheckpointer } from '../../sqlite/wal-checkpointer.ts';
import type { WalCheckpointer, WalFile } from '../../sqlite/wal-checkpointer.ts';
import { writeTransaction } from '../../sqlite/transaction.ts';

export interface JournalRow {
  readonly seq: number;
  readonly id: string;
  readonly key: string;
  readonly headers: string;
  /**
   * The payload's JSON text, or null when fetch was asked to leave it out (`withPayload` false): it is
   * then read only when needed (payloadOf), as the bus may hold that payload parsed in memory already.
   */
  readonly payload: string | null;
}

export interface NewJournalRow {
  readonly topic: string;
  readonly id: string;
  readonly key: string;
  readonly headers: string;
  readonly payload: string;
}

export interface PruneLimits {
  readonly now: number;
  readonly retentionMs: number;
  readonly maxMessagesPerTopic: number;
  /** Topics never pruned at all, so a consumer group added later replays them from the first row. */
  readonly historyTopics: ReadonlySet<string>;
}

export interface PruneResult {
  readonly deleted: number;
  /** Rows removed by retention or the size cap before every group had consumed them. */
  readonly droppedUnconsumed: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS topics (name TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  topic TEXT NOT NULL,
  id TEXT NOT NULL,
  key TEXT NOT NULL,
  headers TEXT NOT NULL,
  payload TEXT NOT NULL,
  published_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_topic_seq ON messages (topic, seq);
CREATE TABLE IF NOT EXISTS group_offsets (
  grp TEXT NOT NULL,
  topic TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (grp, topic)
) WITHOUT ROWID;
`;

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  throw new TypeError(`journal: expected a number, got ${typeof value}`);
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  throw new TypeError(`journal: expected text, got ${typeof value}`);
}

export class Journal {
  readonly #db: DatabaseSync;
  /** Null: SQLite checkpoints inside the commits (wal_autocheckpoint). */
  readonly #wal: WalFile | null;
  readonly #insertMessage: StatementSync;
  readonly #insertTopic: StatementSync;
  readonly #selectTopics: StatementSync;
  readonly #fetch: StatementSync;
  readonly #fetchHeads: StatementSync;
  readonly #payloadOf: StatementSync;
  readonly #initOffset: StatementSync;
  readonly #readOffset: StatementSync;
  readonly #writeOffset: StatementSync;
  readonly #minOffset: StatementSync;
  readonly #deleteUpTo: StatementSync;
  readonly #seqAtCapOffset: StatementSync;
  readonly #maxSeqBefore: StatementSync;
  readonly #countBetween: StatementSync;

  /** `checkpointer`: who runs the WAL checkpoints, off the event loop by default (sqlite/wal-checkpointer.ts). */
  constructor(file: string, synchronous: 'normal' | 'full', checkpointer: WalCheckpointer | null = sharedWalCheckpointer()) {
    mkdirSync(dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    // WAL: readers never block the publisher; NORMAL still survives a killed process because the
    // WAL write reaches the OS before COMMIT returns (FULL adds an fsync for power loss).
    // busy_timeout first: switching a new file to WAL needs it to itself, and another process opening the
    // same file at the same moment must be waited for, not answered with "database is locked".
    this.#db.exec('PRAGMA busy_timeout = 5000;');
    this.#db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'};`);
    // Bounds the WAL file after a burst of large publishes (it is truncated at checkpoints).
    this.#db.exec('PRAGMA journal_size_limit = 67108864;');
    if (checkpointer === null) {
      this.#wal = null;
    } else {
      this.#db.exec('PRAGMA wal_autocheckpoint = 0');
      const checkpoint = this.#db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
      this.#wal = checkpointer.register(file, () => {
        if (this.#db.isOpen) checkpoint.get();
      });
    }
    this.#db.exec(SCHEMA);
    this.#insertMessage = this.#db.prepare(
      'INSERT INTO messages (topic, id, key, headers, payload, published_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#insertTopic = this.#db.prepare('INSERT OR IGNORE INTO topics (name) VALUES (?)');
    this.#selectTopics = this.#db.prepare('SELECT name FROM topics');
    this.#fetch = this.#db.prepare(
      'SELECT seq, id, key, headers, payload FROM messages WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    // Without the payload: a large row's text lies on overflow pages, which this statement never reads.
    this.#fetchHeads = this.#db.prepare(
      'SELECT seq, id, key, headers, NULL AS payload FROM messages WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    this.#payloadOf = this.#db.prepare('SELECT payload FROM messages WHERE seq = ?');
    this.#initOffset = this.#db.prepare('INSERT OR IGNORE INTO group_offsets (grp, topic, seq) VALUES (?, ?, 0)');
    this.#readOffset = this.#db.prepare('SELECT seq FROM group_offsets WHERE grp = ? AND topic = ?');
    this.#writeOffset = this.#db.prepare('UPDATE group_offsets SET seq = ? WHERE grp = ? AND topic = ? AND seq < ?');
    this.#minOffset = this.#db.prepare('SELECT MIN(seq) AS seq FROM group_offsets WHERE topic = ?');
    this.#deleteUpTo = this.#db.prepare('DELETE FROM messages WHERE topic = ? AND seq <= ?');
    this.#seqAtCapOffset = this.#db.prepare(
      'SELECT seq FROM messages WHERE topic = ? ORDER BY seq DESC LIMIT 1 OFFSET ?',
    );
    this.#maxSeqBefore = this.#db.prepare(
      'SELECT MAX(seq) AS seq FROM messages WHERE topic = ? AND published_at < ?',
    );
    this.#countBetween = this.#db.prepare(
      'SELECT COUNT(*) AS n FROM messages WHERE topic = ? AND seq > ? AND seq <= ?',
    );
  }

  #transaction<T>(work: () => T): T {
    const result = writeTransaction(this.#db, work);
    this.#wal?.wrote();
    return result;
  }

  ensureTopics(names: readonly string[]): void {
    this.#transaction(() => {
      for (const name of names) this.#insertTopic.run(name);
    });
  }

  topics(): Set<string> {
    return new Set(this.#selectTopics.all().map((row) => toText(row['name'])));
  }

  /** Appends the rows in one transaction; answers their seqs, in order. */
  append(rows: readonly NewJournalRow[], now: number): number[] {
    return this.#transaction(() =>
      rows.map((row) =>
        toNumber(this.#insertMessage.run(row.topic, row.id, row.key, row.headers, row.payload, now).lastInsertRowid),
      ),
    );
  }

  /** Rows after afterSeq, in order; without their payload text (null) unless withPayload. */
  fetch(topic: string, afterSeq: number, limit: number, withPayload = true): JournalRow[] {
    return (withPayload ? this.#fetch : this.#fetchHeads).all(topic, afterSeq, limit).map((row) => ({
      seq: toNumber(row['seq']),
      id: toText(row['id']),
      key: toText(row['key']),
      headers: toText(row['headers']),
      payload: row['payload'] === null ? null : toText(row['payload']),
    }));
  }

  /** The seq of the topic's newest retained row, 0 when it has none (where an observer starts). */
  lastSeq(topic: string): number {
    const row = this.#db.prepare('SELECT MAX(seq) AS seq FROM messages WHERE topic = ?').get(topic);
    return row && row['seq'] !== null ? toNumber(row['seq']) : 0;
  }

  /** The payload text of a retained row (one fetch left out). */
  payloadOf(seq: number): string {
    const row = this.#payloadOf.get(seq);
    if (row === undefined) throw new Error(`journal: row ${seq} is gone`);
    return toText(row['payload']);
  }

  /**
   * Registers the group on the topic and returns its committed offset. A new group starts at 0, i.e.
   * before the oldest retained row: on a history topic that is the first message ever published.
   */
  joinGroup(group: string, topic: string): number {
    this.#initOffset.run(group, topic);
    const row = this.#readOffset.get(group, topic);
    return row ? toNumber(row['seq']) : 0;
  }

  /** Retained rows of the topic after the group's committed offset (its lag). */
  lag(group: string, topic: string): number {
    const row = this.#readOffset.get(group, topic);
    return this.#countAfter(topic, row ? toNumber(row['seq']) : 0);
  }

  #countAfter(topic: string, seq: number): number {
    const row = this.#db.prepare('SELECT COUNT(*) AS n FROM messages WHERE topic = ? AND seq > ?').get(topic, seq);
    return row ? toNumber(row['n']) : 0;
  }

  /** Commits the offset and, in the same transaction, appends the dead letter if there is one. */
  commit(group: string, topic: string, seq: number, deadLetter?: NewJournalRow, now = Date.now()): void {
    this.#transaction(() => {
      if (deadLetter) {
        this.#insertTopic.run(deadLetter.topic);
        this.#insertMessage.run(
          deadLetter.topic, deadLetter.id, deadLetter.key, deadLetter.headers, deadLetter.payload, now,
        );
      }
      this.#writeOffset.run(seq, group, topic, seq);
    });
  }

  /**
   * Deletes rows every group has passed, then rows beyond the retention age or the per-topic cap,
   * on every topic except the history topics.
   */
  prune(limits: PruneLimits): PruneResult {
    let deleted = 0;
    let droppedUnconsumed = 0;
    this.#transaction(() => {
      for (const topic of this.topics()) {
        // "Every existing group has passed it" says nothing about a group added tomorrow.
        if (limits.historyTopics.has(topic)) continue;
        const minRow = this.#minOffset.get(topic);
        const minGroupSeq = minRow && minRow['seq'] !== null ? toNumber(minRow['seq']) : null;
        if (minGroupSeq !== null) deleted += toNumber(this.#deleteUpTo.run(topic, minGroupSeq).changes);

        let cut = 0;
        const expired = this.#maxSeqBefore.get(topic, limits.now - limits.retentionMs);
        if (expired && expired['seq'] !== null) cut = Math.max(cut, toNumber(expired['seq']));
        const capRow = this.#seqAtCapOffset.get(topic, limits.maxMessagesPerTopic);
        if (capRow) cut = Math.max(cut, toNumber(capRow['seq']));
        if (cut > 0) {
          if (minGroupSeq !== null && cut > minGroupSeq) {
            const lost = this.#countBetween.get(topic, minGroupSeq, cut);
            droppedUnconsumed += lost ? toNumber(lost['n']) : 0;
          }
          deleted += toNumber(this.#deleteUpTo.run(topic, cut).changes);
        }
      }
    });
    return { deleted, droppedUnconsumed };
  }

  /** Rows currently retained for a topic (tests and diagnostics). */
  count(topic: string): number {
    const row = this.#countBetween.get(topic, -1, Number.MAX_SAFE_INTEGER);
    return row ? toNumber(row['n']) : 0;
  }

  async close(): Promise<void> {
    await this.#wal?.close();
    this.#db.close();
  }
}
