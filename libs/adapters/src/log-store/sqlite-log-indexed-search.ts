/**
 * Queries of the embedded log store answered through the search index (the index itself and its writer:
 * sqlite-log-search.ts): whether the index helps a query, and if so its page and total, read from three
 * sources merged newest first: the server's indexed matches (one FTS rowid range), the rows ahead of the
 * indexer's cursor and the late ones (both scanned), so the answer is the same whatever the indexer has
 * reached. The histogram reads the same three sources (sqlite-log-pages.ts).
 */
import type { SQLInputValue } from 'node:sqlite';
import type { LogPage, LogQuery, LogRecord } from '@skald/ports';
import type { LogConnection } from './sqlite-log-connection.ts';
import { cappedTotal, present } from './log-store-shared.ts';
import { dimCount, rollupTotal, serverCount } from './sqlite-log-rollup-reads.ts';
import { ALIASED_PAGE_COLUMNS, DIM_BY_NAME, SEARCH_COLUMNS, likePattern, num, toRecord } from './sqlite-log-rows.ts';
import { MAX_INDEXED_SERVER_KEY, PHOTO_CODE, ftsPhrase, isIndexedSearch, levelCode, rowidFloor, serverRowidRange } from './sqlite-log-search.ts';

/** Which filters an FTS query answers exactly (through codes in the index), so indexed rows need no check of them. */
export interface ExactInIndex {
  readonly level: boolean;
  readonly logType: boolean;
}

export interface IndexExpression {
  readonly match: string;
  readonly exact: ExactInIndex;
}

interface Source {
  readonly sql: string;
  readonly params: SQLInputValue[];
}

/**
 * The FTS5 query answering the indexed part of this query, or null when the index does not help. The
 * index is used for a search of 3+ characters, or a type or resource filter rare enough (at most 1% of
 * the server's logs, by the rollups) that finding its few rows through the index beats walking the
 * server's logs newest first. Other filters then narrow inside the index too: the log type and a
 * standard level exactly (their codes, sqlite-log-search.ts: no check on the row needed, `exact`), a
 * type, resource or other level by its text (a superset; the equality is checked on each row found).
 */
export function indexExpression(conn: LogConnection, indexOff: boolean, query: LogQuery, serverKey: number): IndexExpression | null {
  if (indexOff || serverKey > MAX_INDEXED_SERVER_KEY) return null;
  const parts: string[] = [];
  const searching = present(query.search);
  if (searching) {
    // A search the index cannot answer (too short) leaves the whole query to the scan.
    if (!isIndexedSearch(query.search ?? '')) return null;
    parts.push(ftsPhrase(query.search ?? ''));
  }
  const dims = DIM_BY_NAME.filter(([, name]) => name !== 'level' && present(query[name]) && isIndexedSearch(query[name] ?? ''));
  let all: number | null = null;
  for (const [dim, name] of dims) {
    const value = query[name] ?? '';
    let narrows = searching;
    if (!narrows) {
      all ??= serverCount(conn, serverKey);
      narrows = dimCount(conn, serverKey, dim, value) * 100 <= all;
    }
    if (narrows) parts.push(`{${name}} : ${ftsPhrase(value)}`);
  }
  if (parts.length === 0) return null;
  let levelExact = false;
  if (present(query.level)) {
    const code = levelCode(query.level);
    if (code !== null) {
      parts.push(`{level} : ${ftsPhrase(code)}`);
      levelExact = true;
    } else if (isIndexedSearch(query.level)) {
      parts.push(`{level} : ${ftsPhrase(query.level)}`);
    }
  }
  if (query.logType === 'photo') parts.push(`{level} : ${ftsPhrase(PHOTO_CODE)}`);
  let match = parts.join(' AND ');
  // Text logs are nearly all of them: excluding the few photo entries reads far less than a code on every text row would.
  if (query.logType === 'text') match = `(${match}) NOT {level} : ${ftsPhrase(PHOTO_CODE)}`;
  return { match, exact: { level: levelExact, logType: true } };
}

/**
 * A search through the index: the server's indexed matches from the FTS table (one rowid range) plus its
 * not-yet-indexed rows scanned (those after the indexer's cursor and the late ones), merged newest first. The page is exact: the
 * newest offset+limit indexed matches by rowid give the oldest createdAt C the page can need, and every
 * row created at C or later has a rowid from rowidFloor(C) on (sqlite-log-search.ts), so the merge reads
 * the indexed matches from there, not all of them. The total counts the FTS range alone when the index
 * answers every filter exactly (the search, the log type, a standard level: no read of the logs table),
 * otherwise through the rows; either way up to the count cap.
 */
