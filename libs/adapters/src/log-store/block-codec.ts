/**
 * The columns of one block of logs (docs/STORAGE.md, "The layout"): a server's logs of one stream, in
 * (createdAt, id) order, as two zstd frames.
 * - `meta`: created_at as deltas, the ids (a UUID whose timestamp is created_at, as ingestion mints them,
 *   costs its 10 other bytes; any other id is kept as text), level, type, resource and log type as codes
 *   into the block's own value lists, expires_at and received_at as differences from created_at, the photo
 *   keys. A page decodes it for the rows it shows.
 * - `text`: the byte length of every message and metadata JSON, then their bytes. A search decompresses only
 *   this frame; a row's message or metadata is sliced out of it without decoding the others. Two layouts:
 *   one zstd frame of the whole (blocks sealed before there was a dictionary), or groups of TEXT_GROUP_ROWS
 *   rows, each laid out the same way in a zstd frame of its own compressed with the stream's text dictionary
 *   (block-text-dictionaries.ts): a read by key decodes the group of its row, not the block's whole text.
 * The server is the block's, not a column. Decoding gives back the records as stored (receivedAt only when it
 * differs from createdAt, as the LogStore contract answers it).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, zstdCompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { ZstdOptions } from 'node:zlib';
import type { LogRecord, LogType } from '@skald/ports';
import { ByteReader, ByteWriter, zstdContentSize, zstdOutput } from './block-bytes.ts';

/** zstd level of the frames: 6 measured ~25 B a log on the search bench's logs at ~50,000 logs/s sealed. */
export const BLOCK_ZSTD_LEVEL = 6;

/**
 * Rows of a group of the grouped text layout. Measured on the storage bench's FiveM lines (the tighter of its
 * two data sets): groups of 1,024 with a stream's dictionary cost +2.9 B a log of text against one frame,
 * without one +16.3, with the block's own first group as dictionary +6.3 (which a read of any other group
 * decodes too).
 */
export const TEXT_GROUP_ROWS = 1024;
/** The first byte of a grouped text: a zstd frame (the one-frame layout) starts with 0x28. */
const GROUPED_TEXT = 1;

/** A stream's text dictionary: rows laid out as a group is, which zstd uses as earlier content (raw). */
export interface TextDictionary {
  /** 48 bits of the SHA-256 of `bytes`: the same dictionary made twice (two seals at once) is one row. */
  readonly id: number;
  readonly bytes: Buffer;
  /** Rows of a group of the texts encoded with it (a grouped text names its own: any reads back). */
  readonly groupRows: number;
}

/** The raw bytes of a stored dictionary by its id (throws when none is stored). */
export type TextDictionaryOf = (id: number) => Buffer;

const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;
const ID_UUID = 0;
const ID_TEXT = 1;

export interface EncodedBlock {
  /** The records in block order: (createdAt, id) ascending. Row i of the frames is rows[i]. */
  readonly rows: readonly LogRecord[];
  readonly meta: Buffer;
  readonly text: Buffer;
}

/** Orders rows as a block holds them: created_at, then id (as the row store's key). */
export function blockOrder(a: LogRecord, b: LogRecord): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

function unzigzag(value: number): number {
  // Without `%`: the differences of expires_at are past 32 bits, where `%` of a double is a slow call.
  const half = value / 2;
  const whole = Math.floor(half);
  return whole === half ? half : -whole - 1;
}

function requireInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`block codec: ${name} ${value} is not an integer of milliseconds`);
}

/** A column of values as codes into the distinct values, in order of first appearance. */
function writeCoded(w: ByteWriter, values: readonly string[]): void {
  const codes = new Map<string, number>();
  const distinct: string[] = [];
  const column = values.map((v) => {
    let code = codes.get(v);
    if (code === undefined) {
      code = distinct.length;
      distinct.push(v);
      codes.set(v, code);
    }
    return code;
  });
  w.varint(distinct.length);
  for (const v of distinct) w.string(v);
  for (const code of column) w.varint(code);
}

