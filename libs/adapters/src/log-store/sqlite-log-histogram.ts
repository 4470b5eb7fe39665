/**
 * LogStore.histogram for the embedded store: counts per time bucket and level, computed by
 * SQLite (GROUP BY), never by shipping rows to JS.
 *
 * The matches are read through the very access paths a list page of the same query uses, handed in by
 * SqliteLogStore as "parts": the filter plan (clustered key, level index or photo index), or, for an indexed
 * search, the FTS5 rowid range plus the rows the indexer has not reached yet (ahead of its cursor and late).
 * Work is capped like the list's total: each part first reads at most cap+1 of its newest matches (span);
 * a part past the cap gives a cutoff instant from which every one of its matches was among those read, and
 * only matches from the latest cutoff on are counted. So a histogram reads at most 2 x (cap + 1) rows per
 * part, whatever the server holds (docs/DECISIONS.md).
 */
import type { SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import type { LogHistogram, LogMatchSpan } from '@skald/ports';
import { EMPTY_HISTOGRAM, HistogramCounts, combineSpans, validateHistogramEdges } from './log-histogram-shared.ts';
import type { PartSpan } from './log-histogram-shared.ts';
import { rowidFloor } from './sqlite-log-search.ts';

/**
 * One access path to matches: `FROM <sql>` (ends in a WHERE clause) with its parameters; `col` is the
 * prefix of the logs table's columns in it ('' or 'l.'). 'time' parts are walked newest first by
 * (created_at, id); 'rowid' parts are the FTS table, walked by descending rowid.
 */
export interface HistogramPart {
  readonly sql: string;
  readonly params: readonly SQLInputValue[];
  readonly col: '' | 'l.';
  readonly order: 'time' | 'rowid';
}

/**
 * A query of only a log type, a level and a time range: counted per bar and level through the level index
 * (server_key, level, created_at), which covers the count, so no table row is read and no GROUP BY sorts:
 * one count(*) per (level, bar) over an index range. Text logs are all logs minus the (few, tier-capped)
 * photo logs, counted through the partial photo index. Measured: about a tenth of the GROUP BY's time
 * (docs/DECISIONS.md).
 */
export interface LevelIndexCounts {
  readonly serverKey: number;
  /** The levels to count: the filter's, or every level the server's rollups know. */
  readonly levels: readonly string[];
  readonly logType: 'text' | 'photo' | undefined;
  /** The query's own inclusive bounds. */
  readonly from: number | undefined;
  readonly to: number | undefined;
}

export interface HistogramReader {
  readonly prepare: (sql: string) => StatementSync;
  readonly cap: number;
  /** Set when the query qualifies for counting through the level index. */
  readonly levelIndex: LevelIndexCounts | null;
  /** The parts of the query restricted to [from, to] (undefined: the query's own bounds). */
  readonly parts: (range?: { readonly from: number; readonly to: number }) => readonly HistogramPart[];
  /** For a 'rowid' part: the earliest instant whose rows all have an FTS rowid above `rowid`. */
  readonly instantAfterRowid: (rowid: bigint) => number;
}

function num(value: SQLOutputValue | undefined): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

function partSpan(reader: HistogramReader, part: HistogramPart): PartSpan {
  const c = `${part.col}created_at`;
  if (part.order === 'time') {
    const row = reader
      .prepare(`SELECT count(*) AS n, min(c) AS lo, max(c) AS hi FROM (SELECT ${c} AS c FROM ${part.sql} ORDER BY ${c} DESC, ${part.col}id DESC LIMIT ?)`)
      .get(...part.params, reader.cap + 1);
    const lo = num(row?.['lo']);
    // Every match later than the oldest one read is among those read (they were read newest first).
    return { n: num(row?.['n']), oldest: lo, newest: num(row?.['hi']), cutoff: lo + 1 };
  }
  const stmt = reader.prepare(
    `SELECT count(*) AS n, min(c) AS lo, max(c) AS hi, min(r) AS r FROM (SELECT ${c} AS c, logs_fts.rowid AS r FROM ${part.sql} ORDER BY logs_fts.rowid DESC LIMIT ?)`,
  );
  stmt.setReadBigInts(true);
  try {
    const row = stmt.get(...part.params, reader.cap + 1);
    const lowest = row?.['r'];
    const n = num(row?.['n']);
    return {
      n,
      oldest: num(row?.['lo']),
      newest: num(row?.['hi']),
      cutoff: typeof lowest === 'bigint' && n > reader.cap ? reader.instantAfterRowid(lowest) : 0,
    };
  } finally {
    stmt.setReadBigInts(false);
  }
}

/**
 * The bucket index of `column` as a balanced CASE over the inner edges (a binary search: about log2(buckets)
 * comparisons per row). Parameters in textual order; the SQL depends only on the bucket count, so the
 * statement is prepared once per count.
 */
function bucketCase(column: string, edges: readonly number[], lo: number, hi: number, params: number[]): string {
  if (hi - lo === 1) return String(lo);
  const mid = (lo + hi) >> 1;
  params.push(edges[mid]!);
  const left = bucketCase(column, edges, lo, mid, params);
  const right = bucketCase(column, edges, mid, hi, params);
  return `CASE WHEN ${column} < ? THEN ${left} ELSE ${right} END`;
}

export function sqliteHistogram(reader: HistogramReader, bucketEdges: (span: LogMatchSpan) => readonly number[]): LogHistogram {
  const span = combineSpans(reader.parts().map((part) => partSpan(reader, part)), reader.cap);
  if (span === null) return EMPTY_HISTOGRAM;
  const edges = bucketEdges(span);
  validateHistogramEdges(edges);
  const buckets = edges.length - 1;
  const counts = new HistogramCounts(buckets);
  const from = Math.max(edges[0]!, span.first);
  const to = edges[buckets]! - 1;
  if (from <= to && reader.levelIndex !== null && reader.levelIndex.logType !== 'photo') {
    countThroughLevelIndex(reader, reader.levelIndex, edges, from, to, counts);
  } else if (from <= to) {
    for (const part of reader.parts({ from, to })) {
      const caseParams: number[] = [];
      const bucket = bucketCase(`${part.col}created_at`, edges, 0, buckets, caseParams);
      const rows = reader
        .prepare(`SELECT ${bucket} AS b, lower(${part.col}level) AS lv, count(*) AS n FROM ${part.sql} GROUP BY b, lv`)
        .all(...caseParams, ...part.params);
      for (const row of rows) counts.add(num(row['b']), String(row['lv'] ?? ''), num(row['n']));
    }
  }
  return counts.build(edges, span);
}

function countThroughLevelIndex(reader: HistogramReader, index: LevelIndexCounts, edges: readonly number[], countFrom: number, countTo: number, counts: HistogramCounts): void {
  const from = Math.max(countFrom, index.from ?? countFrom);
  const to = Math.min(countTo, index.to ?? countTo);
  if (from > to) return;
  const all = reader.prepare('SELECT count(*) AS n FROM logs INDEXED BY logs_server_level WHERE server_key = ? AND level = ? AND created_at >= ? AND created_at < ?');
  for (const level of index.levels) {
    for (let b = 0; b < edges.length - 1; b++) {
      const lo = Math.max(edges[b]!, from);
      const hi = Math.min(edges[b + 1]!, to + 1);
      if (lo >= hi) continue;
      counts.add(b, level, num(all.get(index.serverKey, level, lo, hi)?.['n']));
    }
  }
  if (index.logType !== 'text') return;
  // Take the photo logs back out: few, so one GROUP BY over the photo index is cheap.
  const caseParams: number[] = [];
  const bucket = bucketCase('created_at', edges, 0, edges.length - 1, caseParams);
  const levelSql = index.levels.length === 1 ? ' AND level = ?' : '';
  const rows = reader
    .prepare(`SELECT ${bucket} AS b, lower(level) AS lv, count(*) AS n FROM logs INDEXED BY logs_server_photo WHERE server_key = ? AND log_type = 'photo'${levelSql} AND created_at >= ? AND created_at <= ? GROUP BY b, lv`)
    .all(...caseParams, index.serverKey, ...(levelSql === '' ? [] : [index.levels[0]!]), from, to);
  for (const row of rows) counts.add(num(row['b']), String(row['lv'] ?? ''), -num(row['n']));
}

/** Latest instant a rowid search considers (2^52 ms: far past any slot the rowid layout can hold). */
const LATEST_INSTANT = 2 ** 52;

/**
 * The earliest instant t with rowidFloor(serverKey, t) > rowid: every row created at t or later has an FTS
 * rowid above `rowid` (sqlite-log-search.ts), found by bisection over the layout's own function.
 */
export function instantAfterRowid(serverKey: number, rowid: bigint): number {
  let lo = 0;
  let hi = LATEST_INSTANT;
  if (rowidFloor(serverKey, hi) <= rowid) return hi;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (rowidFloor(serverKey, mid) > rowid) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
