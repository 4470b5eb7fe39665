/**
 * Queued logs read back from the embedded log store (DATA_DIR/logs/logs.db) by key. With it, the queue row
 * the store path writes holds each log's server, id and time only: the log store already keeps its message
 * and metadata (the metadata as JSON text), so the thread storing logs no longer serializes every log a
 * second time for the queue (docs/PLAYERS.md, "Recording"). Read on the recorder's thread, through a
 * connection of its own (WAL: reading never waits for the log store's writes).
 *
 * It reads the log store's tables as sqlite-log-schema.ts lays them out: `servers (key, server_id)` and the
 * `logs` table clustered by (server_key, created_at, id): a log is one seek by its key. A test stores logs through SqliteLogStore and
 * reads them back here (libs/adapters/test/player-store-sqlite.test.ts), so a change of that layout fails it.
 * A file of the block layout (block-store-schema.ts: LOG_LAYOUT=blocks) is read by the same key from its tail,
 * from the row store's table while a migration empties it, else from the block whose time range holds the log
 * (its columns decoded, each block once per read transaction).
 */
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import type { SQLOutputValue } from 'node:sqlite';
import type { QueuedLog, RecordableLog } from '@skald/ports';
import { BlockText, decodeBlockKeys, rowOf } from '../log-store/block-codec.ts';
import type { BlockMeta } from '../log-store/block-codec.ts';
import { TextDictionaries } from '../log-store/block-text-dictionaries.ts';

/**
 * A queue row of keys: `{"k":[[serverId, logId, at, logId, at, ...], ...]}` (one array per server, flat:
 * one array parsed per server, not one per log), written by hand (the store path's cost) with
 * JSON.stringify for every string, so it is always valid JSON.
 */
export function packKeys(logs: readonly QueuedLog[]): string {
  let out = '{"k":[';
  let server: string | null = null;
  for (const log of logs) {
    if (log.serverId !== server) {
      out += `${server === null ? '' : '],'}[${JSON.stringify(log.serverId)}`;
      server = log.serverId;
    }
    // A time that is no finite number finds no stored log (null): that log is skipped, the row stays valid JSON.
    out += `,${JSON.stringify(log.logId)},${Number.isFinite(log.at) ? log.at : 'null'}`;
  }
  return server === null ? '{"k":[]}' : `${out}]]}`;
}

/** Whether a queue row holds keys (packKeys) rather than whole logs (a JSON array). */
export function isKeysRow(row: string): boolean {
  return row.charCodeAt(0) === 0x7b;
}

/** One seek of the logs table's primary key a log. */
const LOG_BY_KEY_SQL = 'SELECT log_type, expires_at, message, metadata FROM logs WHERE server_key = ? AND created_at = ? AND id = ?';
/** The same in the block layout's tail. */
const TAIL_BY_KEY_SQL = 'SELECT log_type, expires_at, message, metadata FROM tail WHERE server_key = ? AND created_at = ? AND id = ?';
const BLOCKS_AT_SQL = 'SELECT block_id, n FROM blocks WHERE server_key = ? AND min_at <= ? AND max_at >= ?';
/** A block's frames, read once per read transaction (the text only when one of its rows is wanted). */
const BLOCK_META_SQL = 'SELECT meta FROM blocks WHERE block_id = ?';
const BLOCK_TEXT_SQL = 'SELECT text FROM blocks WHERE block_id = ?';

interface DecodedBlock {
  readonly meta: BlockMeta;
  /** Decoded at the first row read from the block. */
  text: BlockText | null;
}

export class SqliteLogTexts {
  readonly #file: string;
  #db: DatabaseSync | null = null;
  #serverKey: StatementSync | null = null;
  #logByKey: StatementSync | null = null;
  /** Block layout: the tail's seek (#logByKey then seeks the row store's table while it exists), the blocks by time. */
  #tailByKey: StatementSync | null = null;
  #blocksAt: StatementSync | null = null;
  #blockMeta: StatementSync | null = null;
  #blockText: StatementSync | null = null;
  /** The streams' text dictionaries a block's text in groups is decoded with (read on this connection). */
  #dictionaries: TextDictionaries | null = null;
  /** Blocks decoded in the current read transaction. */
  readonly #decoded = new Map<number, DecodedBlock>();

  constructor(file: string) {
    this.#file = file;
  }

