/**
 * Embedded log store on node:sqlite (see sqlite-log-schema.ts for the table and index design and
 * docs/DOCUMENT_STORE.md "Log store" for the measured figures).
 *
 * Write path: one transaction per batch, multi-row prepared INSERT ... ON CONFLICT(id) DO NOTHING (idempotent
 * on id), then four GROUP BY upserts over the rows the transaction added compute the rollup increments.
 * Delete paths: the doomed rows are collected in a temp table (in chunks), their rollup counts are
 * subtracted by GROUP BY over that chunk, photo object keys are read, then the rows are deleted, all
 * in one transaction per chunk, so rollups always equal the raw rows.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import type { DeleteResult, LogPage, LogQuery, LogRecord, LogStats, LogStore, LogType } from '@skald/ports';
import {
  DAY_MS,
  DEFAULT_SEARCH_COUNT_CAP,
  StatsBuilder,
  assertLogType,
  dayString,
  isDayAligned,
  parseDay,
  present,
  validateLogQuery,
} from './log-store-shared.ts';
import { DIM_LEVEL, DIM_RESOURCE, DIM_TYPE, PRAGMAS_SQL, SCHEMA_SQL } from './sqlite-log-schema.ts';

export interface SqliteLogStoreOptions {
  /** Search queries count matches only up to this many (the page itself is exact). Default 10 000. */
  readonly searchCountCap?: number;
  /** Rows deleted per transaction by the delete paths; between chunks the event loop gets a turn. */
  readonly deleteChunkSize?: number;
}

interface QueryPlan {
  readonly pageSql: string;
  readonly countSql: string;
  readonly cappedCountSql: string;
  readonly params: SQLInputValue[];
}

const PAGE_COLUMNS = 'id, created_at, level, type, resource, message, metadata, log_type, image_key, thumb_key, expires_at';

const DIM_BY_NAME = [
  [DIM_LEVEL, 'level'],
  [DIM_TYPE, 'type'],
  [DIM_RESOURCE, 'resource'],
] as const;

function str(value: SQLOutputValue | undefined): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function num(value: SQLOutputValue | undefined): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

