/**
 * A block ready to insert: every column of its `blocks` row and its rare rows (docs/STORAGE.md, "The layout"),
 * computed from its records alone. Most of a seal's time is here (the frames, their zstd, the token dictionary,
 * the rare rows), so the sealer computes it on a thread of its own (block-seal-thread.ts), and the store's
 * transaction only writes it (BlockDirectory.insert).
 *
 * A seal's input is read here too, by whichever connection computes it: the stream's oldest tail rows and the
 * small blocks the seal takes in (block-writes.ts). It answers the keys of the tail rows it read, which the
 * store's transaction deletes.
 */
import { promisify } from 'node:util';
import type { DatabaseSync, SQLOutputValue } from 'node:sqlite';
import { constants, zstdCompress, zstdCompressSync } from 'node:zlib';
import type { LogRecord } from '@skald/ports';
import { decodeBlock, encodeBlock, encodeBlockAsync } from './block-codec.ts';
import type { EncodedBlock, TextDictionaryOf } from './block-codec.ts';
import type { TextDictionaries } from './block-text-dictionaries.ts';
import type { NewTextDictionary, TextDictionaryChoice } from './block-text-dictionaries.ts';
import { encodeRareRows } from './block-rare.ts';
import { TokenDictionaryBuilder } from './block-token-dictionary.ts';
import { TAIL_COLUMNS } from './block-walk.ts';
import { num, str, toRecord } from './sqlite-log-rows.ts';

export interface SealedBlock {
  readonly n: number;
  readonly minAt: number;
  readonly maxAt: number;
  readonly photos: number;
  readonly minExpires: number;
  readonly maxExpires: number;
  /** Rows per level, type and resource as written (JSON): the directory's `dims`. */
  readonly dims: string;
  /** The token dictionary, zstd. */
  readonly words: Uint8Array;
  readonly meta: Uint8Array;
  readonly text: Uint8Array;
  /** The rare rows' frame (block-rare.ts). */
  readonly rare: Uint8Array;
  /** The stream's text dictionary this seal made (its text uses it), stored with the block; null: none new. */
  readonly dictionary: NewTextDictionary | null;
}

/** What a seal read and made: the block, and the keys of the tail rows in it (in key order). */
export interface SealJob {
  readonly block: SealedBlock;
  readonly tailCreatedAt: readonly number[];
  readonly tailIds: readonly string[];
}

/** A tail row's key: created_at and id. */
export type TailKey = readonly [createdAt: number, id: string];

/**
 * Which rows a seal takes: the stream's oldest `limit` tail rows (after `after`: the rows of seals of the stream
 * still under way), and the blocks it merges in.
 */
export interface SealInput {
  readonly serverKey: number;
  readonly stream: string;
  readonly limit: number;
  readonly absorb: readonly number[];
  readonly after: TailKey | null;
}

function countValues(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function dictionaryRow(r: LogRecord): string[] {
  return [r.message, r.metadata === null ? '' : JSON.stringify(r.metadata)];
}

/** The row's columns around its frames and dictionary, from the records in block order. */
function sealed(encoded: EncodedBlock, words: Uint8Array, level: number, dictionary: NewTextDictionary | null): SealedBlock {
  const rows = encoded.rows;
  let minExpires = Number.POSITIVE_INFINITY;
  let maxExpires = Number.NEGATIVE_INFINITY;
  let photos = 0;
  for (const r of rows) {
    minExpires = Math.min(minExpires, r.expiresAt);
    maxExpires = Math.max(maxExpires, r.expiresAt);
    if (r.logType === 'photo') photos++;
  }
  return {
    n: rows.length,
    minAt: rows[0]!.createdAt,
    maxAt: rows[rows.length - 1]!.createdAt,
    photos,
    minExpires,
    maxExpires,
    dims: JSON.stringify({ level: countValues(rows.map((r) => r.level)), type: countValues(rows.map((r) => r.type)), resource: countValues(rows.map((r) => r.resource)) }),
    words,
    meta: encoded.meta,
    text: encoded.text,
    rare: encodeRareRows(rows, level),
    dictionary,
  };
}

/**
 * The block of the records (one server, one stream), all at once: a thread of its own, or a short block. Its
 * text is in groups when `text` names a dictionary (TextDictionaries.choose), else one frame.
 */
export function sealBlock(records: readonly LogRecord[], level: number, text: TextDictionaryChoice): SealedBlock {
  const encoded = encodeBlock(records, level, text.dictionary);
  const words = new TokenDictionaryBuilder();
  for (const r of encoded.rows) words.addRow(dictionaryRow(r));
  return sealed(encoded, zstdCompressSync(words.encode(), { params: { [constants.ZSTD_c_compressionLevel]: level } }), level, text.made);
}

const zstdCompressAsync = promisify(zstdCompress);

/**
 * The same in steps that keep the store's event loop free (a block of 4,096 FiveM lines took 60-150 ms in one
 * piece): compression on the thread pool, the dictionary a slice of rows per turn.
 */
export async function sealBlockAsync(records: readonly LogRecord[], level: number, text: TextDictionaryChoice): Promise<SealedBlock> {
  const encoded = await encodeBlockAsync(records, level, text.dictionary);
  const words = new TokenDictionaryBuilder();
  for (let start = 0; start < encoded.rows.length; start += 512) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const r of encoded.rows.slice(start, start + 512)) words.addRow(dictionaryRow(r));
  }
  return sealed(encoded, await zstdCompressAsync(words.encode(), { params: { [constants.ZSTD_c_compressionLevel]: level } }), level, text.made);
}

