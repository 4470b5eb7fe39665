/**
 * A block's rare rows (docs/STORAGE.md, "The layout"): the whole rows of the type and resource values that
 * RARE_ROWS rows or fewer of the block hold, in a small frame of their own beside the block (the `rare_rows`
 * table). A page filtered by such a value reads these few rows instead of decompressing the block: a type in
 * 1 of 20,000 logs is one row in each of hundreds of blocks, and each of those cost a decode of 4,096 rows.
 *
 * The frame: the values it covers (ASCII-lower-cased, as the directory counts them), the rows' positions in
 * the block, then the block codec's frames over those rows alone (the same round trip of every field), in one
 * zstd frame; empty when the block has no rare value. A block of many rare values keeps at most an eighth of
 * its rows again, or 32 of a small block (the values with the fewest rows first): a filter on a value the
 * frame does not cover reads the block, as it does for a block stored before rare rows existed.
 */
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { LogRecord } from '@skald/ports';
import { ByteReader, ByteWriter } from './block-bytes.ts';
import { BlockText, blockFrames, blockRecord, decodeMetaFrame } from './block-codec.ts';
import type { BlockColumns } from './block-codec.ts';
import type { RowFilter } from './block-match.ts';
import { foldAscii } from './block-token-dictionary.ts';
import { searchText, tailRowMatches } from './block-tail-cache.ts';
import type { TailRow } from './block-tail-cache.ts';

/** A type or resource value this many rows of a block or fewer hold is rare in it. */
export const RARE_ROWS = 4;
/** Rare rows kept per block: at most its rows divided by this, or RARE_FLOOR in a small block. */
const RARE_SHARE = 8;
/** A small block (a quiet server's, sealed by age) may keep this many rows again: a few KB at most. */
const RARE_FLOOR = 32;

/** Each rare value of one column (ASCII-lower-cased) with the positions of the rows holding it. */
function rareValues(values: readonly string[]): Map<string, number[]> {
  // Counted by the values as written, folded once each: a block has a few distinct values in 4,096 rows.
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const folded = new Map<string, number>();
  for (const [v, n] of counts) {
    const key = foldAscii(v);
    folded.set(key, (folded.get(key) ?? 0) + n);
  }
  const rare = new Map<string, number[]>();
  for (const [key, n] of folded) if (n <= RARE_ROWS) rare.set(key, []);
  if (rare.size === 0) return rare;
  const listOf = new Map<string, number[]>();
  for (const v of counts.keys()) {
    const list = rare.get(foldAscii(v));
    if (list !== undefined) listOf.set(v, list);
  }
  values.forEach((v, i) => listOf.get(v)?.push(i));
  return rare;
}