function optionalStr(value: SQLOutputValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** LIKE pattern for a case-insensitive substring match; `\` escapes the wildcards typed by the user. */
function likePattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toRecord(serverId: string, row: Record<string, SQLOutputValue>): LogRecord {
  const metadata = optionalStr(row['metadata']);
  return {
    id: str(row['id']),
    serverId,
    createdAt: num(row['created_at']),
    level: str(row['level']),
    type: str(row['type']),
    resource: str(row['resource']),
    message: str(row['message']),
    metadata: metadata === null ? null : (JSON.parse(metadata) as Record<string, unknown>),
    logType: str(row['log_type']) === 'photo' ? 'photo' : 'text',
    imageKey: optionalStr(row['image_key']),
    thumbKey: optionalStr(row['thumb_key']),
    expiresAt: num(row['expires_at']),
  };
}

const INSERT_COLUMNS = 12;
const INSERT_ROWS_PER_STATEMENT = 50;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class SqliteLogStore implements LogStore {
  readonly #db: DatabaseSync;
  readonly #searchCountCap: number;
  readonly #chunk: number;
  readonly #serverKeys = new Map<string, number>();
  readonly #statements = new Map<string, StatementSync>();
  readonly #inserts = new Map<number, StatementSync>();

  constructor(file: string, options: SqliteLogStoreOptions = {}) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.#db = new DatabaseSync(file);
    this.#db.exec(PRAGMAS_SQL);
    this.#db.exec(SCHEMA_SQL);
    this.#db.exec('CREATE TEMP TABLE IF NOT EXISTS doomed (seq INTEGER PRIMARY KEY)');
    this.#searchCountCap = options.searchCountCap ?? DEFAULT_SEARCH_COUNT_CAP;
    this.#chunk = options.deleteChunkSize ?? 20_000;
  }

  #prepare(sql: string): StatementSync {
    let stmt = this.#statements.get(sql);
    if (stmt === undefined) {
      stmt = this.#db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  /** The small integer standing for a server id; undefined for a server that never stored a log. */
  #serverKey(serverId: string, create: boolean): number | undefined {
    const cached = this.#serverKeys.get(serverId);
    if (cached !== undefined) return cached;
    let row = this.#prepare('SELECT key FROM servers WHERE server_id = ?').get(serverId);
    if (row === undefined) {
      if (!create) return undefined;
      this.#prepare('INSERT INTO servers (server_id) VALUES (?)').run(serverId);
      row = this.#prepare('SELECT key FROM servers WHERE server_id = ?').get(serverId);
    }
    const key = num(row?.['key']);
    this.#serverKeys.set(serverId, key);
    return key;
  }

  #transaction<R>(work: () => R): R {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  async insertBatch(records: readonly LogRecord[]): Promise<{ inserted: number }> {
    if (records.length === 0) return { inserted: 0 };
    return this.#transaction(() => {
      // Rows inserted by this transaction are exactly those above the current max seq (single writer,
      // INTEGER PRIMARY KEY allocates max+1), which lets SQLite compute the rollup deltas itself.
      // Bare max(seq): SQLite answers it from the end of the b-tree (wrapped in coalesce it would scan).
      const seqBefore = num(this.#prepare('SELECT max(seq) AS s FROM logs').get()?.['s']);
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
            serverKey = this.#serverKey(r.serverId, true)!;
            lastServerId = r.serverId;
          }
          const o = i * INSERT_COLUMNS;
          args[o] = r.id;
          args[o + 1] = serverKey;
          args[o + 2] = r.createdAt;
          args[o + 3] = r.level;
          args[o + 4] = r.type;
          args[o + 5] = r.resource;
          args[o + 6] = r.message;
          args[o + 7] = r.metadata === null ? null : JSON.stringify(r.metadata);
          args[o + 8] = r.logType;
          args[o + 9] = r.imageKey;
          args[o + 10] = r.thumbKey;
          args[o + 11] = r.expiresAt;
        }
        inserted += Number(this.#insertStatement(count).run(...args).changes);
      }
      if (inserted > 0) {
        // NOT INDEXED: only the rowid range of this batch; otherwise the planner may walk a whole
        // (server, level) index to get GROUP BY order for free, which is O(table) per batch.
        this.#prepare(
          `INSERT INTO rollup_day (server_key, day, log_type, n)
           SELECT server_key, CAST(created_at / ${DAY_MS} AS INTEGER), log_type, count(*) FROM logs NOT INDEXED WHERE seq > ? GROUP BY 1, 2, 3
           ON CONFLICT DO UPDATE SET n = n + excluded.n`,
        ).run(seqBefore);
        for (const [dim, column] of DIM_BY_NAME) {
          this.#prepare(
            `INSERT INTO rollup_dim (server_key, dim, value, log_type, n)
             SELECT server_key, ${dim}, ${column}, log_type, count(*) FROM logs NOT INDEXED WHERE seq > ? GROUP BY server_key, ${column}, log_type
             ON CONFLICT DO UPDATE SET n = n + excluded.n`,
          ).run(seqBefore);
        }
      }
      return { inserted };
    });
  }

  /** Multi-row INSERT for `rows` records: one native call per 50 rows instead of per row. */
  #insertStatement(rows: number): StatementSync {
    let stmt = this.#inserts.get(rows);
    if (stmt === undefined) {
      const tuple = `(${new Array(INSERT_COLUMNS).fill('?').join(', ')})`;
      stmt = this.#db.prepare(
        `INSERT INTO logs (id, server_key, created_at, level, type, resource, message, metadata, log_type, image_key, thumb_key, expires_at)
         VALUES ${new Array(rows).fill(tuple).join(', ')} ON CONFLICT (id) DO NOTHING`,
      );
      this.#inserts.set(rows, stmt);
    }
    return stmt;
  }

  async query(query: LogQuery): Promise<LogPage> {
    validateLogQuery(query);
    const serverKey = this.#serverKey(query.serverId, false);
    if (serverKey === undefined) return { items: [], total: 0 };
    const plan = this.#plan(query, serverKey);
    const rows = query.limit === 0 ? [] : this.#prepare(plan.pageSql).all(...plan.params, query.limit, query.offset);
    return { items: rows.map((row) => toRecord(query.serverId, row)), total: this.#total(query, serverKey, plan) };
  }

  /** EXPLAIN QUERY PLAN of the page query (diagnostics, tests and the benchmark). */
  explainQuery(query: LogQuery): string {
    validateLogQuery(query);
    const serverKey = this.#serverKey(query.serverId, false);
    if (serverKey === undefined) return '';
    const plan = this.#plan(query, serverKey);
    return this.#db
      .prepare(`EXPLAIN QUERY PLAN ${plan.pageSql}`)
      .all(...plan.params, query.limit, query.offset)
      .map((row) => str(row['detail']))
      .join('\n');
  }

  #plan(query: LogQuery, serverKey: number): QueryPlan {
    const where: string[] = ['server_key = ?'];
    const params: SQLInputValue[] = [serverKey];
    // Literal, validated logType: lets the planner use the partial photo index.
    if (query.logType !== undefined) where.push(`log_type = '${query.logType}'`);
    for (const [, name] of DIM_BY_NAME) {
      const value = query[name];
      if (present(value)) {
        where.push(`${name} = ?`);
        params.push(value);
      }
    }
    if (query.from !== undefined) {
      where.push('created_at >= ?');
      params.push(query.from);
    }
    if (query.to !== undefined) {
      where.push('created_at <= ?');
      params.push(query.to);
    }
    if (present(query.search)) {
      const columns = ['message', 'type', 'level', 'resource', 'metadata'];
      where.push(`(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      const pattern = likePattern(query.search);
      for (let i = 0; i < columns.length; i++) params.push(pattern);
    }
    const from = `logs INDEXED BY ${this.#chooseIndex(query, serverKey)} WHERE ${where.join(' AND ')}`;
    return {
      pageSql: `SELECT ${PAGE_COLUMNS} FROM ${from} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      countSql: `SELECT count(*) AS n FROM ${from}`,
      cappedCountSql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT ?)`,
      params,
    };
  }

  /**
   * Picks the index by the rollup counts (exact, always fresh) rather than leaving it to the planner,
   * which without ANALYZE statistics prefers the time index to avoid a sort and then walks a server's
   * whole history to find 50 rare matches. The narrowest equality filter wins; no filter -> time index.
   */
  #chooseIndex(query: LogQuery, serverKey: number): string {
    let best = 'logs_server_time';
    let bestCount = Number.POSITIVE_INFINITY;
    const logTypeSql = query.logType === undefined ? '' : ` AND log_type = '${query.logType}'`;
    if (query.logType === 'photo') {
      best = 'logs_server_photo';
      bestCount = num(this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ? AND log_type = 'photo'`).get(serverKey)?.['n']);
    }
    for (const [dim, name] of DIM_BY_NAME) {
      const value = query[name];
      if (!present(value)) continue;
      const n = num(
        this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_dim WHERE server_key = ? AND dim = ? AND value = ?${logTypeSql}`).get(serverKey, dim, value)?.['n'],
      );
      if (n < bestCount) {
        best = `logs_server_${name}`;
        bestCount = n;
      }
    }
    return best;
  }

  /** Rollups answer the total when they can; otherwise an index-driven count (capped for search). */
  #total(query: LogQuery, serverKey: number, plan: QueryPlan): number {
    const logTypeSql = query.logType === undefined ? '' : ` AND log_type = '${query.logType}'`;
    if (!present(query.search)) {
      const dims = DIM_BY_NAME.filter(([, name]) => present(query[name]));
      const hasRange = query.from !== undefined || query.to !== undefined;
      if (dims.length === 0 && isDayAligned(query.from, query.to)) {
        const dayParams: SQLInputValue[] = [serverKey];
        let rangeSql = '';
        if (query.from !== undefined) {
          rangeSql += ' AND day >= ?';
          dayParams.push(query.from / DAY_MS);
        }
        if (query.to !== undefined) {
          rangeSql += ' AND day <= ?';
          dayParams.push((query.to + 1) / DAY_MS - 1);
        }
        const row = this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ?${logTypeSql}${rangeSql}`).get(...dayParams);
        return num(row?.['n']);
      }
      if (dims.length === 1 && !hasRange) {
        const [dim, name] = dims[0]!;
        const row = this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_dim WHERE server_key = ? AND dim = ? AND value = ?${logTypeSql}`).get(
          serverKey,
          dim,
          query[name] ?? '',
        );
        return num(row?.['n']);
      }
      return num(this.#prepare(plan.countSql).get(...plan.params)?.['n']);
    }
    const capped = this.#prepare(plan.cappedCountSql).get(...plan.params, this.#searchCountCap);
    return num(capped?.['n']);
  }

  async stats(serverId: string, range: { readonly fromDay: string; readonly toDay: string }): Promise<LogStats> {
    const fromDay = parseDay(range.fromDay);
    const toDay = parseDay(range.toDay);
    const stats = new StatsBuilder();
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return stats.build();
    for (const row of this.#prepare('SELECT day, log_type, n FROM rollup_day WHERE server_key = ? AND n > 0').all(serverKey)) {
      const day = num(row['day']);
      const logType = str(row['log_type']);
      const n = num(row['n']);
      stats.addTotal(logType, n);
      if (day >= fromDay && day <= toDay) stats.addDay(dayString(day), logType, n);
    }
    for (const row of this.#prepare('SELECT dim, value, log_type, n FROM rollup_dim WHERE server_key = ? AND n > 0 ORDER BY log_type DESC').all(serverKey)) {
      const dim = DIM_BY_NAME[num(row['dim'])];
      if (dim !== undefined) stats.addDim(dim[1], str(row['value']), str(row['log_type']), num(row['n']));
    }
    return stats.build();
  }

  async facets(serverId: string): Promise<{ levels: string[]; types: string[]; resources: string[] }> {
    const out = { levels: [] as string[], types: [] as string[], resources: [] as string[] };
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return out;
    const lists = [out.levels, out.types, out.resources];
    const rows = this.#prepare('SELECT dim, value FROM rollup_dim WHERE server_key = ? AND n > 0 GROUP BY dim, value').all(serverKey);
    for (const row of rows) lists[num(row['dim'])]?.push(str(row['value']));
    // JS order (not NOCASE collation) so both adapters list facets identically.
    for (const list of lists) list.sort();
    return out;
  }

  async count(serverId: string, logType?: LogType): Promise<number> {
    if (logType !== undefined) assertLogType(logType);
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return 0;
    const logTypeSql = logType === undefined ? '' : ` AND log_type = '${logType}'`;
    return num(this.#prepare(`SELECT coalesce(sum(n), 0) AS n FROM rollup_day WHERE server_key = ?${logTypeSql}`).get(serverKey)?.['n']);
  }

  async deleteBefore(serverId: string, before: number): Promise<DeleteResult> {
    if (!Number.isFinite(before)) throw new RangeError('before must be finite epoch milliseconds');
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    return this.#deleteInChunks('SELECT seq FROM logs INDEXED BY logs_server_time WHERE server_key = ? AND created_at < ? LIMIT ?', [serverKey, before]);
  }

  async deleteExpired(now: number): Promise<DeleteResult> {
    if (!Number.isFinite(now)) throw new RangeError('now must be finite epoch milliseconds');
    return this.#deleteInChunks('SELECT seq FROM logs INDEXED BY logs_expires WHERE expires_at <= ? LIMIT ?', [now]);
  }

  async deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult> {
    assertLogType(logType);
    if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError('keep must be a non-negative integer');
    const serverKey = this.#serverKey(serverId, false);
    if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
    // Each chunk removes the next rows beyond the newest `keep`, so repeating it converges on `keep`.
    return this.#deleteInChunks(
      `SELECT seq FROM (SELECT seq FROM logs WHERE server_key = ? AND log_type = '${logType}' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?)`,
      [serverKey],
      (chunk) => [chunk, keep],
    );
  }

  /**
   * Deletes, chunk by chunk, the rows `selectSeqSql` returns (its last parameters are supplied per
   * chunk: by default the chunk size as LIMIT), keeping the rollups in step in the same transaction.
   */
  async #deleteInChunks(
    selectSeqSql: string,
    params: readonly SQLInputValue[],
    chunkParams: (chunk: number) => SQLInputValue[] = (chunk) => [chunk],
  ): Promise<DeleteResult> {
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (;;) {
      const deleted = this.#transaction(() => this.#deleteChunk(selectSeqSql, [...params, ...chunkParams(this.#chunk)], objectKeys));
      deletedCount += deleted;
      if (deleted < this.#chunk) break;
      await yieldToEventLoop();
    }
    return { deletedCount, objectKeys };
  }

  #deleteChunk(selectSeqSql: string, params: SQLInputValue[], objectKeys: string[]): number {
    this.#prepare('DELETE FROM temp.doomed').run();
    const selected = Number(this.#prepare(`INSERT INTO temp.doomed (seq) ${selectSeqSql}`).run(...params).changes);
    if (selected === 0) return 0;
    // CROSS JOIN pins the small temp table as the outer loop (the planner has no statistics to know).
    const doomedRows = 'temp.doomed d CROSS JOIN logs l ON l.seq = d.seq';
    this.#prepare(
      `INSERT INTO rollup_day (server_key, day, log_type, n)
       SELECT l.server_key, CAST(l.created_at / ${DAY_MS} AS INTEGER), l.log_type, -count(*) FROM ${doomedRows} WHERE true GROUP BY 1, 2, 3
       ON CONFLICT DO UPDATE SET n = n + excluded.n`,
    ).run();
    for (const [dim, column] of DIM_BY_NAME) {
      this.#prepare(
        `INSERT INTO rollup_dim (server_key, dim, value, log_type, n)
         SELECT l.server_key, ${dim}, l.${column}, l.log_type, -count(*) FROM ${doomedRows} WHERE true GROUP BY l.server_key, l.${column}, l.log_type
         ON CONFLICT DO UPDATE SET n = n + excluded.n`,
      ).run();
    }
    for (const row of this.#prepare(`SELECT l.image_key, l.thumb_key FROM ${doomedRows} WHERE l.log_type = 'photo'`).all()) {
      for (const key of [row['image_key'], row['thumb_key']]) if (typeof key === 'string' && key !== '') objectKeys.push(key);
    }
    const affected = `SELECT DISTINCT l.server_key FROM ${doomedRows}`;
    // Emptied rollup rows go, so facets only list values that still have logs.
    this.#prepare(`DELETE FROM rollup_day WHERE n <= 0 AND server_key IN (${affected})`).run();
    this.#prepare(`DELETE FROM rollup_dim WHERE n <= 0 AND server_key IN (${affected})`).run();
    this.#prepare('DELETE FROM logs WHERE seq IN (SELECT seq FROM temp.doomed)').run();
    return selected;
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    // Keeps planner statistics fresh for the next start (cheap: analyses only what changed a lot).
    this.#db.exec('PRAGMA optimize');
    this.#db.close();
  }
}
