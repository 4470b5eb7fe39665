/**
 * The matches of a query in (created_at, id) order, newest or oldest first, across the tail and every block
 * of the server: a lazy merge in which a block is read only once the walk reaches its time range (blocks of
 * different streams, and blocks sealed from late logs, overlap in time). A page of 50 reads the tail and the
 * newest blocks that can hold matches; a block whose part (block-parts.ts) or own dictionary says it holds no
 * match of the search is skipped without reading it: the part is asked first, once per query for all its blocks.
 * A block where the filter's type or resource is rare (4 rows or fewer) is answered from its rare rows
 * (block-rare.ts), not decoded. `count` counts up to a cap from the directory entries and dictionaries where
 * they can tell, else from the rows of the blocks read.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { LogRecord } from '@skald/ports';
import type { BlockConnection } from './block-store-connection.ts';
import type { BlockDirectory, BlockEntry } from './block-directory.ts';
import { blockExcluded, blockRows, newestFirst, textRows, valuesHit } from './block-match.ts';
import type { RowFilter } from './block-match.ts';
import { TailCache, tailRowMatches } from './block-tail-cache.ts';
import type { TailRow } from './block-tail-cache.ts';
import type { PartVerdictMemo } from './block-parts.ts';
import { RARE_ROWS } from './block-rare.ts';
import type { RareRows } from './block-rare.ts';
import { dictionaryVerdict } from './block-token-dictionary.ts';
import type { DictionaryVerdict } from './block-token-dictionary.ts';
import { likePattern, num, str, toRecord } from './sqlite-log-rows.ts';

export type WalkOrder = 'newest' | 'oldest';

export interface Match {
  readonly createdAt: number;
  readonly id: string;
  readonly level: string;
  record(): LogRecord;
}

export const TAIL_COLUMNS = 'id, created_at, level, type, resource, message, metadata, log_type, image_key, thumb_key, expires_at, received_at';

/**
 * The WHERE clause of a filter on the tail, or on the row store's `logs` table while a migration empties it
 * (the row store's SQL: NOCASE equality, LIKE substring; the tail's stream is its lower-cased level).
 */
export function tailWhere(serverKey: number, f: RowFilter, table: 'tail' | 'logs' = 'tail'): { sql: string; params: SQLInputValue[] } {
  let sql = 'server_key = ?';
  const params: SQLInputValue[] = [serverKey];
  const and = (clause: string, ...values: SQLInputValue[]): void => {
    sql += ` AND ${clause}`;
    params.push(...values);
  };
  if (f.level !== undefined) and(table === 'tail' ? 'stream = ?' : 'level = ?', f.level);
  if (f.type !== undefined) and('type = ? COLLATE NOCASE', f.type);
  if (f.resource !== undefined) and('resource = ? COLLATE NOCASE', f.resource);
  if (f.logType !== undefined) and('log_type = ?', f.logType);
  if (f.from !== undefined) and('created_at >= ?', f.from);
  if (f.to !== undefined) and('created_at <= ?', f.to);
  if (f.afterId !== undefined) and('id > ?', f.afterId);
  if (f.bound !== undefined) {
    const op = f.bound.side === 'older' ? '<' : '>';
    and(`(created_at ${op} ? OR (created_at = ? AND id ${op} ?))`, f.bound.createdAt, f.bound.createdAt, f.bound.id);
  }
  if (f.needle !== undefined) {
    const like = likePattern(f.needle);
    and("(message LIKE ? ESCAPE '\\' OR type LIKE ? ESCAPE '\\' OR level LIKE ? ESCAPE '\\' OR resource LIKE ? ESCAPE '\\' OR metadata LIKE ? ESCAPE '\\')", like, like, like, like, like);
  }
  return { sql, params };
}

interface Source {
  /** Positions of the matches, in walk order. */
  readonly at: (k: number) => number;
  readonly id: (k: number) => string;
  readonly level: (k: number) => string;
  readonly record: (k: number) => LogRecord;
  readonly length: number;
  next: number;
}

