/**
 * The columns of one block of logs (docs/STORAGE.md, "The layout"): a server's logs of one stream, in
 * (createdAt, id) order, as two zstd frames.
 * - `meta`: created_at as deltas, the ids (a UUID whose timestamp is created_at, as ingestion mints them,
 *   costs its 10 other bytes; any other id is kept as text), level, type, resource and log type as codes
 *   into the block's own value lists, expires_at and received_at as differences from created_at, the photo
 *   keys. A page decodes it for the rows it shows.
 * - `text`: the byte length of every message and metadata JSON, then their bytes. A search decompresses only
 *   this frame; a row's message or metadata is sliced out of it without decoding the others.
 * The server is the block's, not a column. Decoding gives back the records as stored (receivedAt only when it
 * differs from createdAt, as the LogStore contract answers it).
 */
import { promisify } from 'node:util';
import { constants, zstdCompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { LogRecord, LogType } from '@skald/ports';
import { ByteReader, ByteWriter } from './block-bytes.ts';

/** zstd level of the frames: 6 measured ~25 B a log on the search bench's logs at ~50,000 logs/s sealed. */
export const BLOCK_ZSTD_LEVEL = 6;

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
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
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

function readCoded(r: ByteReader, n: number): string[] {
  const distinct = Array.from({ length: r.varint() }, () => r.string());
  const out = new Array<string>(n);
  if (distinct.length <= 0x80) {
    // Every code is below 128: one byte each, read without the varint loop (most of a page's decoding time).
    const codes = r.bytes(n);
    for (let i = 0; i < n; i++) out[i] = distinct[codes[i]!]!;
    return out;
  }
  for (let i = 0; i < n; i++) out[i] = distinct[r.varint()]!;
  return out;
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

export function encodeBlock(records: readonly LogRecord[], level = BLOCK_ZSTD_LEVEL): EncodedBlock {
  const { rows, meta, text } = blockFrames(records);
  const params = { params: { [constants.ZSTD_c_compressionLevel]: level } };
  return { rows, meta: zstdCompressSync(meta, params), text: zstdCompressSync(text, params) };
}

const zstdCompressAsync = promisify(zstdCompress);

/** encodeBlock with the compression (most of its time) on libuv's thread pool, off the event loop. */
export async function encodeBlockAsync(records: readonly LogRecord[], level = BLOCK_ZSTD_LEVEL): Promise<EncodedBlock> {
  const { rows, meta, text } = blockFrames(records);
  const params = { params: { [constants.ZSTD_c_compressionLevel]: level } };
  const [metaFrame, textFrame] = await Promise.all([zstdCompressAsync(meta, params), zstdCompressAsync(text, params)]);
  return { rows, meta: metaFrame, text: textFrame };
}

/** The records in block order and the two frames before compression (block-rare.ts compresses them together). */
export function blockFrames(records: readonly LogRecord[]): { rows: LogRecord[]; meta: Buffer; text: Buffer } {
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
  // Metadata null is an empty segment: the JSON of an object is never empty.
  const segments = [...rows.map((r) => Buffer.from(r.message, 'utf8')), ...rows.map((r) => Buffer.from(r.metadata === null ? '' : JSON.stringify(r.metadata), 'utf8'))];
  const t = new ByteWriter();
  for (const s of segments) t.varint(s.length);
  for (const s of segments) t.bytes(s);
  return { rows, meta: w.done(), text: t.done() };
}

/** A block's `meta` decoded: one array per column, row i of each is row i of the block. */
export interface BlockColumns {
  readonly n: number;
  readonly createdAt: readonly number[];
  /** Every row's id (made into text at the first read of it); idAt makes one. */
  readonly id: readonly string[];
  idAt(row: number): string;
  readonly level: readonly string[];
  readonly type: readonly string[];
  readonly resource: readonly string[];
  readonly logType: readonly LogType[];
  readonly expiresAt: readonly number[];
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
 * The rows' keys alone (created_at, and each id made when asked for): what ordering a block's matches needs,
 * at a tenth of decoding every column (the other columns' varints and strings are never read).
 */
export interface BlockKeys {
  readonly n: number;
  readonly createdAt: ArrayLike<number>;
  idAt(row: number): string;
}

export function decodeBlockKeys(meta: Uint8Array): BlockKeys {
  const r = new ByteReader(zstdDecompressSync(meta));
  const n = r.varint();
  // Typed arrays: a rare word's page decodes the keys of every block holding a match, for a row or two each.
  const createdAt = new Float64Array(n);
  let at = 0;
  for (let i = 0; i < n; i++) createdAt[i] = at = i === 0 ? unzigzag(r.varint()) : at + r.varint();
  if (r.varint() === ID_UUID) {
    const stamps = new Float64Array(n);
    for (let i = 0; i < n; i++) stamps[i] = createdAt[i]! + unzigzag(r.varint());
    // A copy: the decompressed frame is not kept alive by the ids' 10 bytes.
    const rest = Buffer.from(r.bytes(10 * n));
    return { n, createdAt, idAt: (row) => uuidText(stamps[row]!, rest.subarray(row * 10, row * 10 + 10)) };
  }
  const ids = Array.from({ length: n }, () => r.string());
  return { n, createdAt, idAt: (row) => ids[row]! };
}

export function decodeBlockMeta(meta: Uint8Array): BlockColumns {
  return decodeMetaFrame(zstdDecompressSync(meta));
}

/** The `meta` frame decompressed, decoded. */
export function decodeMetaFrame(frame: Buffer): BlockColumns {
  const r = new ByteReader(frame);
  const n = r.varint();
  const createdAt = new Array<number>(n);
  let at = 0;
  for (let i = 0; i < n; i++) createdAt[i] = at = i === 0 ? unzigzag(r.varint()) : at + r.varint();
  // UUIDs are made into text when asked for: a page shows a few rows of a block, and making all 4,096 was
  // most of the decoding's time.
  let idAt: (row: number) => string;
  if (r.varint() === ID_UUID) {
    const stamps = Array.from({ length: n }, (_, i) => createdAt[i]! + unzigzag(r.varint()));
    const rest = Buffer.from(r.bytes(10 * n));
    idAt = (row) => uuidText(stamps[row]!, rest.subarray(row * 10, row * 10 + 10));
  } else {
    const ids = Array.from({ length: n }, () => r.string());
    idAt = (row) => ids[row]!;
  }
  let id: string[] | null = null;
  const level = readCoded(r, n);
  const type = readCoded(r, n);
  const resource = readCoded(r, n);
  const logType = readCoded(r, n).map((v) => {
    if (!isLogType(v)) throw new RangeError(`block codec: unknown log type ${JSON.stringify(v)}`);
    return v;
  });
  const expiresAt = new Array<number>(n);
  for (let i = 0; i < n; i++) expiresAt[i] = createdAt[i]! + unzigzag(r.varint());
  const receivedAt = new Array<number | undefined>(n);
  for (let i = 0; i < n; i++) {
    const v = r.varint();
    receivedAt[i] = v === 0 ? undefined : createdAt[i]! + unzigzag(v - 1);
  }
  const imageKey = new Array<string | null>(n);
  const thumbKey = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    imageKey[i] = readNullable(r);
    thumbKey[i] = readNullable(r);
  }
  return {
    n,
    createdAt,
    get id(): readonly string[] {
      id ??= Array.from({ length: n }, (_, i) => idAt(i));
      return id;
    },
    idAt,
    level,
    type,
    resource,
    logType,
    expiresAt,
    receivedAt,
    imageKey,
    thumbKey,
  };
}

/** A block's `text` decompressed: row i's message and metadata JSON without decoding the others. */
export class BlockText {
  /** The decompressed bytes after the lengths: message 0..n-1, then metadata 0..n-1. */
  readonly bytes: Buffer;
  /** End of each segment in `bytes`. */
  readonly #ends: Uint32Array;
  readonly n: number;

  /** `text` is the frame as stored, or already decompressed (`compressed` false). */
  constructor(text: Uint8Array, n: number, compressed = true) {
    const raw = compressed ? zstdDecompressSync(text) : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    const r = new ByteReader(raw);
    this.n = n;
    this.#ends = new Uint32Array(2 * n);
    let end = 0;
    for (let i = 0; i < 2 * n; i++) this.#ends[i] = end += r.varint();
    this.bytes = raw.subarray(r.pos);
  }

  #segment(i: number): string {
    return this.bytes.toString('utf8', i === 0 ? 0 : this.#ends[i - 1]!, this.#ends[i]!);
  }

  message(row: number): string {
    return this.#segment(row);
  }

  /** The metadata JSON as stored ('' for none). */
  metadataJson(row: number): string {
    return this.#segment(this.n + row);
  }

  /** The row holding byte `offset` of `bytes`, and whether it is in its metadata (else its message). */
  rowAt(offset: number): { row: number; inMetadata: boolean } {
    const segment = this.#segmentAt(offset);
    return segment < this.n ? { row: segment, inMetadata: false } : { row: segment - this.n, inMetadata: true };
  }

  /** Where the segment (message or metadata) holding byte `offset` of `bytes` ends, exclusive. */
  segmentEnd(offset: number): number {
    return this.#ends[this.#segmentAt(offset)]!;
  }

  #segmentAt(offset: number): number {
    let lo = 0;
    let hi = 2 * this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#ends[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Row `i` of a decoded block as the LogStore answers it. */
export function blockRecord(serverId: string, columns: BlockColumns, text: BlockText, i: number): LogRecord {
  const metadata = text.metadataJson(i);
  const receivedAt = columns.receivedAt[i];
  return {
    id: columns.idAt(i),
    serverId,
    createdAt: columns.createdAt[i]!,
    ...(receivedAt === undefined ? {} : { receivedAt }),
    level: columns.level[i]!,
    type: columns.type[i]!,
    resource: columns.resource[i]!,
    message: text.message(i),
    metadata: metadata === '' ? null : (JSON.parse(metadata) as Record<string, unknown>),
    logType: columns.logType[i]!,
    imageKey: columns.imageKey[i]!,
    thumbKey: columns.thumbKey[i]!,
    expiresAt: columns.expiresAt[i]!,
  };
}

/** Every record of a block, in block order. */
export function decodeBlock(serverId: string, meta: Uint8Array, text: Uint8Array): LogRecord[] {
  const columns = decodeBlockMeta(meta);
  const body = new BlockText(text, columns.n);
  return Array.from({ length: columns.n }, (_, i) => blockRecord(serverId, columns, body, i));
}