  /**
   * Reads inside one read transaction (`read` calls `logsOf`): a statement outside one pays for taking the
   * WAL's read lock and, after the log store wrote, for refilling its page cache, which tripled the cost of
   * each seek (measured).
   */
  reading<R>(read: () => R): R {
    const db = this.#open();
    db.exec('BEGIN');
    try {
      if (this.#tailByKey !== null) this.#logByKey = this.#rowTableStatement(db);
      return read();
    } finally {
      this.#decoded.clear();
      db.exec('COMMIT');
    }
  }

  /** The stored logs a keys row names, in its order, metadata as the log store keeps it (JSON text); a log gone since is skipped. */
  logsOf(row: string, into: RecordableLog[]): void {
    this.#open();
    const groups = (JSON.parse(row) as { k: unknown[][] }).k;
    for (const group of groups) {
      const serverId = String(group[0]);
      const serverKey = (this.#serverKey!.get(serverId) as SQLOutputValue[] | undefined)?.[0];
      if (serverKey === undefined) continue;
      for (let k = 1; k + 1 < group.length; k += 2) {
        const logId = String(group[k]);
        const at = group[k + 1];
        if (typeof at !== 'number') continue;
        const found = this.#find(Number(serverKey), at, logId);
        if (found === undefined) continue;
        const [logType, expiresAt, message, metadata] = found;
        into.push({
          serverId,
          logId,
          at,
          logType: logType === 'photo' ? 'photo' : 'text',
          expiresAt: Number(expiresAt),
          message: String(message),
          metadata: typeof metadata === 'string' ? metadata : null,
        });
      }
    }
  }

  /** [log_type, expires_at, message, metadata] of the stored log with this key, or undefined. */
  #find(serverKey: number, at: number, logId: string): SQLOutputValue[] | undefined {
    for (const stmt of [this.#tailByKey, this.#logByKey]) {
      const found = stmt?.get(serverKey, at, logId) as SQLOutputValue[] | undefined;
      if (found !== undefined) return found;
    }
    if (this.#blocksAt === null) return undefined;
    for (const row of this.#blocksAt.all(serverKey, at, at) as unknown as SQLOutputValue[][]) {
      const [blockId, n] = row;
      let block = this.#decoded.get(Number(blockId));
      if (block === undefined) {
        const meta = (this.#blockMeta!.get(blockId!) as SQLOutputValue[] | undefined)?.[0];
        if (!(meta instanceof Uint8Array)) continue;
        block = { meta: decodeBlockKeys(meta), text: null };
        this.#decoded.set(Number(blockId), block);
      }
      // Rows are in (created_at, id) order: a binary search, not a walk of the block's rows.
      const i = rowOf(block.meta, at, logId);
      if (i < 0) continue;
      if (block.text === null) {
        const text = (this.#blockText!.get(blockId!) as SQLOutputValue[] | undefined)?.[0];
        if (!(text instanceof Uint8Array)) continue;
        // A text in groups decodes the group of the row only, with its stream's dictionary.
        block.text = new BlockText(text, Number(n), true, this.#dictionaries!.raw);
      }
      const metadata = block.text.metadataJson(i);
      return [block.meta.logType(i), block.meta.expiresAt(i), block.text.message(i), metadata === '' ? null : metadata];
    }
    return undefined;
  }

  /** Block layout: the row store's table is read while a migration empties it (null once it is dropped). */
  #rowTableStatement(db: DatabaseSync): StatementSync | null {
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'logs'").get() === undefined) return null;
    const stmt = db.prepare(LOG_BY_KEY_SQL);
    stmt.setReturnArrays(true);
    return stmt;
  }

  /** Opened at the first read: by then the log store has made its file and tables. */
  #open(): DatabaseSync {
    if (this.#db !== null) return this.#db;
    const db = new DatabaseSync(this.#file);
    // Only reads: a mistake here can never write the log store's file.
    db.exec('PRAGMA query_only = ON; PRAGMA busy_timeout = 5000');
    this.#serverKey = db.prepare('SELECT key FROM servers WHERE server_id = ?');
    this.#serverKey.setReturnArrays(true);
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tail'").get() !== undefined) {
      this.#tailByKey = db.prepare(TAIL_BY_KEY_SQL);
      this.#blocksAt = db.prepare(BLOCKS_AT_SQL);
      this.#tailByKey.setReturnArrays(true);
      this.#blocksAt.setReturnArrays(true);
      this.#blockMeta = db.prepare(BLOCK_META_SQL);
      this.#blockMeta.setReturnArrays(true);
      this.#blockText = db.prepare(BLOCK_TEXT_SQL);
      this.#blockText.setReturnArrays(true);
      this.#dictionaries = new TextDictionaries((sql) => db.prepare(sql));
    } else {
      this.#logByKey = db.prepare(LOG_BY_KEY_SQL);
      this.#logByKey.setReturnArrays(true);
    }
    this.#db = db;
    return db;
  }

  close(): void {
    if (this.#db?.isOpen) this.#db.close();
    this.#db = null;
  }
}