/** The reads of one query: each block's matching rows computed once, whether for the page or the count. */
export class BlockReads {
  readonly #conn: BlockConnection;
  readonly #directory: BlockDirectory;
  readonly serverId: string;
  readonly serverKey: number;
  readonly #filter: RowFilter;
  readonly #tailCache: TailCache;
  readonly #rows = new Map<number, readonly number[]>();
  readonly #rareMatches = new Map<number, { readonly rare: RareRows; readonly matches: readonly number[] } | null>();
  readonly #partVerdicts: PartVerdictMemo = new Map();
  readonly #valuesHits = new Map<readonly string[], boolean>();
  #tailMatches: readonly TailRow[] | null = null;

  constructor(conn: BlockConnection, directory: BlockDirectory, tailCache: TailCache, serverId: string, serverKey: number, filter: RowFilter) {
    this.#conn = conn;
    this.#directory = directory;
    this.#tailCache = tailCache;
    this.serverId = serverId;
    this.serverKey = serverKey;
    this.#filter = filter;
  }

  /**
   * The dictionaries' verdict on the search for a block whose values the search does not match; null when it
   * has to be read. The block's part first: its "none", its exact count with the rows it lists (a word the block
   * holds once or twice), and for a count (`rowsOnly`) its exact count alone spare reading the block's own
   * dictionary, which lists the rows of the words up to 16 rows hold.
   */
  #verdict(entry: BlockEntry, rowsOnly = false): DictionaryVerdict | null {
    const needle = this.#filter.needle;
    if (needle === undefined || this.#valuesHit(entry)) return null;
    const part = this.#directory.parts.verdict(this.serverKey, entry.blockId, needle, this.#partVerdicts);
    if (part?.kind === 'none') return part;
    if (part?.kind === 'exact' && (rowsOnly || part.rowList !== null)) return part;
    return dictionaryVerdict(this.#directory.dictionary(entry), needle);
  }

  /** Whether the search matches one of the block's values, asked once per set of values (blocks share them). */
  #valuesHit(entry: BlockEntry): boolean {
    let hit = this.#valuesHits.get(entry.values);
    if (hit === undefined) this.#valuesHits.set(entry.values, (hit = valuesHit(entry, this.#filter.needle ?? '')));
    return hit;
  }

