/**
 * The read paths of the block log store: query (a page and its total), scan (keyset pages), histogram, and the
 * reads by key (getByKeys, getById, neighbours). The matches come from block-walk.ts; totals the rollups record
 * come from them, as in the row store (sqlite-log-rollup-reads.ts).
 */
import type { LogHistogram, LogKey, LogMatchSpan, LogPage, LogQuery, LogRecord, LogScanQuery, NeighbourDirection } from '@skald/ports';
import type { BlockConnection } from './block-store-connection.ts';
import type { BlockDirectory, BlockEntry } from './block-directory.ts';
import { rowFilter } from './block-match.ts';
import type { RowFilter } from './block-match.ts';
import { BlockReads, TAIL_COLUMNS } from './block-walk.ts';
import type { TailCache } from './block-tail-cache.ts';
import type { Match } from './block-walk.ts';
import { EMPTY_HISTOGRAM, HistogramCounts, combineSpans, countedRange, validateHistogramEdges } from './log-histogram-shared.ts';
import { cappedTotal, idTimeRanges, validateLogQuery, validateNeighbours, validateScanPageSize } from './log-store-shared.ts';
import { rollupTotal } from './sqlite-log-rollup-reads.ts';
import { toRecord } from './sqlite-log-rows.ts';

function take(matches: Iterable<Match>): Match[] {
  return [...matches];
}

export class BlockReadPaths {
  readonly #conn: BlockConnection;
  readonly #directory: BlockDirectory;
  readonly #cap: number;
  readonly #tailCache: TailCache;

  constructor(conn: BlockConnection, directory: BlockDirectory, tailCache: TailCache, countCap: number) {
    this.#conn = conn;
    this.#directory = directory;
    this.#tailCache = tailCache;
    this.#cap = countCap;
  }

  #reads(serverId: string, filter: RowFilter): BlockReads | null {
    const serverKey = this.#conn.serverKey(serverId, false);
    return serverKey === undefined ? null : new BlockReads(this.#conn, this.#directory, this.#tailCache, serverId, serverKey, filter);
  }