/** A nullable text: length + 1, 0 for null. */
function writeNullable(w: ByteWriter, value: string | null): void {
  if (value === null) w.varint(0);
  else w.string(value, 1);
}

function readNullable(r: ByteReader): string | null {
  const length = r.varint();
  return length === 0 ? null : r.utf8(length - 1);
}

/**
 * The block's frames; its text in groups compressed with `dictionary` when one is given, else one frame.
 * `records` in any order (see blockFrames).
 */
export function encodeBlock(records: readonly LogRecord[], level = BLOCK_ZSTD_LEVEL, dictionary: TextDictionary | null = null): EncodedBlock {
  const { rows, meta, text, segments } = blockSegments(records);
  const params = { params: { [constants.ZSTD_c_compressionLevel]: level } };
  if (dictionary === null) return { rows, meta: zstdCompressSync(meta, params), text: zstdCompressSync(text, params) };
  const frames = textGroups(segments, rows.length, dictionary.groupRows).map((group) => zstdCompressSync(group, { ...params, dictionary: dictionary.bytes }));
  return { rows, meta: zstdCompressSync(meta, params), text: groupedText(dictionary, frames) };
}

const zstdCompressAsync = promisify(zstdCompress);

/** encodeBlock with the compression (most of its time) on libuv's thread pool, off the event loop. */
export async function encodeBlockAsync(records: readonly LogRecord[], level = BLOCK_ZSTD_LEVEL, dictionary: TextDictionary | null = null): Promise<EncodedBlock> {
  const { rows, meta, text, segments } = blockSegments(records);
  // The sizes pledged: a frame's header then states its decompressed size, as the one call's does, and a read
  // decompresses it into one buffer of that size (zstdOutput).
  const params = (input: Buffer): ZstdOptions => ({ params: { [constants.ZSTD_c_compressionLevel]: level }, pledgedSrcSize: input.length });
  if (dictionary === null) {
    const [metaFrame, textFrame] = await Promise.all([zstdCompressAsync(meta, params(meta)), zstdCompressAsync(text, params(text))]);
    return { rows, meta: metaFrame, text: textFrame };
  }
  const [metaFrame, ...frames] = await Promise.all([
    zstdCompressAsync(meta, params(meta)),
    ...textGroups(segments, rows.length, dictionary.groupRows).map((group) => zstdCompressAsync(group, { ...params(group), dictionary: dictionary.bytes })),
  ]);
  return { rows, meta: metaFrame!, text: groupedText(dictionary, frames) };
}

/**
 * A dictionary for a stream's grouped texts: the first group of these rows (in any order), or null when
 * they are fewer than a group (a few rows sealed short make a poor dictionary for every later block).
 */
export function textDictionaryOf(records: readonly LogRecord[], groupRows = TEXT_GROUP_ROWS): TextDictionary | null {
  if (records.length < groupRows) return null;
  const [bytes] = textGroups(segmentsOf([...records].sort(blockOrder).slice(0, groupRows)), groupRows, groupRows);
  return textDictionary(bytes!, groupRows);
}

/** A dictionary's id from its bytes (its content: see TextDictionary.id). */
export function textDictionary(bytes: Buffer, groupRows = TEXT_GROUP_ROWS): TextDictionary {
  return { id: Number.parseInt(createHash('sha256').update(bytes).digest('hex').slice(0, 12), 16), bytes, groupRows };
}

/** The rows in groups of `groupRows`, each laid out as the one frame lays out the block: lengths, messages, metadata. */
function textGroups(segments: readonly Buffer[], n: number, groupRows: number): Buffer[] {
  if (!Number.isSafeInteger(groupRows) || groupRows < 1) throw new RangeError(`block codec: groups of ${groupRows} rows`);
  const out: Buffer[] = [];
  for (let from = 0; from < n; from += groupRows) {
    const to = Math.min(n, from + groupRows);
    const w = new ByteWriter();
    for (let i = from; i < to; i++) w.varint(segments[i]!.length);
    for (let i = from; i < to; i++) w.varint(segments[n + i]!.length);
    for (let i = from; i < to; i++) w.bytes(segments[i]!);
    for (let i = from; i < to; i++) w.bytes(segments[n + i]!);
    out.push(Buffer.from(w.done()));
  }
  return out;
}

