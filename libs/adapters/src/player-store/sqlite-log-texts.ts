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
 */
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import type { SQLOutputValue } from 'node:sqlite';
import type { QueuedLog, RecordableLog } from '@skald/ports';

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

export class SqliteLogTexts {
  readonly #file: string;
  #db: DatabaseSync | null = null;
  #serverKey: StatementSync | null = null;
  #logByKey: StatementSync | null = null;

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
      return read();
    } finally {
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
        const found = this.#logByKey!.get(serverKey, at, logId) as SQLOutputValue[] | undefined;
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

  /** Opened at the first read: by then the log store has made its file and tables. */
  #open(): DatabaseSync {
    if (this.#db !== null) return this.#db;
    const db = new DatabaseSync(this.#file);
    // Only reads: a mistake here can never write the log store's file.
    db.exec('PRAGMA query_only = ON; PRAGMA busy_timeout = 5000');
    this.#serverKey = db.prepare('SELECT key FROM servers WHERE server_id = ?');
    this.#logByKey = db.prepare(LOG_BY_KEY_SQL);
    this.#serverKey.setReturnArrays(true);
    this.#logByKey.setReturnArrays(true);
    this.#db = db;
    return db;
  }

  close(): void {
    if (this.#db?.isOpen) this.#db.close();
    this.#db = null;
  }
}