  /**
   * The block's matches among its rare rows (k of the rare rows, ascending) when the filter's type or resource
   * is rare in it and its rare rows cover that value; else null (the block is read).
   */
  #rare(entry: BlockEntry): { readonly rare: RareRows; readonly matches: readonly number[] } | null {
    const f = this.#filter;
    if (f.type === undefined && f.resource === undefined) return null;
    let found = this.#rareMatches.get(entry.blockId);
    if (found !== undefined) return found;
    const rareIn = (counts: ReadonlyMap<string, number>, value: string | undefined): boolean => value !== undefined && (counts.get(value) ?? 0) <= RARE_ROWS;
    found = null;
    if (rareIn(entry.types, f.type) || rareIn(entry.resources, f.resource)) {
      const rare = this.#directory.rare(entry);
      if (rare?.covers(f) === true) found = { rare, matches: rare.matches(f) };
    }
    this.#rareMatches.set(entry.blockId, found);
    return found;
  }

  /** The rows whose text holds the search's needle. */
  #textRows(entry: BlockEntry): Set<number> {
    return textRows(this.#directory.text(entry), this.#directory.foldedText(entry), this.#filter.needle ?? '');
  }

  /**
   * The block's matching rows, ascending. Its columns are decoded only when a row's level, type, resource, log
   * type, time or id decides: not when every row passes the filters (from the directory entry) and the search,
   * if any, is decided by the dictionary's row list or the text alone.
   */
  rows(entry: BlockEntry): readonly number[] {
    let rows = this.#rows.get(entry.blockId);
    if (rows !== undefined) return rows;
    rows = this.#computeRows(entry);
    this.#rows.set(entry.blockId, rows);
    return rows;
  }

  #computeRows(entry: BlockEntry): readonly number[] {
    if (blockExcluded(entry, this.#filter)) return [];
    const rare = this.#rare(entry);
    if (rare !== null) return rare.matches.map((k) => rare.rare.positions[k]!);
    const covered = entryCount(entry, this.#filter) === entry.n;
    const verdict = this.#verdict(entry);
    if (verdict?.kind === 'none') return [];
    const known = verdict?.kind === 'exact' && verdict.rowList !== null ? verdict.rowList : undefined;
    if (covered && this.#filter.needle === undefined) return Array.from({ length: entry.n }, (_, i) => i);
    // verdict null with a needle: the search matches the block's values, whose rows only the columns tell.
    if (covered && verdict !== null) return known ?? [...this.#textRows(entry)].sort((a, b) => a - b);
    return blockRows(entry, this.#directory.columns(entry), () => this.#textRows(entry), this.#filter, known);
  }

  /**
   * How many rows match, counted up to `cap` + 1: the tail by SQL; a block by its directory entry when every
   * row or none passes the filters and the dictionary decides the search, else by its rows.
   */
  count(cap: number): number {
    let n = 0;
    for (const table of this.#conn.rowTables) {
      const cached = table === 'tail' ? this.#cachedTail() : null;
      if (cached !== null) {
        n += cached.length;
        continue;
      }
      const { sql, params } = tailWhere(this.serverKey, this.#filter, table);
      n += num(this.#conn.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${sql} LIMIT ?)`).get(...params, cap + 1)?.['n']);
    }
    for (const entry of this.#directory.entries(this.serverKey)) {
      if (n > cap) break;
      if (blockExcluded(entry, this.#filter)) continue;
      const fromEntry = entryCount(entry, this.#filter);
      if (fromEntry !== null && this.#filter.needle === undefined) {
        n += fromEntry;
        continue;
      }
      const rare = this.#rare(entry);
      if (rare !== null) {
        n += rare.matches.length;
        continue;
      }
      const verdict = this.#verdict(entry, fromEntry === entry.n && !this.#rows.has(entry.blockId));
      if (verdict?.kind === 'none') continue;
      if (verdict?.kind === 'exact' && fromEntry === entry.n) n += verdict.rows;
      // Otherwise its rows (kept: a count before the walk, past the first page, spares the walk reading them again).
      else n += this.rows(entry).length;
    }
    return n;
  }

  /** The matches in walk order, at most `limit` of them. */
  *walk(order: WalkOrder, limit: number): Generator<Match> {
    if (limit <= 0) return;
    const sign = order === 'newest' ? 1 : -1;
    // Ids (made on demand for a block's rows) are compared only between rows of one millisecond.
    const ahead = (a: Source, b: Source): boolean => {
      const aAt = a.at(a.next);
      const bAt = b.at(b.next);
      if (aAt !== bAt) return sign * (bAt - aAt) < 0;
      return sign * newestFirst(aAt, a.id(a.next), bAt, b.id(b.next)) < 0;
    };
    const opened: Source[] = this.#conn.rowTables.map((table) => this.#table(table, order, limit));
    const pending = [...this.#directory.entries(this.serverKey)].filter((e) => !blockExcluded(e, this.#filter));
    if (order === 'oldest') pending.sort((a, b) => a.minAt - b.minAt || a.blockId - b.blockId);
    let p = 0;
    let yielded = 0;
    while (yielded < limit) {
      let best: Source | null = null;
      for (const s of opened) {
        if (s.next >= s.length) continue;
        if (best === null || ahead(s, best)) best = s;
      }
      const edge = p < pending.length ? (order === 'newest' ? pending[p]!.maxAt : pending[p]!.minAt) : null;
      // A block whose time range reaches the best match so far may hold one before it: read it first.
      if (edge !== null && (best === null || sign * (edge - best.at(best.next)) >= 0)) {
        const source = this.#block(pending[p++]!, order);
        if (source.length > 0) opened.push(source);
        continue;
      }
      if (best === null) return;
      const source = best;
      const k = source.next++;
      yielded++;
      // The level only when asked (a histogram).
      yield {
        createdAt: source.at(k),
        id: source.id(k),
        get level(): string {
          return source.level(k);
        },
        record: () => source.record(k),
      };
    }
  }

  /** The tail's matches from its in-memory copy (null when the filter needs SQL). */
  #cachedTail(): readonly TailRow[] | null {
    if (!TailCache.usable(this.#filter)) return null;
    this.#tailMatches ??= this.#tailCache.rows(this.serverKey).filter((row) => tailRowMatches(row, this.#filter));
    return this.#tailMatches;
  }

  #table(table: 'tail' | 'logs', order: WalkOrder, limit: number): Source {
    const cached = table === 'tail' ? this.#cachedTail() : null;
    if (cached !== null) {
      const at = order === 'newest' ? (k: number): TailRow => cached[cached.length - 1 - k]! : (k: number): TailRow => cached[k]!;
      const byKey = this.#conn.prepare(`SELECT ${TAIL_COLUMNS} FROM tail WHERE server_key = ? AND created_at = ? AND id = ?`);
      return {
        at: (k) => at(k).createdAt,
        id: (k) => at(k).id,
        level: (k) => at(k).stream,
        record: (k) => toRecord(this.serverId, byKey.get(this.serverKey, at(k).createdAt, at(k).id)!),
        length: Math.min(limit, cached.length),
        next: 0,
      };
    }
    const { sql, params } = tailWhere(this.serverKey, this.#filter, table);
    const dir = order === 'newest' ? 'DESC' : 'ASC';
    const rows = this.#conn.prepare(`SELECT ${TAIL_COLUMNS} FROM ${table} WHERE ${sql} ORDER BY created_at ${dir}, id ${dir} LIMIT ?`).all(...params, limit);
    return {
      at: (k) => num(rows[k]!['created_at']),
      id: (k) => str(rows[k]!['id']),
      level: (k) => str(rows[k]!['level']),
      record: (k) => toRecord(this.serverId, rows[k]!),
      length: rows.length,
      next: 0,
    };
  }

  #block(entry: BlockEntry, order: WalkOrder): Source {
    const rows = this.rows(entry);
    if (rows.length === 0) return { at: () => 0, id: () => '', level: () => '', record: () => ({}) as LogRecord, length: 0, next: 0 };
    const rare = this.#rare(entry);
    if (rare !== null) {
      const matches = rare.matches;
      const k = order === 'newest' ? (j: number): number => matches[matches.length - 1 - j]! : (j: number): number => matches[j]!;
      return {
        at: (j) => rare.rare.createdAt(k(j)),
        id: (j) => rare.rare.idAt(k(j)),
        level: (j) => rare.rare.level(k(j)),
        record: (j) => rare.rare.record(this.serverId, k(j)),
        length: matches.length,
        next: 0,
      };
    }
    const meta = this.#directory.meta(entry);
    const row = order === 'newest' ? (k: number): number => rows[rows.length - 1 - k]! : (k: number): number => rows[k]!;
    return {
      at: (k) => meta.createdAt[row(k)]!,
      id: (k) => meta.idAt(row(k)),
      level: (k) => meta.level(row(k)),
      record: (k) => meta.record(this.serverId, this.#directory.text(entry), row(k)),
      length: rows.length,
      next: 0,
    };
  }
}

/**
 * The block's count of rows passing the filters other than the search, from its directory entry, when that
 * tells (the time range covers the block, at most one of type and resource narrows it, the log type does
 * not); else null.
 */
function entryCount(entry: BlockEntry, f: RowFilter): number | null {
  if (f.afterId !== undefined || f.bound !== undefined) return null;
  if ((f.from !== undefined && entry.minAt < f.from) || (f.to !== undefined && entry.maxAt > f.to)) return null;
  if (f.logType === 'photo' && entry.photos !== entry.n) return null;
  if (f.logType === 'text' && entry.photos !== 0) return null;
  const type = f.type === undefined ? entry.n : (entry.types.get(f.type) ?? 0);
  const resource = f.resource === undefined ? entry.n : (entry.resources.get(f.resource) ?? 0);
  if (type < entry.n && resource < entry.n) return null;
  return Math.min(type, resource);
}