/** The grouped text: its tag, the dictionary's id, the rows a group, each frame's length, then the frames. */
function groupedText(dictionary: TextDictionary, frames: readonly Uint8Array[]): Buffer {
  const w = new ByteWriter();
  w.varint(GROUPED_TEXT);
  w.varint(dictionary.id);
  w.varint(dictionary.groupRows);
  w.varint(frames.length);
  for (const f of frames) w.varint(f.length);
  for (const f of frames) w.bytes(f);
  return Buffer.from(w.done());
}

/** Every message, then every metadata JSON (null as an empty segment: the JSON of an object is never empty). */
function segmentsOf(rows: readonly LogRecord[]): Buffer[] {
  return [...rows.map((r) => Buffer.from(r.message, 'utf8')), ...rows.map((r) => Buffer.from(r.metadata === null ? '' : JSON.stringify(r.metadata), 'utf8'))];
}

/** The records in block order and the two frames before compression (block-rare.ts compresses them together). */
export function blockFrames(records: readonly LogRecord[]): { rows: LogRecord[]; meta: Buffer; text: Buffer } {
  const { rows, meta, text } = blockSegments(records);
  return { rows, meta, text };
}

function blockSegments(records: readonly LogRecord[]): { rows: LogRecord[]; meta: Buffer; text: Buffer; segments: Buffer[] } {
  const rows = [...records].sort(blockOrder);
  for (const r of rows) {
    requireInteger('createdAt', r.createdAt);
    requireInteger('expiresAt', r.expiresAt);
    if (r.receivedAt !== undefined) requireInteger('receivedAt', r.receivedAt);
  }
  const w = new ByteWriter();
  w.varint(rows.length);
  let previous = 0;
  rows.forEach((r, i) => {
    w.varint(i === 0 ? zigzag(r.createdAt) : r.createdAt - previous);
    previous = r.createdAt;
  });
  const uuids = rows.map((r) => UUID.exec(r.id));
  if (uuids.every((m) => m !== null)) {
    w.varint(ID_UUID);
    uuids.forEach((m, i) => w.varint(zigzag(parseInt(m![1]! + m![2]!, 16) - rows[i]!.createdAt)));
    for (const m of uuids) w.bytes(Buffer.from(m![3]! + m![4]! + m![5]!, 'hex'));
  } else {
    w.varint(ID_TEXT);
    for (const r of rows) w.string(r.id);
  }
  writeCoded(w, rows.map((r) => r.level));
  writeCoded(w, rows.map((r) => r.type));
  writeCoded(w, rows.map((r) => r.resource));
  writeCoded(w, rows.map((r) => r.logType));
  for (const r of rows) w.varint(zigzag(r.expiresAt - r.createdAt));
  // received_at + 1 as a difference, 0 when it is createdAt (absent).
  for (const r of rows) w.varint(r.receivedAt === undefined || r.receivedAt === r.createdAt ? 0 : zigzag(r.receivedAt - r.createdAt) + 1);
  for (const r of rows) {
    writeNullable(w, r.imageKey);
    writeNullable(w, r.thumbKey);
  }
  const segments = segmentsOf(rows);
  const t = new ByteWriter();
  for (const s of segments) t.varint(s.length);
  for (const s of segments) t.bytes(s);
  return { rows, meta: w.done(), text: t.done(), segments };
}

/** A block's `meta` decoded: one array per column, row i of each is row i of the block. */
export interface BlockColumns {
  readonly n: number;
  readonly createdAt: ArrayLike<number>;
  /** Every row's id (made into text at the first read of it); idAt makes one. */
  readonly id: readonly string[];
  idAt(row: number): string;
  readonly level: readonly string[];
  readonly type: readonly string[];
  readonly resource: readonly string[];
  readonly logType: readonly LogType[];
  readonly expiresAt: ArrayLike<number>;
  /** Undefined where received at createdAt. */
  readonly receivedAt: readonly (number | undefined)[];
  readonly imageKey: readonly (string | null)[];
  readonly thumbKey: readonly (string | null)[];
}