/** The rare rows of a block's rows (in block order) as a frame; empty when none is rare. */
export function encodeRareRows(rows: readonly LogRecord[], level: number): Buffer {
  const candidates = [
    ...[...rareValues(rows.map((r) => r.type))].map(([value, at]) => ({ column: 'type' as const, value, at })),
    ...[...rareValues(rows.map((r) => r.resource))].map(([value, at]) => ({ column: 'resource' as const, value, at })),
  ].sort((a, b) => a.at.length - b.at.length || (a.column < b.column ? -1 : a.column > b.column ? 1 : 0) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  const budget = Math.max(RARE_FLOOR, Math.floor(rows.length / RARE_SHARE));
  const kept = new Set<number>();
  const covered = { type: [] as string[], resource: [] as string[] };
  for (const c of candidates) {
    const added = c.at.filter((i) => !kept.has(i));
    if (kept.size + added.length > budget) continue;
    for (const i of added) kept.add(i);
    covered[c.column].push(c.value);
  }
  if (kept.size === 0) return Buffer.alloc(0);
  const positions = [...kept].sort((a, b) => a - b);
  const { meta, text } = blockFrames(positions.map((i) => rows[i]!));
  const w = new ByteWriter();
  for (const values of [covered.type, covered.resource]) {
    w.varint(values.length);
    for (const v of values) w.string(v);
  }
  w.varint(positions.length);
  positions.forEach((p, k) => w.varint(k === 0 ? p : p - positions[k - 1]!));
  w.varint(meta.length);
  w.bytes(meta);
  w.bytes(text);
  return zstdCompressSync(w.done(), { params: { [constants.ZSTD_c_compressionLevel]: level } });
}

/** The rare rows of every row of a decoded block (a block stored before rare rows existed). */
export function rareRowsOfBlock(columns: BlockColumns, text: BlockText, level: number): Buffer {
  return encodeRareRows(
    Array.from({ length: columns.n }, (_, i) => blockRecord('', columns, text, i)),
    level,
  );
}

/** A block's rare rows, decoded. Row k of it is row positions[k] of the block. */
export class RareRows {
  readonly #types: ReadonlySet<string>;
  readonly #resources: ReadonlySet<string>;
  readonly positions: readonly number[];
  readonly #columns: BlockColumns;
  readonly #text: BlockText;
  #searched: TailRow[] | null = null;

  private constructor(types: ReadonlySet<string>, resources: ReadonlySet<string>, positions: readonly number[], columns: BlockColumns, text: BlockText) {
    this.#types = types;
    this.#resources = resources;
    this.positions = positions;
    this.#columns = columns;
    this.#text = text;
  }

  static decode(frame: Uint8Array): RareRows {
    if (frame.length === 0) {
      const { meta, text } = blockFrames([]);
      return new RareRows(new Set(), new Set(), [], decodeMetaFrame(meta), new BlockText(text, 0, false));
    }
    const r = new ByteReader(zstdDecompressSync(frame));
    const [types, resources] = [0, 1].map(() => new Set(Array.from({ length: r.varint() }, () => r.string()))) as [Set<string>, Set<string>];
    const positions: number[] = [];
    for (let k = 0, n = r.varint(), at = 0; k < n; k++) positions.push((at = k === 0 ? r.varint() : at + r.varint()));
    const columns = decodeMetaFrame(r.bytes(r.varint()));
    return new RareRows(types, resources, positions, columns, new BlockText(r.rest(), columns.n, false));
  }

  /**
   * Whether every row of the block passing the filter is among these (its type or resource is one they cover)
   * and `matches` can tell which (a needle holding a NUL could match across two columns there, as in the tail).
   */
  covers(f: RowFilter): boolean {
    if (f.needle?.includes('\0') === true) return false;
    return (f.type !== undefined && this.#types.has(f.type)) || (f.resource !== undefined && this.#resources.has(f.resource));
  }

  /** The rare rows (k, ascending) passing the filter, its search included, by the tail's rules (block-tail-cache.ts). */
  matches(f: RowFilter): number[] {
    const columns = this.#columns;
    const text = this.#text;
    this.#searched ??= this.positions.map((_, k) => {
      const metadata = text.metadataJson(k);
      return {
        createdAt: columns.createdAt[k]!,
        id: columns.idAt(k),
        stream: foldAscii(columns.level[k]!),
        type: foldAscii(columns.type[k]!),
        resource: foldAscii(columns.resource[k]!),
        logType: columns.logType[k]!,
        text: searchText(text.message(k), metadata === '' ? null : metadata, columns.type[k]!, columns.level[k]!, columns.resource[k]!),
      };
    });
    const out: number[] = [];
    this.#searched.forEach((row, k) => {
      if (tailRowMatches(row, f)) out.push(k);
    });
    return out;
  }

  createdAt(k: number): number {
    return this.#columns.createdAt[k]!;
  }

  idAt(k: number): string {
    return this.#columns.idAt(k);
  }

  level(k: number): string {
    return this.#columns.level[k]!;
  }

  record(serverId: string, k: number): LogRecord {
    return blockRecord(serverId, this.#columns, this.#text, k);
  }
}
