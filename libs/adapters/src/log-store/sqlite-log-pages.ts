/**
 * The embedded log store's answers to a LogQuery: a page with its total (through the search index when it
 * helps, sqlite-log-indexed-search.ts, else the query plan, sqlite-log-query-plan.ts), a keyset scan of
 * every match (exports), and a histogram of the matches per time bucket and level (sqlite-log-histogram.ts
 * counts; this module hands it the same access paths a page reads).
 */
import type { LogHistogram, LogMatchSpan, LogPage, LogQuery, LogRecord, LogScanQuery } from '@skald/ports';
import type { LogConnection } from './sqlite-log-connection.ts';
import { cappedTotal, present, validateLogQuery, validateScanPageSize } from './log-store-shared.ts';
import { EMPTY_HISTOGRAM } from './log-histogram-shared.ts';
import { instantAfterRowid, sqliteHistogram } from './sqlite-log-histogram.ts';
import type { HistogramPart, LevelIndexCounts } from './sqlite-log-histogram.ts';
import { indexExpression, searchPage, searchSources } from './sqlite-log-indexed-search.ts';
import { planQuery } from './sqlite-log-query-plan.ts';
import type { QueryPlan } from './sqlite-log-query-plan.ts';
import { rollupTotal } from './sqlite-log-rollup-reads.ts';
import { PAGE_COLUMNS, num, str, toRecord } from './sqlite-log-rows.ts';
import { DIM_LEVEL } from './sqlite-log-schema.ts';

export class LogPages {
  readonly #conn: LogConnection;
  /** Counted totals stop past this many. */
  readonly #countCap: number;
  /** No search index: every search scans. */
  readonly #indexOff: boolean;

  constructor(conn: LogConnection, countCap: number, indexOff: boolean) {
    this.#conn = conn;
    this.#countCap = countCap;
    this.#indexOff = indexOff;
  }

  query(query: LogQuery): LogPage {
    validateLogQuery(query);
    const conn = this.#conn;
    const serverKey = conn.serverKey(query.serverId, false);
    if (serverKey === undefined) return { items: [], total: 0, totalCapped: false };
    const indexed = indexExpression(conn, this.#indexOff, query, serverKey);
    if (indexed !== null) return conn.snapshot(() => searchPage(conn, this.#countCap, query, indexed, serverKey));
    const plan = planQuery(conn, query, serverKey);
    const rows = query.limit === 0 ? [] : conn.prepare(plan.pageSql).all(...plan.params, query.limit, query.offset);
    return { items: rows.map((row) => toRecord(query.serverId, row)), ...this.#total(query, serverKey, plan) };
  }

  /** Rollups answer the total when they can (exact, never capped); otherwise an index-driven count up to the cap. */
  #total(query: LogQuery, serverKey: number, plan: QueryPlan): { total: number; totalCapped: boolean } {
    const fromRollups = rollupTotal(this.#conn, query, serverKey);
    if (fromRollups !== null) return { total: fromRollups, totalCapped: false };
    const counted = this.#conn.prepare(plan.cappedCountSql).get(...plan.params, this.#countCap + 1);
    return cappedTotal(num(counted?.['n']), this.#countCap);
  }

  async *scan(query: LogScanQuery, pageSize: number): AsyncIterable<LogRecord[]> {
    validateLogQuery({ ...query, offset: 0, limit: pageSize });
    validateScanPageSize(pageSize);
    const conn = this.#conn;
    const serverKey = conn.serverKey(query.serverId, false);
    if (serverKey === undefined) return;
    const plan = planQuery(conn, { ...query, offset: 0, limit: pageSize }, serverKey);
    const first = conn.prepare(`SELECT ${PAGE_COLUMNS} FROM ${plan.from} ORDER BY created_at DESC, id DESC LIMIT ?`);
    // A row-value comparison on the clustered key (or the chosen index, which ends with it): each page
    // is a seek to the last row handed out, then a short walk.
    const next = conn.prepare(`SELECT ${PAGE_COLUMNS} FROM ${plan.from} AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`);
    let rows = first.all(...plan.params, pageSize);
    while (rows.length > 0) {
      const page = rows.map((row) => toRecord(query.serverId, row));
      yield page;
      if (rows.length < pageSize) return;
      const last = page[page.length - 1]!;
      rows = next.all(...plan.params, last.createdAt, last.id, pageSize);
    }
  }

  /** EXPLAIN QUERY PLAN of the page query (diagnostics, tests and the benchmark). */
  explainQuery(query: LogQuery): string {
    validateLogQuery(query);
    const serverKey = this.#conn.serverKey(query.serverId, false);
    if (serverKey === undefined) return '';
    const plan = planQuery(this.#conn, query, serverKey);
    return this.#conn.db
      .prepare(`EXPLAIN QUERY PLAN ${plan.pageSql}`)
      .all(...plan.params, query.limit, query.offset)
      .map((row) => str(row['detail']))
      .join('\n');
  }

  histogram(query: LogScanQuery, bucketEdges: (span: LogMatchSpan) => readonly number[]): LogHistogram {
    validateLogQuery({ ...query, offset: 0, limit: 0 });
    const conn = this.#conn;
    const serverKey = conn.serverKey(query.serverId, false);
    if (serverKey === undefined) return EMPTY_HISTOGRAM;
    return conn.snapshot(() =>
      sqliteHistogram(
        {
          prepare: (sql) => conn.prepare(sql),
          cap: this.#countCap,
          levelIndex: this.#levelIndexCounts(query, serverKey),
          parts: (range) =>
            this.#histogramParts(
              range === undefined ? query : { ...query, from: Math.max(query.from ?? range.from, range.from), to: Math.min(query.to ?? range.to, range.to) },
              serverKey,
            ),
          instantAfterRowid: (rowid) => instantAfterRowid(serverKey, rowid),
        },
        bucketEdges,
      ),
    );
  }

  /** A query of only a log type, a level and a range is counted through the level index (sqlite-log-histogram.ts). */
  #levelIndexCounts(query: LogScanQuery, serverKey: number): LevelIndexCounts | null {
    if (present(query.search) || present(query.type) || present(query.resource) || present(query.afterId)) return null;
    const levels = present(query.level)
      ? [query.level]
      : this.#conn
          .prepare('SELECT DISTINCT value FROM rollup_dim WHERE server_key = ? AND dim = ? AND n > 0')
          .all(serverKey, DIM_LEVEL)
          .map((row) => str(row['value']));
    return { serverKey, levels, logType: query.logType, from: query.from, to: query.to };
  }

  /**
   * The access paths of a list page of this query (sqlite-log-histogram.ts): the filter plan, or for an
   * indexed search the FTS rowid range, the rows ahead of the indexer's cursor and the late ones, with the
   * same terms as searchPage.
   */
  #histogramParts(query: LogScanQuery, serverKey: number): HistogramPart[] {
    const paged: LogQuery = { ...query, offset: 0, limit: 0 };
    const expression = indexExpression(this.#conn, this.#indexOff, paged, serverKey);
    if (expression === null) {
      const plan = planQuery(this.#conn, paged, serverKey);
      return [{ sql: plan.from, params: plan.params, col: '', order: 'time' }];
    }
    const { floor, indexed, ahead, late } = searchSources(this.#conn, paged, expression, serverKey);
    return [
      { ...indexed(floor), col: 'l.', order: 'rowid' },
      { ...ahead, col: 'l.', order: 'time' },
      { ...late, col: 'l.', order: 'time' },
    ];
  }
}