function uuidText(timestamp: number, rest: Buffer): string {
  const hex = timestamp.toString(16).padStart(12, '0') + rest.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function isLogType(value: string): value is LogType {
  return value === 'text' || value === 'photo';
}

/**
 * The rows' keys (created_at, and each id made when asked for): what ordering a block's matches needs.
 */
export interface BlockKeys {
  readonly n: number;
  readonly createdAt: ArrayLike<number>;
  idAt(row: number): string;
}

/**
 * The row of a block holding the log with this key, or -1: a binary search of the rows' created_at (a block's
 * rows are in blockOrder), then the ids of the rows stamped that millisecond. A read by key makes one id, not
 * the block's 4,096.
 */
export function rowOf(keys: BlockKeys, createdAt: number, id: string): number {
  const { createdAt: at } = keys;
  let lo = 0;
  let hi = keys.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at[mid]! < createdAt) lo = mid + 1;
    else hi = mid;
  }
  for (let row = lo; row < keys.n && at[row] === createdAt; row++) if (keys.idAt(row) === id) return row;
  return -1;
}

/** A coded column: its distinct values and each row's code. */
interface Coded {
  readonly distinct: readonly string[];
  readonly codes: ArrayLike<number>;
}

function readCodes(r: ByteReader, n: number, check?: (value: string) => void): Coded {
  const distinct = Array.from({ length: r.varint() }, () => r.string());
  if (check !== undefined) for (const v of distinct) check(v);
  // Every code below 128 (a block has few levels, types and resources): one byte each, copied as they are.
  if (distinct.length <= 0x80) return { distinct, codes: r.bytes(n) };
  const codes = new Uint32Array(n);
  for (let i = 0; i < n; i++) codes[i] = r.varint();
  return { distinct, codes };
}

function valuesOf(coded: Coded, n: number): string[] {
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = coded.distinct[coded.codes[i]!]!;
  return out;
}

function checkLogType(value: string): void {
  if (!isLogType(value)) throw new RangeError(`block codec: unknown log type ${JSON.stringify(value)}`);
}

/** The columns after the keys, as numbers and codes (strings made per row asked for). */
interface MetaValues {
  readonly level: Coded;
  readonly type: Coded;
  readonly resource: Coded;
  readonly logType: Coded;
  readonly expiresAt: Float64Array;
  /** NaN where received at createdAt; null when every row was. */
  readonly receivedAt: Float64Array | null;
  /** Null when no row has a photo key (text logs). */
  readonly imageKey: readonly (string | null)[] | null;
  readonly thumbKey: readonly (string | null)[] | null;
}

/** One row's columns other than its keys. */
interface RowValues {
  readonly level: string;
  readonly type: string;
  readonly resource: string;
  readonly logType: LogType;
  readonly expiresAt: number;
  readonly receivedAt: number | undefined;
  readonly imageKey: string | null;
  readonly thumbKey: string | null;
}

/**
 * A block's `meta` frame decompressed once: its keys decoded at once (typed arrays: a rare word's page orders
 * the matches of every block holding one), its other columns at the first row asked for, into numbers and
 * codes: a page shows a row or two of most blocks it reads, and makes the strings of those rows only
 * (`columns()` makes every row's, for filters on values and deletes). The ids, the codes and the bytes after the
 * ids are read in place from the frame, which stays with it: copying them cost more of a read by key than the
 * ~20% more memory a cached frame holds.
 */
export class BlockMeta implements BlockKeys {
  readonly n: number;
  readonly createdAt: Float64Array;
  /** The UUIDs' timestamps and 10 other bytes; null when the ids are kept as text. */
  readonly #stamps: Float64Array | null;
  readonly #idBytes: Buffer | null;
  readonly #textIds: readonly string[] | null;
  #rest: Buffer | null;
  #values: MetaValues | null = null;

