/**
 * Every delete path of the embedded log store (a server's logs before a time, retention's expired rows, the
 * oldest beyond a count, chosen keys). Each works in chunks, one write transaction per chunk with a turn of
 * the event loop between them: the doomed keys are collected in a temp table, their rollup counts are
 * subtracted by GROUP BY over that chunk, photo object keys are read, their search index entries go, then
 * the rows, so rollups always equal the raw rows.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { DeleteResult, LogKey, LogType } from '@skald/ports';
import type { LogConnection } from './sqlite-log-connection.ts';
import { DAY_MS, assertLogType } from './log-store-shared.ts';
import { DIM_BY_NAME, KEY_COLUMNS, num } from './sqlite-log-rows.ts';

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class LogDeletes {
  readonly #conn: LogConnection;
  /** Rows deleted per transaction. */
  readonly #chunk: number;

  constructor(conn: LogConnection, chunk: number) {
    this.#conn = conn;
    this.#chunk = chunk;
    conn.db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS doomed (server_key INTEGER NOT NULL, created_at INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (server_key, created_at, id)) WITHOUT ROWID',
    );
  }

  async deleteBefore(serverId: string, before: number): Promise<DeleteResult> {
    if (!Number.isFinite(before)) throw new RangeError('before must be finite epoch milliseconds');
    const serverKey = this.#conn.serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    return this.#deleteInChunks(`SELECT ${KEY_COLUMNS} FROM logs WHERE server_key = ? AND created_at < ? LIMIT ?`, [serverKey, before]);
  }

  /**
   * Visits only the (server, day) ranges whose rollup min_expires says they may hold expired rows, walks
   * each along the clustered key in chunks (a cursor on created_at, so kept rows are not rescanned), then
   * stores the exact min_expires of what is left so the next sweep skips the range until it expires.
   */
  async deleteExpired(now: number): Promise<DeleteResult> {
    if (!Number.isFinite(now)) throw new RangeError('now must be finite epoch milliseconds');
    const conn = this.#conn;
    const buckets = conn.prepare('SELECT server_key, day FROM rollup_day WHERE min_expires <= ? GROUP BY server_key, day').all(now);
    let deletedCount = 0;
    const objectKeys: string[] = [];
    const select = `SELECT ${KEY_COLUMNS} FROM logs WHERE server_key = ? AND created_at >= ? AND created_at < ? AND expires_at <= ? ORDER BY created_at, id LIMIT ?`;
    for (const bucket of buckets) {
      const serverKey = num(bucket['server_key']);
      const dayStart = num(bucket['day']) * DAY_MS;
      let cursor = dayStart;
      for (;;) {
        const deleted = await conn.write(() => {
          const n = this.#deleteChunk(select, [serverKey, cursor, dayStart + DAY_MS, now, this.#chunk], objectKeys);
          // Rows before the last deleted one were deleted or kept: the next chunk starts there.
          if (n > 0) cursor = num(conn.prepare('SELECT max(created_at) AS c FROM temp.doomed').get()?.['c']);
          return n;
        });
        deletedCount += deleted;
        if (deleted < this.#chunk) break;
        await yieldToEventLoop();
      }
      await conn.write(() =>
        conn
          .prepare(
            `UPDATE rollup_day SET min_expires = coalesce(
             (SELECT min(expires_at) FROM logs WHERE server_key = rollup_day.server_key AND created_at >= ? AND created_at < ? AND +log_type = rollup_day.log_type),
             ${Number.MAX_SAFE_INTEGER})
           WHERE server_key = ? AND day = ?`,
          )
          .run(dayStart, dayStart + DAY_MS, serverKey, num(bucket['day'])),
      );
      await yieldToEventLoop();
    }
    return { deletedCount, objectKeys };
  }

  async deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult> {
    assertLogType(logType);
    if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError('keep must be a non-negative integer');
    const serverKey = this.#conn.serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    // Each chunk removes the next rows beyond the newest `keep`, so repeating it converges on `keep`.
    // Photos through their partial index; text logs along the clustered key (the + keeps the photo index out).
    const source = logType === 'photo' ? `logs INDEXED BY logs_server_photo WHERE server_key = ? AND log_type = 'photo'` : `logs WHERE server_key = ? AND +log_type = 'text'`;
    return this.#deleteInChunks(
      `SELECT ${KEY_COLUMNS} FROM (SELECT ${KEY_COLUMNS} FROM ${source} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?)`,
      [serverKey],
      (chunk) => [chunk, keep],
    );
  }

  async deleteByKeys(serverId: string, keys: readonly LogKey[]): Promise<DeleteResult> {
    const serverKey = this.#conn.serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    const unique = [...new Map(keys.map((key) => [`${key.createdAt}\u0000${key.id}`, [key.createdAt, key.id]])).values()];
    // Only the stored rows reach the doomed table (its count is what was deleted).
    const select = `SELECT l.server_key, l.created_at, l.id FROM json_each(?) j CROSS JOIN logs l ON l.server_key = ? AND l.created_at = j.value ->> 0 AND l.id = j.value ->> 1`;
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (let start = 0; start < unique.length; start += this.#chunk) {
      if (start > 0) await yieldToEventLoop();
      const chunk = JSON.stringify(unique.slice(start, start + this.#chunk));
      deletedCount += await this.#conn.write(() => this.#deleteChunk(select, [chunk, serverKey], objectKeys));
    }
    return { deletedCount, objectKeys };
  }

  /**
   * Deletes, chunk by chunk, the rows whose keys `selectKeysSql` returns (its last parameters are supplied per
   * chunk: by default the chunk size as LIMIT), keeping the rollups in step in the same transaction.
   */
  async #deleteInChunks(
    selectKeysSql: string,
    params: readonly SQLInputValue[],
    chunkParams: (chunk: number) => SQLInputValue[] = (chunk) => [chunk],
  ): Promise<DeleteResult> {
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (;;) {
      const deleted = await this.#conn.write(() => this.#deleteChunk(selectKeysSql, [...params, ...chunkParams(this.#chunk)], objectKeys));
      deletedCount += deleted;
      if (deleted < this.#chunk) break;
      await yieldToEventLoop();
    }
    return { deletedCount, objectKeys };
  }

  #deleteChunk(selectKeysSql: string, params: SQLInputValue[], objectKeys: string[]): number {
    const conn = this.#conn;
    conn.prepare('DELETE FROM temp.doomed').run();
    const selected = Number(conn.prepare(`INSERT INTO temp.doomed (${KEY_COLUMNS}) ${selectKeysSql}`).run(...params).changes);
    if (selected === 0) return 0;
    // CROSS JOIN pins the small temp table as the outer loop (the planner has no statistics to know).
    const doomedRows = 'temp.doomed d CROSS JOIN logs l ON l.server_key = d.server_key AND l.created_at = d.created_at AND l.id = d.id';
    conn
      .prepare(
        `INSERT INTO rollup_day (server_key, day, log_type, n, min_expires)
       SELECT l.server_key, CAST(l.created_at / ${DAY_MS} AS INTEGER), l.log_type, -count(*), min(l.expires_at) FROM ${doomedRows} WHERE true GROUP BY 1, 2, 3
       ON CONFLICT DO UPDATE SET n = n + excluded.n`,
      )
      .run();
    for (const [dim, column] of DIM_BY_NAME) {
      conn
        .prepare(
          `INSERT INTO rollup_dim (server_key, dim, value, log_type, n)
         SELECT l.server_key, ${dim}, l.${column}, l.log_type, -count(*) FROM ${doomedRows} WHERE true GROUP BY l.server_key, l.${column}, l.log_type
         ON CONFLICT DO UPDATE SET n = n + excluded.n`,
        )
        .run();
    }
    for (const row of conn.prepare(`SELECT l.image_key, l.thumb_key FROM ${doomedRows} WHERE l.log_type = 'photo'`).all()) {
      for (const key of [row['image_key'], row['thumb_key']]) if (typeof key === 'string' && key !== '') objectKeys.push(key);
    }
    const affected = `SELECT DISTINCT l.server_key FROM ${doomedRows}`;
    // Emptied rollup rows go, so facets only list values that still have logs.
    conn.prepare(`DELETE FROM rollup_day WHERE n <= 0 AND server_key IN (${affected})`).run();
    conn.prepare(`DELETE FROM rollup_dim WHERE n <= 0 AND server_key IN (${affected})`).run();
    // Their search index entries go with them (contentless_delete: by rowid), and their late-queue entries.
    conn.prepare(`DELETE FROM logs_fts WHERE rowid IN (SELECT l.fts_rowid FROM ${doomedRows} WHERE l.fts_rowid > 0)`).run();
    conn.prepare(`DELETE FROM search_late WHERE (${KEY_COLUMNS}) IN (SELECT ${KEY_COLUMNS} FROM temp.doomed)`).run();
    conn.prepare(`DELETE FROM logs WHERE (${KEY_COLUMNS}) IN (SELECT ${KEY_COLUMNS} FROM temp.doomed)`).run();
    return selected;
  }
}