export function searchPage(conn: LogConnection, countCap: number, query: LogQuery, expression: IndexExpression, serverKey: number): LogPage {
  const phrase = expression.match;
  const { lo, hi, floor, indexed, ahead, late, indexedFilters } = searchSources(conn, query, expression, serverKey);
  let items: LogRecord[] = [];
  if (query.limit > 0) {
    const want = query.offset + query.limit;
    const first = indexed(floor);
    const newest = conn.prepare(`SELECT l.created_at AS c FROM ${first.sql} ORDER BY logs_fts.rowid DESC LIMIT ?`).all(...first.params, want);
    let lower = floor;
    if (newest.length === want) {
      let oldest = Number.POSITIVE_INFINITY;
      for (const row of newest) oldest = Math.min(oldest, num(row['c']));
      const needed = rowidFloor(serverKey, oldest);
      if (needed > lower) lower = needed;
    }
    const page = indexed(lower);
    const rows = conn
      .prepare(
        `SELECT * FROM (SELECT ${ALIASED_PAGE_COLUMNS} FROM ${page.sql} UNION ALL SELECT ${ALIASED_PAGE_COLUMNS} FROM ${ahead.sql} ` +
          `UNION ALL SELECT ${ALIASED_PAGE_COLUMNS} FROM ${late.sql}) ` +
          `ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      )
      .all(...page.params, ...ahead.params, ...late.params, query.limit, query.offset);
    items = rows.map((row) => toRecord(query.serverId, row));
  }
  const fromRollups = rollupTotal(conn, query, serverKey);
  if (fromRollups !== null) return { items, total: fromRollups, totalCapped: false };
  const limit = countCap + 1;
  const indexedCount =
    indexedFilters.sql === ''
      ? conn.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM logs_fts WHERE logs_fts MATCH ? AND rowid BETWEEN ? AND ? LIMIT ?)').get(phrase, lo, hi, limit)
      : conn.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${indexed(floor).sql} LIMIT ?)`).get(...indexed(floor).params, limit);
  const aheadCount = conn.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${ahead.sql} LIMIT ?)`).get(...ahead.params, limit);
  const lateCount = conn.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${late.sql} LIMIT ?)`).get(...late.params, limit);
  return { items, ...cappedTotal(num(indexedCount?.['n']) + num(aheadCount?.['n']) + num(lateCount?.['n']), countCap) };
}

/**
 * The three sources of an indexed search's matches (searchPage), shared by list pages and histograms:
 * the FTS rowid range from a lower rowid on, the rows ahead of the indexer's cursor and the late ones.
 */
export function searchSources(conn: LogConnection, query: LogQuery, expression: IndexExpression, serverKey: number) {
  // The indexed rows need no check of what the index answered exactly; the scanned ones check everything.
  const indexedFilters = filterTerms(query, expression.exact);
  const filters = filterTerms(query, { level: false, logType: false });
  const { lo, hi } = serverRowidRange(serverKey);
  const fromFloor = query.from === undefined ? lo : rowidFloor(serverKey, query.from);
  const floor = fromFloor > lo ? fromFloor : lo;
  const indexed = (lower: bigint): Source => ({
    sql:
      `logs_fts CROSS JOIN logs l INDEXED BY logs_fts_rowid ON l.fts_rowid = logs_fts.rowid AND l.fts_rowid > 0 ` +
      `WHERE logs_fts MATCH ? AND logs_fts.rowid BETWEEN ? AND ? AND l.server_key = ?${indexedFilters.sql}`,
    params: [expression.match, lower, hi, serverKey, ...indexedFilters.params],
  });
  const search = present(query.search) ? query.search : undefined;
  const pattern = search === undefined ? '' : likePattern(search);
  const searchSql = search === undefined ? '' : ` AND (${SEARCH_COLUMNS.map((c) => `l.${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`;
  const searchParams = search === undefined ? [] : SEARCH_COLUMNS.map(() => pattern);
  const cursor = conn.indexer.cursor(serverKey);
  const ahead: Source =
    cursor === null
      ? { sql: `logs l WHERE l.server_key = ?${filters.sql}${searchSql}`, params: [serverKey, ...filters.params, ...searchParams] }
      : {
          sql: `logs l WHERE l.server_key = ? AND (l.created_at, l.id) > (?, ?)${filters.sql}${searchSql}`,
          params: [serverKey, cursor.createdAt, cursor.id, ...filters.params, ...searchParams],
        };
  const late: Source = {
    sql: `search_late q CROSS JOIN logs l ON l.server_key = q.server_key AND l.created_at = q.created_at AND l.id = q.id WHERE q.server_key = ?${filters.sql}${searchSql}`,
    params: [serverKey, ...filters.params, ...searchParams],
  };
  return { lo, hi, floor, indexed, ahead, late, indexedFilters };
}

/** The query's filters other than the server, the search and those `exact` says the index answered, as terms on alias `l`. */
function filterTerms(query: LogQuery, exact: ExactInIndex): Source {
  let sql = '';
  const params: SQLInputValue[] = [];
  // Literal, validated logType (as in planQuery).
  if (query.logType !== undefined && !exact.logType) sql += ` AND l.log_type = '${query.logType}'`;
  for (const [, name] of DIM_BY_NAME) {
    const value = query[name];
    if (present(value) && !(exact.level && name === 'level')) {
      sql += ` AND l.${name} = ?`;
      params.push(value);
    }
  }
  if (query.from !== undefined) {
    sql += ' AND l.created_at >= ?';
    params.push(query.from);
  }
  if (query.to !== undefined) {
    sql += ' AND l.created_at <= ?';
    params.push(query.to);
  }
  if (present(query.afterId)) {
    sql += ' AND l.id > ?';
    params.push(query.afterId);
  }
  return { sql, params };
}
