/**
 * insertBatch's write path of the embedded log store: one transaction per batch (retried while the indexing
 * worker holds the lock: LogConnection.write), multi-row prepared INSERT ... ON CONFLICT DO NOTHING on the
 * clustered key (server, createdAt, id), rollup increments aggregated in JS (sqlite-log-rollup-delta.ts) and
 * written as one upsert per distinct key. A chunk whose rows were partly already stored sends the batch down
 * a per-row path, so the rollups count exactly the rows that were new.
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { LogRecord } from '@skald/ports';
import type { LogConnection } from './sqlite-log-connection.ts';
import { RollupDelta } from './sqlite-log-rollup-delta.ts';
import { DIM_NUMBER, INSERT_COLUMNS, fillRow } from './sqlite-log-rows.ts';
import { LOG_COLUMNS } from './sqlite-log-schema.ts';
import { prepareStatement } from '../sqlite/statements.ts';

const INSERT_ROWS_PER_STATEMENT = 100;

/** Thrown inside the fast insert transaction to roll it back when a chunk was partly made of stored rows. */
class PartlyStoredChunk extends Error {}

export class LogWriter {
  readonly #conn: LogConnection;
  readonly #inserts = new Map<number, StatementSync>();

  constructor(conn: LogConnection) {
    this.#conn = conn;
  }

  /** Inserts the records (a record whose key is stored is skipped); answers how many were new. */
  async insert(records: readonly LogRecord[]): Promise<{ inserted: number }> {
    try {
      return await this.#conn.write(() => this.#insertChunked(records));
    } catch (err) {
      if (!(err instanceof PartlyStoredChunk)) throw err;
      // A batch mixing new and already stored rows (a partial redelivery, or a record repeated in the
      // batch): one statement per row, so the rollups count exactly the rows that were new.
      return this.#conn.write(() => this.#insertRowByRow(records));
    }
  }

  /**
   * Fast path: 100 rows per statement. A chunk of only new rows (changes = rows) or only stored rows
   * (changes = 0, a whole redelivery) is settled here; anything in between throws PartlyStoredChunk.
   */
  #insertChunked(records: readonly LogRecord[]): { inserted: number } {
    const conn = this.#conn;
    const delta = new RollupDelta();
    const args: SQLInputValue[] = new Array<SQLInputValue>(INSERT_ROWS_PER_STATEMENT * INSERT_COLUMNS);
    let inserted = 0;
    let lastServerId: string | undefined;
    let serverKey = 0;
    for (let start = 0; start < records.length; start += INSERT_ROWS_PER_STATEMENT) {
      const count = Math.min(INSERT_ROWS_PER_STATEMENT, records.length - start);
      if (count < INSERT_ROWS_PER_STATEMENT) args.length = count * INSERT_COLUMNS;
      for (let i = 0; i < count; i++) {
        const r = records[start + i]!;
        if (r.serverId !== lastServerId) {
          serverKey = conn.serverKey(r.serverId, true)!;
          lastServerId = r.serverId;
        }
        fillRow(args, i * INSERT_COLUMNS, serverKey, r);
        delta.add(serverKey, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo');
      }
      const changes = Number(this.#insertStatement(count).run(...args).changes);
      if (changes === count) {
        inserted += count;
        for (let i = 0; i < count; i++) {
          const r = records[start + i]!;
          conn.indexer.stored(conn.serverKey(r.serverId, true)!, r.createdAt, r.id);
        }
        continue;
      }
      if (changes !== 0) throw new PartlyStoredChunk();
      // Every row of the chunk was already stored: take its rollup counts back.
      for (let i = 0; i < count; i++) {
        const r = records[start + i]!;
        delta.add(conn.serverKey(r.serverId, true)!, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo', -1);
      }
    }
    this.#applyDelta(delta);
    return { inserted };
  }

  #insertRowByRow(records: readonly LogRecord[]): { inserted: number } {
    const conn = this.#conn;
    const delta = new RollupDelta();
    const args: SQLInputValue[] = new Array<SQLInputValue>(INSERT_COLUMNS);
    const stmt = this.#insertStatement(1);
    let inserted = 0;
    for (const r of records) {
      const serverKey = conn.serverKey(r.serverId, true)!;
      fillRow(args, 0, serverKey, r);
      if (Number(stmt.run(...args).changes) === 0) continue;
      inserted += 1;
      conn.indexer.stored(serverKey, r.createdAt, r.id);
      delta.add(serverKey, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo');
    }
    this.#applyDelta(delta);
    return { inserted };
  }

  #applyDelta(delta: RollupDelta): void {
    const day = this.#conn.prepare(
      'INSERT INTO rollup_day (server_key, day, log_type, n, min_expires) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n, min_expires = min(min_expires, excluded.min_expires)',
    );
    for (const d of delta.days()) day.run(d.serverKey, d.day, d.logType, d.n, d.minExpires);
    const dim = this.#conn.prepare('INSERT INTO rollup_dim (server_key, dim, value, log_type, n) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
    for (const d of delta.dims()) dim.run(d.serverKey, DIM_NUMBER[d.dim], d.value, d.logType, d.n);
  }

  /** Multi-row INSERT for `rows` records: one native call per 100 rows instead of per row. */
  #insertStatement(rows: number): StatementSync {
    let stmt = this.#inserts.get(rows);
    if (stmt === undefined) {
      const tuple = `(${new Array(INSERT_COLUMNS).fill('?').join(', ')})`;
      stmt = prepareStatement(this.#conn.db, `INSERT INTO logs (${LOG_COLUMNS}) VALUES ${new Array(rows).fill(tuple).join(', ')} ON CONFLICT DO NOTHING`);
      this.#inserts.set(rows, stmt);
    }
    return stmt;
  }
}