  constructor(frame: Buffer) {
    const r = new ByteReader(frame);
    const n = (this.n = r.varint());
    const createdAt = (this.createdAt = new Float64Array(n));
    r.varints(createdAt);
    if (n > 0) createdAt[0] = unzigzag(createdAt[0]!);
    for (let i = 1; i < n; i++) createdAt[i] = createdAt[i - 1]! + createdAt[i]!;
    if (r.varint() === ID_UUID) {
      const stamps = new Float64Array(n);
      r.varints(stamps);
      for (let i = 0; i < n; i++) stamps[i] = createdAt[i]! + unzigzag(stamps[i]!);
      this.#stamps = stamps;
      this.#idBytes = r.bytes(10 * n);
      this.#textIds = null;
    } else {
      this.#stamps = null;
      this.#idBytes = null;
      this.#textIds = Array.from({ length: n }, () => r.string());
    }
    this.#rest = r.rest();
  }

  idAt(row: number): string {
    if (this.#textIds !== null) return this.#textIds[row]!;
    return uuidText(this.#stamps![row]!, this.#idBytes!.subarray(row * 10, row * 10 + 10));
  }

  /** The row whose id is `id`, or -1: compared as the stored bytes (no row's id made into text). */
  indexOfId(id: string): number {
    if (this.#textIds !== null) return this.#textIds.indexOf(id);
    // Ids stored as UUID bytes are canonical lower-case UUIDs: any other text is none of them.
    if (!UUID.test(id)) return -1;
    const hex = id.replaceAll('-', '');
    const stamp = Number.parseInt(hex.slice(0, 12), 16);
    const rest = Buffer.from(hex.slice(12), 'hex');
    const stamps = this.#stamps!;
    const bytes = this.#idBytes!;
    for (let row = 0; row < this.n; row++) {
      if (stamps[row] === stamp && bytes.compare(rest, 0, 10, row * 10, row * 10 + 10) === 0) return row;
    }
    return -1;
  }

  #decoded(): MetaValues {
    if (this.#values !== null) return this.#values;
    const r = new ByteReader(this.#rest!);
    const { n, createdAt } = this;
    const [level, type, resource] = [readCodes(r, n), readCodes(r, n), readCodes(r, n)];
    const logType = readCodes(r, n, checkLogType);
    const expiresAt = new Float64Array(n);
    r.varints(expiresAt);
    for (let i = 0; i < n; i++) expiresAt[i] = createdAt[i]! + unzigzag(expiresAt[i]!);
    let receivedAt: Float64Array | null = new Float64Array(n);
    r.varints(receivedAt);
    let received = false;
    for (let i = 0; i < n; i++) {
      const v = receivedAt[i]!;
      if (v !== 0) received = true;
      receivedAt[i] = v === 0 ? Number.NaN : createdAt[i]! + unzigzag(v - 1);
    }
    if (!received) receivedAt = null;
    let imageKey: (string | null)[] | null = null;
    let thumbKey: (string | null)[] | null = null;
    for (let i = 0; i < n; i++) {
      // Two nulls, a text log's (most rows): skipped without reading them as varints.
      if (r.peek() === 0 && r.peek(1) === 0) {
        r.pos += 2;
        continue;
      }
      const image = readNullable(r);
      const thumb = readNullable(r);
      if (image === null && thumb === null && imageKey === null) continue;
      imageKey ??= new Array<string | null>(n).fill(null);
      thumbKey ??= new Array<string | null>(n).fill(null);
      imageKey[i] = image;
      thumbKey[i] = thumb;
    }
    this.#rest = null;
    this.#values = { level, type, resource, logType, expiresAt, receivedAt, imageKey, thumbKey };
    return this.#values;
  }

  /** Row `row`'s level. */
  level(row: number): string {
    const { distinct, codes } = this.#decoded().level;
    return distinct[codes[row]!]!;
  }

  /** Row `row`'s log type. */
  logType(row: number): LogType {
    const { distinct, codes } = this.#decoded().logType;
    return distinct[codes[row]!]! as LogType;
  }

  /** Row `row`'s expiry. */
  expiresAt(row: number): number {
    return this.#decoded().expiresAt[row]!;
  }

  /** Row `row` as the LogStore answers it, its text from the block's `text`. */
  record(serverId: string, text: BlockText, row: number): LogRecord {
    const v = this.#decoded();
    const value = (c: Coded): string => c.distinct[c.codes[row]!]!;
    const received = v.receivedAt?.[row] ?? Number.NaN;
    const values: RowValues = {
      level: value(v.level),
      type: value(v.type),
      resource: value(v.resource),
      logType: value(v.logType) as LogType,
      expiresAt: v.expiresAt[row]!,
      receivedAt: Number.isNaN(received) ? undefined : received,
      imageKey: v.imageKey?.[row] ?? null,
      thumbKey: v.thumbKey?.[row] ?? null,
    };
    return recordOf(serverId, this.createdAt[row]!, this.idAt(row), values, text, row);
  }

  /** Every column, every row's strings made (a new object each call: the caller keeps it as long as it needs). */
  columns(): BlockColumns {
    const v = this.#decoded();
    const { n, createdAt } = this;
    const received = v.receivedAt;
    let id: string[] | null = null;
    const idAt = (row: number): string => this.idAt(row);
    return {
      n,
      createdAt,
      get id(): readonly string[] {
        id ??= Array.from({ length: n }, (_, i) => idAt(i));
        return id;
      },
      idAt,
      level: valuesOf(v.level, n),
      type: valuesOf(v.type, n),
      resource: valuesOf(v.resource, n),
      logType: valuesOf(v.logType, n) as LogType[],
      expiresAt: v.expiresAt,
      receivedAt: Array.from({ length: n }, (_, i) => (received === null || Number.isNaN(received[i]!) ? undefined : received[i])),
      imageKey: v.imageKey ?? new Array<string | null>(n).fill(null),
      thumbKey: v.thumbKey ?? new Array<string | null>(n).fill(null),
    };
  }
}

/** The keys of a block's `meta` as stored (the other columns decoded only when asked for: BlockMeta.columns). */
export function decodeBlockKeys(meta: Uint8Array): BlockMeta {
  return new BlockMeta(unzstd(meta));
}

export function decodeBlockMeta(meta: Uint8Array): BlockColumns {
  return decodeMetaFrame(unzstd(meta));
}

/** A frame decompressed into one buffer of the size its header states, if it states one. */
function unzstd(frame: Uint8Array, dictionary?: Buffer): Buffer {
  return zstdDecompressSync(frame, zstdOutput(zstdContentSize(frame), dictionary));
}

/** The `meta` frame decompressed, decoded. */
export function decodeMetaFrame(frame: Buffer): BlockColumns {
  return new BlockMeta(frame).columns();
}

/** Segments: their bytes one after another, and where each ends. */
class Segments {
  /** The bytes after the lengths. */
  readonly bytes: Buffer;
  /** End of each segment in `bytes`. */
  readonly ends: Uint32Array;

  constructor(bytes: Buffer, ends: Uint32Array) {
    this.bytes = bytes;
    this.ends = ends;
  }

  /** A frame decompressed: `count` lengths, then the bytes. */
  static of(raw: Buffer, count: number): Segments {
    const r = new ByteReader(raw);
    const ends = new Uint32Array(count);
    let end = 0;
    for (let i = 0; i < count; i++) ends[i] = end += r.varint();
    return new Segments(raw.subarray(r.pos), ends);
  }

  text(i: number): string {
    return this.bytes.toString('utf8', i === 0 ? 0 : this.ends[i - 1]!, this.ends[i]!);
  }
}

/** A grouped text's frames, not decompressed yet. */
interface Groups {
  readonly rows: number;
  readonly frames: readonly Uint8Array[];
  readonly dictionary: Buffer;
  readonly decoded: (Segments | undefined)[];
}

function parseGroups(text: Uint8Array, n: number, dictionaries: TextDictionaryOf | undefined): Groups {
  const r = new ByteReader(Buffer.from(text.buffer, text.byteOffset, text.byteLength));
  r.varint();
  const dictionaryId = r.varint();
  const rows = r.varint();
  const count = r.varint();
  if (rows < 1 || count !== Math.ceil(n / rows)) throw new RangeError(`block codec: a grouped text of ${count} groups of ${rows} rows for ${n} rows`);
  if (dictionaries === undefined) throw new Error(`block codec: a grouped text needs its dictionary ${dictionaryId}`);
  const lengths = Array.from({ length: count }, () => r.varint());
  const frames = lengths.map((length) => r.bytes(length));
  return { rows, frames, dictionary: dictionaries(dictionaryId), decoded: new Array<Segments | undefined>(count) };
}

/**
 * A block's `text`: row i's message and metadata JSON without decoding the others' strings. A grouped text
 * decompresses a row's group at its first read (a read by key, a page); `bytes` and the offsets of a search
 * need the whole, made once from every group in the one frame's layout.
 */
export class BlockText {
  readonly n: number;
  #whole: Segments | null = null;
  readonly #groups: Groups | null = null;

  /**
   * `text` is the frame as stored, or a one-frame text already decompressed (`compressed` false);
   * `dictionaries` gives a grouped text's dictionary.
   */
  constructor(text: Uint8Array, n: number, compressed = true, dictionaries?: TextDictionaryOf) {
    this.n = n;
    if (compressed && text[0] === GROUPED_TEXT) this.#groups = parseGroups(text, n, dictionaries);
    else this.#whole = Segments.of(compressed ? unzstd(text) : Buffer.from(text.buffer, text.byteOffset, text.byteLength), 2 * n);
  }

  /** The decompressed bytes after the lengths: message 0..n-1, then metadata 0..n-1. */
  get bytes(): Buffer {
    return this.#all().bytes;
  }

  /** Groups of the text decompressed so far (a one-frame text: 1); tests and tools. */
  get groupsDecoded(): number {
    if (this.#groups === null) return 1;
    return this.#whole !== null ? this.#groups.frames.length : this.#groups.decoded.filter((g) => g !== undefined).length;
  }

  #group(index: number): Segments {
    const groups = this.#groups!;
    let group = groups.decoded[index];
    if (group === undefined) group = groups.decoded[index] = Segments.of(unzstd(groups.frames[index]!, groups.dictionary), 2 * this.#groupRows(index));
    return group;
  }

  #groupRows(index: number): number {
    const rows = this.#groups!.rows;
    return Math.min(rows, this.n - index * rows);
  }

  /**
   * Decompresses the groups holding these rows that are not yet, in one call: their frames one after another
   * (zstd reads concatenated frames, each with the stream's dictionary) into one buffer of their stated sizes.
   * A page reading a few rows of each of a dozen blocks pays one call's set-up a block (a context, the
   * dictionary's load) instead of one a group. Frames that state no size are decompressed one by one.
   */
  readRows(rows: Iterable<number>): void {
    const groups = this.#groups;
    if (groups === null) return;
    const wanted = new Set<number>();
    for (const row of rows) {
      const index = Math.floor(row / groups.rows);
      if (groups.decoded[index] === undefined && index < groups.frames.length) wanted.add(index);
    }
    const indexes = [...wanted].sort((a, b) => a - b);
    const sizes = indexes.map((i) => zstdContentSize(groups.frames[i]!));
    if (indexes.length < 2 || sizes.some((size) => size === undefined)) {
      for (const index of indexes) this.#group(index);
      return;
    }
    const total = sizes.reduce<number>((a, size) => a + size!, 0);
    const out = zstdDecompressSync(Buffer.concat(indexes.map((i) => groups.frames[i]!)), zstdOutput(total, groups.dictionary));
    if (out.length !== total) throw new RangeError(`block codec: text groups of ${out.length} bytes, their frames state ${total}`);
    let at = 0;
    indexes.forEach((index, k) => {
      const size = sizes[k]!;
      groups.decoded[index] = Segments.of(out.subarray(at, at + size), 2 * this.#groupRows(index));
      at += size;
    });
  }

  /** The whole text in the one frame's layout: every group's messages, then every group's metadata. */
  #all(): Segments {
    if (this.#whole !== null) return this.#whole;
    const groups = this.#groups!;
    this.readRows(groups.frames.map((_, i) => i * groups.rows));
    const decoded = groups.frames.map((_, i) => this.#group(i));
    const ends = new Uint32Array(2 * this.n);
    const pieces: Buffer[] = [];
    let end = 0;
    // Messages of every group, then their metadata: each group's ends moved by what comes before them.
    for (const half of [0, 1]) {
      let row = half * this.n;
      for (const g of decoded) {
        const rows = g.ends.length / 2;
        const start = half === 0 ? 0 : rows === 0 ? 0 : g.ends[rows - 1]!;
        const stop = rows === 0 ? 0 : g.ends[half * rows + rows - 1]!;
        for (let i = 0; i < rows; i++) ends[row++] = end + g.ends[half * rows + i]! - start;
        pieces.push(g.bytes.subarray(start, stop));
        end += stop - start;
      }
    }
    this.#whole = new Segments(Buffer.concat(pieces, end), ends);
    // The whole holds every row's bytes: a cached text keeps them once, not twice.
    groups.decoded.fill(undefined);
    return this.#whole;
  }

  #segment(row: number, inMetadata: boolean): string {
    if (this.#whole !== null) return this.#whole.text(inMetadata ? this.n + row : row);
    const rows = this.#groups!.rows;
    const index = Math.floor(row / rows);
    const group = this.#group(index);
    const at = row - index * rows;
    return group.text(inMetadata ? group.ends.length / 2 + at : at);
  }

  message(row: number): string {
    return this.#segment(row, false);
  }

  /** The metadata JSON as stored ('' for none). */
  metadataJson(row: number): string {
    return this.#segment(row, true);
  }

  /** The row holding byte `offset` of `bytes`, and whether it is in its metadata (else its message). */
  rowAt(offset: number): { row: number; inMetadata: boolean } {
    const segment = this.#segmentAt(offset);
    return segment < this.n ? { row: segment, inMetadata: false } : { row: segment - this.n, inMetadata: true };
  }

  /** Where the segment (message or metadata) holding byte `offset` of `bytes` ends, exclusive. */
  segmentEnd(offset: number): number {
    return this.#all().ends[this.#segmentAt(offset)]!;
  }

  #segmentAt(offset: number): number {
    const ends = this.#all().ends;
    let lo = 0;
    let hi = 2 * this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function recordOf(serverId: string, createdAt: number, id: string, v: RowValues, text: BlockText, i: number): LogRecord {
  const metadata = text.metadataJson(i);
  return {
    id,
    serverId,
    createdAt,
    ...(v.receivedAt === undefined ? {} : { receivedAt: v.receivedAt }),
    level: v.level,
    type: v.type,
    resource: v.resource,
    message: text.message(i),
    metadata: metadata === '' ? null : (JSON.parse(metadata) as Record<string, unknown>),
    logType: v.logType,
    imageKey: v.imageKey,
    thumbKey: v.thumbKey,
    expiresAt: v.expiresAt,
  };
}

/** Row `i` of a decoded block as the LogStore answers it. */
export function blockRecord(serverId: string, columns: BlockColumns, text: BlockText, i: number): LogRecord {
  return recordOf(
    serverId,
    columns.createdAt[i]!,
    columns.idAt(i),
    {
      level: columns.level[i]!,
      type: columns.type[i]!,
      resource: columns.resource[i]!,
      logType: columns.logType[i]!,
      expiresAt: columns.expiresAt[i]!,
      receivedAt: columns.receivedAt[i],
      imageKey: columns.imageKey[i]!,
      thumbKey: columns.thumbKey[i]!,
    },
    text,
    i,
  );
}

/** Every record of a block, in block order (`dictionaries`: a grouped text's, see BlockText). */
export function decodeBlock(serverId: string, meta: Uint8Array, text: Uint8Array, dictionaries?: TextDictionaryOf): LogRecord[] {
  const columns = decodeBlockMeta(meta);
  const body = new BlockText(text, columns.n, true, dictionaries);
  return Array.from({ length: columns.n }, (_, i) => blockRecord(serverId, columns, body, i));
}
