/**
 * What a query matches in the block log store, by the row store's rules (docs/STORAGE.md, "What a search
 * matches today"): level, type and resource equal with ASCII case folded (COLLATE NOCASE); the search a
 * substring of the message, metadata JSON, type, level or resource with ASCII case folded (LIKE); the time
 * bounds inclusive on createdAt; afterId a plain string order on the id. Here: the query as a filter, what a
 * block's directory entry tells of it without reading the block, and the rows of a read block that match.
 */
import type { LogScanQuery, LogType } from '@skald/ports';
import type { BlockColumns, BlockText } from './block-codec.ts';
import type { BlockEntry } from './block-directory.ts';
import { foldAscii } from './block-token-dictionary.ts';
import { present } from './log-store-shared.ts';

export interface RowFilter {
  readonly logType?: LogType;
  /** ASCII-lower-cased. */
  readonly level?: string;
  readonly type?: string;
  readonly resource?: string;
  readonly from?: number;
  readonly to?: number;
  readonly afterId?: string;
  /** The search, ASCII-lower-cased. */
  readonly needle?: string;
  /** Only rows before (older) or after (newer) this key, exclusive: a keyset walk's bound. */
  readonly bound?: { readonly createdAt: number; readonly id: string; readonly side: 'older' | 'newer' };
}

export function rowFilter(query: LogScanQuery): RowFilter {
  return {
    ...(query.logType === undefined ? {} : { logType: query.logType }),
    ...(present(query.level) ? { level: foldAscii(query.level) } : {}),
    ...(present(query.type) ? { type: foldAscii(query.type) } : {}),
    ...(present(query.resource) ? { resource: foldAscii(query.resource) } : {}),
    ...(query.from === undefined ? {} : { from: query.from }),
    ...(query.to === undefined ? {} : { to: query.to }),
    ...(present(query.afterId) ? { afterId: query.afterId } : {}),
    ...(present(query.search) ? { needle: foldAscii(query.search) } : {}),
  };
}

/** Newest first: created_at descending, then id descending (negative: a sorts before b). */
export function newestFirst(aAt: number, aId: string, bAt: number, bId: string): number {
  return bAt - aAt || (aId < bId ? 1 : aId > bId ? -1 : 0);
}

function beyondBound(f: RowFilter, createdAt: number, id: string): boolean {
  const b = f.bound;
  if (b === undefined) return false;
  const order = newestFirst(createdAt, id, b.createdAt, b.id);
  // 'older' keeps rows after the bound in newest-first order; 'newer' those before it.
  return b.side === 'older' ? order <= 0 : order >= 0;
}

/** Whether a search matches the block's level, type or resource values (then its rows' columns are read, not only its text). */
export function valuesHit(entry: BlockEntry, needle: string): boolean {
  return entry.values.some((v) => v.includes(needle));
}

/** No row of the block can pass the filters other than the search (from its directory entry alone). */
export function blockExcluded(entry: BlockEntry, f: RowFilter): boolean {
  if (f.level !== undefined && entry.stream !== f.level) return true;
  if (f.from !== undefined && entry.maxAt < f.from) return true;
  if (f.to !== undefined && entry.minAt > f.to) return true;
  if (f.type !== undefined && !entry.types.has(f.type)) return true;
  if (f.resource !== undefined && !entry.resources.has(f.resource)) return true;
  if (f.logType === 'photo' && entry.photos === 0) return true;
  if (f.logType === 'text' && entry.photos === entry.n) return true;
  const b = f.bound;
  if (b !== undefined && (b.side === 'older' ? entry.minAt > b.createdAt : entry.maxAt < b.createdAt)) return true;
  return false;
}

/** Every row of the block passes the filters other than the search (from its directory entry alone). */
export function blockCovered(entry: BlockEntry, f: RowFilter): boolean {
  if (f.afterId !== undefined || f.bound !== undefined) return false;
  if (f.from !== undefined && entry.minAt < f.from) return false;
  if (f.to !== undefined && entry.maxAt > f.to) return false;
  if (f.type !== undefined && entry.types.get(f.type) !== entry.n) return false;
  if (f.resource !== undefined && entry.resources.get(f.resource) !== entry.n) return false;
  if (f.logType === 'photo' && entry.photos !== entry.n) return false;
  if (f.logType === 'text' && entry.photos !== 0) return false;
  return f.level === undefined || entry.stream === f.level;
}

/** Whether row i passes the filters other than the search. */
function rowPasses(c: BlockColumns, i: number, f: RowFilter): boolean {
  const at = c.createdAt[i]!;
  if (f.from !== undefined && at < f.from) return false;
  if (f.to !== undefined && at > f.to) return false;
  if (f.logType !== undefined && c.logType[i] !== f.logType) return false;
  if (f.level !== undefined && foldAscii(c.level[i]!) !== f.level) return false;
  if (f.type !== undefined && foldAscii(c.type[i]!) !== f.type) return false;
  if (f.resource !== undefined && foldAscii(c.resource[i]!) !== f.resource) return false;
  if (f.afterId !== undefined && !(c.idAt(i) > f.afterId)) return false;
  return f.bound === undefined || !beyondBound(f, at, c.idAt(i));
}

/**
 * The rows whose message or metadata JSON holds the (folded) needle: `hay` is the text's bytes ASCII-folded
 * (UTF-8 keeps every byte of other characters above 0x7f, so folding bytes folds exactly the ASCII letters).
 */
export function textRows(text: BlockText, hay: Buffer, needle: string): Set<number> {
  const pattern = Buffer.from(needle, 'utf8');
  const rows = new Set<number>();
  let at = hay.indexOf(pattern);
  while (at >= 0) {
    const end = text.segmentEnd(at);
    if (at + pattern.length <= end) {
      rows.add(text.rowAt(at).row);
      at = hay.indexOf(pattern, end);
    } else at = hay.indexOf(pattern, at + 1);
  }
  return rows;
}

/**
 * The rows of a read block that match, ascending. `text` is read only for a search; `known` gives the rows
 * holding the needle in their text when the block's dictionary listed them.
 */
export function blockRows(entry: BlockEntry, c: BlockColumns, text: () => Set<number>, f: RowFilter, known?: readonly number[]): number[] {
  const out: number[] = [];
  if (f.needle === undefined) {
    for (let i = 0; i < c.n; i++) if (rowPasses(c, i, f)) out.push(i);
    return out;
  }
  const needle = f.needle;
  const inText = known === undefined ? text() : new Set(known);
  const inValues = valuesHit(entry, needle);
  for (let i = 0; i < c.n; i++) {
    const hit = inText.has(i) || (inValues && (foldAscii(c.level[i]!).includes(needle) || foldAscii(c.type[i]!).includes(needle) || foldAscii(c.resource[i]!).includes(needle)));
    if (hit && rowPasses(c, i, f)) out.push(i);
  }
  return out;
}