  query(query: LogQuery): LogPage {
    validateLogQuery(query);
    const reads = this.#reads(query.serverId, rowFilter(query));
    if (reads === null) return { items: [], total: 0, totalCapped: false };
    const fromRollups = rollupTotal(this.#conn, query, reads.serverKey);
    // Past the first page the count goes first (the rollups aside): an exact total at or below the offset
    // means an empty page, which the walk would learn only by reading every block holding a match; below the
    // offset + limit, the walk stops at the last match instead of asking every older block.
    const counted = fromRollups === null && query.offset > 0 ? reads.count(this.#cap) : null;
    const end = counted !== null && counted <= this.#cap ? Math.min(counted, query.offset + query.limit) : query.offset + query.limit;
    const items = end <= query.offset ? [] : take(reads.walk('newest', end)).slice(query.offset).map((m) => m.record());
    if (fromRollups !== null) return { items, total: fromRollups, totalCapped: false };
    return { items, ...cappedTotal(counted ?? reads.count(this.#cap), this.#cap) };
  }

  async *scan(query: LogScanQuery, pageSize: number): AsyncIterable<LogRecord[]> {
    validateLogQuery({ ...query, offset: 0, limit: pageSize });
    validateScanPageSize(pageSize);
    const filter = rowFilter(query);
    let bound: RowFilter['bound'];
    for (;;) {
      // Each page is a walk of its own from the last row handed out: rows sealed or deleted in between move nothing twice.
      const reads = this.#reads(query.serverId, bound === undefined ? filter : { ...filter, bound });
      if (reads === null) return;
      const page = take(reads.walk('newest', pageSize)).map((m) => m.record());
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      const last = page[page.length - 1]!;
      bound = { createdAt: last.createdAt, id: last.id, side: 'older' };
    }
  }

  histogram(query: LogScanQuery, bucketEdges: (span: LogMatchSpan) => readonly number[]): LogHistogram {
    validateLogQuery({ ...query, offset: 0, limit: 0 });
    const reads = this.#reads(query.serverId, rowFilter(query));
    if (reads === null) return EMPTY_HISTOGRAM;
    // The newest cap + 1 matches: every match from the instant after the oldest of them on is among them.
    const matches = take(reads.walk('newest', this.#cap + 1));
    if (matches.length === 0) return EMPTY_HISTOGRAM;
    const oldest = matches[matches.length - 1]!.createdAt;
    const span = combineSpans([{ n: matches.length, oldest, newest: matches[0]!.createdAt, cutoff: oldest + 1 }], this.#cap);
    if (span === null) return EMPTY_HISTOGRAM;
    const edges = bucketEdges(span);
    validateHistogramEdges(edges);
    const counts = new HistogramCounts(edges.length - 1);
    const { from, to } = countedRange(query, edges, span);
    for (const m of matches) {
      if (m.createdAt < from || m.createdAt > to) continue;
      let lo = 0;
      let hi = edges.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (edges[mid]! <= m.createdAt) lo = mid;
        else hi = mid - 1;
      }
      counts.add(lo, m.level, 1);
    }
    return counts.build(edges, span);
  }

  getByKeys(serverId: string, keys: readonly LogKey[]): LogRecord[] {
    const serverKey = this.#conn.serverKey(serverId, false);
    if (serverKey === undefined || keys.length === 0) return [];
    const out: LogRecord[] = [];
    const wanted = new Set(keys.map((k) => `${k.createdAt}\u0000${k.id}`));
    for (const table of this.#conn.rowTables) {
      const byKey = this.#conn.prepare(`SELECT ${TAIL_COLUMNS} FROM ${table} WHERE server_key = ? AND created_at = ? AND id = ?`);
      for (const key of wanted) {
        const [at, id] = key.split('\u0000') as [string, string];
        const row = byKey.get(serverKey, Number(at), id);
        if (row !== undefined) {
          out.push(toRecord(serverId, row));
          wanted.delete(key);
        }
      }
    }
    // The keys left, each looked up by binary search in the blocks whose time range holds it (a block's
    // meta frame only, then its text for the rows found): no block's keys made whole.
    const left = [...wanted].map((key) => {
      const [at, id] = key.split('\u0000') as [string, string];
      return { at: Number(at), id, found: false };
    });
    for (const entry of this.#directory.entries(serverKey)) {
      if (left.every((k) => k.found)) break;
      const rows: number[] = [];
      for (const k of left) {
        if (k.found || k.at < entry.minAt || k.at > entry.maxAt) continue;
        const row = this.#directory.rowOf(entry, k.at, k.id);
        if (row < 0) continue;
        k.found = true;
        rows.push(row);
      }
      if (rows.length === 0) continue;
      const meta = this.#directory.meta(entry);
      const text = this.#directory.text(entry);
      // The groups of the block's rows in one call (a page's rows of a block fall in two or three of them).
      text.readRows(rows);
      for (const row of rows.sort((a, b) => a - b)) out.push(meta.record(serverId, text, row));
    }
    return out;
  }

  getById(serverId: string, id: string): LogRecord | null {
    const serverKey = this.#conn.serverKey(serverId, false);
    if (serverKey === undefined) return null;
    const row = this.#conn.prepare(`SELECT ${TAIL_COLUMNS} FROM tail WHERE server_key = ? AND id = ?`).get(serverKey, id);
    if (row !== undefined) return toRecord(serverId, row);
    const ranges = idTimeRanges(id)?.ranges ?? [{ from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY }];
    if (this.#conn.migrating) {
      // The row store's table has no id index: its key narrowed by the time the id carries, as the row store does.
      const byId = this.#conn.prepare(`SELECT ${TAIL_COLUMNS} FROM logs WHERE server_key = ? AND created_at >= ? AND created_at <= ? AND id = ?`);
      for (const range of ranges) {
        const found = byId.get(serverKey, Math.max(range.from, -Number.MAX_SAFE_INTEGER), Math.min(range.to, Number.MAX_SAFE_INTEGER), id);
        if (found !== undefined) return toRecord(serverId, found);
      }
    }
    const entries = this.#directory.entries(serverKey);
    const found = (entry: BlockEntry): LogRecord | null => {
      const meta = this.#directory.meta(entry);
      const i = meta.indexOfId(id);
      return i < 0 ? null : meta.record(serverId, this.#directory.text(entry), i);
    };
    const read = new Set<number>();
    // Narrow ranges first: a log's own time is nearly always its arrival, which the id carries.
    for (const range of ranges) {
      for (const entry of entries) {
        if (read.has(entry.blockId) || entry.maxAt < range.from || entry.minAt > range.to) continue;
        read.add(entry.blockId);
        const record = found(entry);
        if (record !== null) return record;
      }
    }
    return null;
  }

  neighbours(serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): LogRecord[] {
    validateNeighbours(serverId, key, direction, limit);
    const reads = this.#reads(serverId, { bound: { createdAt: key.createdAt, id: key.id, side: direction } });
    if (reads === null) return [];
    return take(reads.walk(direction === 'older' ? 'newest' : 'oldest', limit)).map((m) => m.record());
  }
}