/** A connection's prepared statement, as node:sqlite and the store's statement cache give it. */
type Prepare = (sql: string) => { all(...params: (string | number)[]): Record<string, SQLOutputValue>[]; get(...params: (string | number)[]): Record<string, SQLOutputValue> | undefined };

/** Reads a seal's input; null when the stream has no tail row (a seal takes at least one). */
export function readSealInput(prepare: Prepare, input: SealInput, dictionaries: TextDictionaryOf): { records: LogRecord[]; tailCreatedAt: number[]; tailIds: string[] } | null {
  const rows =
    input.after === null
      ? prepare(`SELECT ${TAIL_COLUMNS} FROM tail WHERE server_key = ? AND stream = ? ORDER BY created_at, id LIMIT ?`).all(input.serverKey, input.stream, input.limit)
      : prepare(`SELECT ${TAIL_COLUMNS} FROM tail WHERE server_key = ? AND (created_at, id) > (?, ?) AND stream = ? ORDER BY created_at, id LIMIT ?`).all(
          input.serverKey,
          input.after[0],
          input.after[1],
          input.stream,
          input.limit,
        );
  if (rows.length === 0) return null;
  const records: LogRecord[] = [];
  for (const blockId of input.absorb) {
    const row = prepare('SELECT meta, text FROM blocks WHERE block_id = ?').get(blockId);
    const meta = row?.['meta'];
    const text = row?.['text'];
    if (!(meta instanceof Uint8Array) || !(text instanceof Uint8Array)) throw new Error(`block log store: block ${blockId} to merge is gone`);
    // The records' server id is not stored in a block: any placeholder serves the encoding.
    records.push(...decodeBlock('', meta, text, dictionaries));
  }
  for (const row of rows) records.push(toRecord('', row));
  return { records, tailCreatedAt: rows.map((row) => num(row['created_at'])), tailIds: rows.map((row) => str(row['id'])) };
}

/** The key of the last tail row read, if any. */
export function lastKey(read: { tailCreatedAt: readonly number[]; tailIds: readonly string[] } | null): TailKey | null {
  const n = read?.tailIds.length ?? 0;
  return read === null || n === 0 ? null : [read.tailCreatedAt[n - 1]!, read.tailIds[n - 1]!];
}

/**
 * A seal computed on a connection of its own, at once (the seal thread's); `onRead` told once its rows are read.
 * `dictionaries` reads the text dictionaries on that connection.
 */
export function sealOn(db: DatabaseSync, input: SealInput, level: number, onRead: (rows: number, last: TailKey | null) => void, dictionaries: TextDictionaries): SealJob | null {
  const read = readSealInput((sql) => db.prepare(sql), input, dictionaries.raw);
  onRead(read?.tailIds.length ?? 0, lastKey(read));
  if (read === null) return null;
  const text = dictionaries.choose(input.serverKey, input.stream, read.records, level);
  return { block: sealBlock(read.records, level, text), tailCreatedAt: read.tailCreatedAt, tailIds: read.tailIds };
}
