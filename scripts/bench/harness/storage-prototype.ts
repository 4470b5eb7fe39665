/**
 * Prototype of a block layout for the embedded log store (docs/STORAGE.md): what bytes per log and search p95s
 * a design of compressed column blocks inside SQLite rows reaches, measured on the search bench's data set and
 * on realistic FiveM lines (fivem-logs.ts), beside NDJSON of the same logs and zstd -3 of that stream.
 *
 * Layout measured here (docs/STORAGE.md, "The layout" and "Search"):
 * - logs grouped per (server, lower-cased level) stream, in time order, sealed into blocks of BLOCK_ROWS;
 * - one SQLite row per block: its time range, row count and per-type/resource counts (the directory, kept in
 *   memory: ~100 B a block), zstd frames `meta` (created_at deltas, the ids' random bytes, dictionary codes,
 *   expires deltas) and `text` (messages and metadata JSON), the block's token dictionary `words`
 *   (block-token-dictionary.ts), its rare rows kept whole, a trigram bloom filter and its frequent words;
 * - part rows: per 8, 64 or 512 blocks of a stream, each block's count of every word (merged as an LSM does);
 * - a search walks the candidate blocks newest first and takes each one's verdict from its part dictionary,
 *   else its own dictionary, else its text (needles no dictionary can look up: bloom filter, then text); it
 *   counts exactly up to TOTAL_CAP, then estimates from the rows counted and says so.
 * PROTO_CHECK=1 compares every answer (page, first record, total) with a scan of the generated logs.
 * Not the store: no tail table, deletes or photo logs (they live outside the measured path); see the note.
 *
 * Imported by storage.bench.ts for the layout's bytes per log. Run alone:
 * `PROTO_ROWS=1000000 PROTO_DATA=bench|fivem node_modules/.bin/node scripts/bench/harness/storage-prototype.ts`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { LogRecord } from '@skald/ports';
import { COMMON_WORDS, makeBatch, RARE_TYPES, RARE_WORDS } from '../benchmarks/search.bench.ts';
import { fivemBatch } from './fivem-logs.ts';
import { encodePartDictionary, PartDictionary, partVerdicts } from '../../../libs/adapters/src/log-store/block-part-dictionary.ts';
import type { PartVerdict } from '../../../libs/adapters/src/log-store/block-part-dictionary.ts';
import { constrains, dictionaryVerdict, foldAscii, type NeedlePiece, needlePieces, TokenDictionary, TokenDictionaryBuilder } from '../../../libs/adapters/src/log-store/block-token-dictionary.ts';
import { addWordPairs, needlePairs, pairNeedle, pairsMayMatch, pairWords, WordPairFilter } from '../../../libs/adapters/src/log-store/block-word-pairs.ts';

const ROWS = Number(process.env['PROTO_ROWS'] ?? 1_000_000);
const DATA = process.env['PROTO_DATA'] ?? 'bench';
const BLOCK_ROWS = Number(process.env['PROTO_BLOCK_ROWS'] ?? 4096);
const LEVEL = Number(process.env['PROTO_ZSTD_LEVEL'] ?? 6);
const RUNS = Number(process.env['PROTO_RUNS'] ?? 100);
const TOTAL_CAP = 10_000;
/** Compare every answer with a scan of the generated logs kept in memory (small PROTO_ROWS only). */
const CHECK = process.env['PROTO_CHECK'] === '1';
const BATCH = 1000;
const T0 = Date.UTC(2025, 0, 1);
const OFFSETS = [0, 50, 100, 150];

function load(): string {
  return `load ${loadavg()[0]!.toFixed(1)}/${availableParallelism()} cores`;
}

function batch(start: number): LogRecord[] {
  return DATA === 'fivem' ? fivemBatch('bench-server', start, BATCH, ROWS, T0) : makeBatch(start, ROWS, T0);
}

// ---- trigram bloom filter ----------------------------------------------------------------------------

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function trigramHash(s: string, i: number): number {
  return mix(Math.imul(s.charCodeAt(i), 0x9e3779b1) ^ Math.imul(s.charCodeAt(i + 1), 0x7feb352d) ^ Math.imul(s.charCodeAt(i + 2), 0x846ca68b));
}

function addTrigrams(lower: string, into: Set<number>): void {
  for (let i = 0; i + 3 <= lower.length; i++) into.add(trigramHash(lower, i));
}

const K = 6;
const BITS_PER_KEY = 10;

function buildBloom(keys: Set<number>): Uint8Array {
  const m = Math.max(64, Math.ceil((keys.size * BITS_PER_KEY) / 8) * 8);
  const bits = new Uint8Array(m / 8 + 4);
  new DataView(bits.buffer).setUint32(0, m);
  for (const h of keys) {
    const h2 = mix(h ^ 0x5bd1e995) | 1;
    for (let k = 0; k < K; k++) {
      const bit = (h + Math.imul(k, h2)) >>> 0;
      const b = bit % m;
      bits[4 + (b >>> 3)]! |= 1 << (b & 7);
    }
  }
  return bits;
}

function bloomHasAll(bits: Uint8Array, hashes: readonly number[]): boolean {
  const m = new DataView(bits.buffer, bits.byteOffset, 4).getUint32(0);
  for (const h of hashes) {
    const h2 = mix(h ^ 0x5bd1e995) | 1;
    for (let k = 0; k < K; k++) {
      const b = ((h + Math.imul(k, h2)) >>> 0) % m;
      if ((bits[4 + (b >>> 3)]! & (1 << (b & 7))) === 0) return false;
    }
  }
  return true;
}

// ---- block encoding ----------------------------------------------------------------------------------

class Writer {
  buf = Buffer.alloc(1 << 16);
  len = 0;
  #room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  varint(v: number): void {
    this.#room(10);
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.len++] = v;
  }
  bytes(b: Buffer): void {
    this.#room(b.length);
    b.copy(this.buf, this.len);
    this.len += b.length;
  }
  string(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.varint(b.length);
    this.bytes(b);
  }
  done(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

class Reader {
  pos = 0;
  readonly buf: Buffer;
  constructor(buf: Buffer) {
    this.buf = buf;
  }
  varint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.buf[this.pos++]!;
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  }
  bytes(n: number): Buffer {
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  string(): string {
    const n = this.varint();
    return this.bytes(n).toString('utf8');
  }
}

function compress(b: Buffer): Buffer {
  return zstdCompressSync(b, { params: { [constants.ZSTD_c_compressionLevel]: LEVEL } });
}

interface Dict {
  values: string[];
  codes: Map<string, number>;
}

function dict(): Dict {
  return { values: [], codes: new Map() };
}

function code(d: Dict, v: string): number {
  let c = d.codes.get(v);
  if (c === undefined) {
    c = d.values.length;
    d.values.push(v);
    d.codes.set(v, c);
  }
  return c;
}

/**
 * A UUIDv7's timestamp is usually the log's createdAt (ingestion makes both): kept as its difference from
 * createdAt (zigzag varint, 0 and one byte in the usual case), and the other 10 bytes as they are.
 */
function idParts(id: string, createdAt: number): { delta: number; tail: Buffer } {
  const hex = id.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`prototype: id ${id} is not a UUID (the store would keep such ids as text)`);
  const d = parseInt(hex.slice(0, 12), 16) - createdAt;
  return { delta: d >= 0 ? d * 2 : -d * 2 - 1, tail: Buffer.from(hex.slice(12), 'hex') };
}

/** Rows of a type or resource value that few rows of a block hold are also kept whole beside the block (see `rare`). */
const RARE_ROWS = Number(process.env['PROTO_RARE_ROWS'] ?? 4);
/**
 * A stream's blocks are grouped into parts, whose dictionary gives each block's count of every word: every 8
 * blocks make a part, every 8 such parts are merged into one of 64 blocks, and those into parts of 512 (as an
 * LSM tree merges), so a stream's blocks sit in a few large parts and at most 7 blocks in none.
 */
const PART_TIERS = (process.env['PROTO_PART_TIERS'] ?? '8,64,512').split(',').map(Number);
/** Decoded part dictionaries and block dictionaries kept between queries (least recently used dropped). */
const CACHE_PARTS = Number(process.env['PROTO_CACHE_PARTS'] ?? 64);
const CACHE_BLOCK_DICTIONARIES = Number(process.env['PROTO_CACHE_BLOCK_DICTIONARIES'] ?? 64);
/** 0 skips the queries beyond the search bench's (the slow shapes, minutes at 5M). */
const EXTRAS = process.env['PROTO_EXTRAS'] !== '0';
/** Words this many rows of a block hold are also listed in its directory row, for a lower bound of a total without reading the block. */
const FREQUENT_ROWS = Number(process.env['PROTO_FREQUENT_ROWS'] ?? 8);
/** Every word in the token dictionaries, digits-only and hex ones too (block-token-dictionary.ts): off by default. */
const ALL_WORDS = process.env['PROTO_ALL_WORDS'] === '1';
/**
 * Adjacent word pairs (block-word-pairs.ts), for needles of several words: `bloom` a bloom filter per block that
 * skips blocks lacking the pair; `words` pair words in the block and part dictionaries, which count a two-piece
 * needle exactly; off by default.
 */
const PAIRS_MODE = process.env['PROTO_PAIRS'] ?? 'off';
const PAIRS = PAIRS_MODE === 'bloom';
const PAIR_WORDS = PAIRS_MODE === 'words';

export interface Sealed {
  stream: string;
  minAt: number;
  maxAt: number;
  n: number;
  dims: string;
  bloom: Uint8Array;
  words: Buffer;
  /** Every word of the block with its rows (for the part dictionary of the stream's blocks). */
  wordRows: [string, number][];
  frequent: string;
  rare: Buffer;
  /** The block's word-pair filter (empty unless PROTO_PAIRS=bloom). */
  pairs: Uint8Array;
  /** The block's dictionary of pair words and their rows (empty / none unless PROTO_PAIRS=words). */
  pairWords: Buffer;
  pairWordRows: [string, number][];
  meta: Buffer;
  text: Buffer;
}

/** A whole row as kept in a block's `rare` column: [row, createdAt, id, level, type, resource, message, metadata, expiresAt]. */
type RareRow = [number, number, string, string, string, string, string, string, number];

export function seal(stream: string, rows: LogRecord[]): Sealed {
  rows.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const levels = dict();
  const types = dict();
  const resources = dict();
  const typeCounts: Record<string, number> = {};
  const resourceCounts: Record<string, number> = {};
  const w = new Writer();
  w.varint(rows.length);
  let prev = rows[0]!.createdAt;
  w.varint(prev);
  const trigrams = new Set<number>();
  const messages: string[] = [];
  const metas: string[] = [];
  const words = new TokenDictionaryBuilder({ keepAllWords: ALL_WORDS });
  const pairs = new Set<number>();
  const pairDictionary = new TokenDictionaryBuilder({ keepAllWords: true });
  for (const r of rows) {
    w.varint(r.createdAt - prev);
    prev = r.createdAt;
  }
  const parts = rows.map((r) => idParts(r.id, r.createdAt));
  for (const p of parts) w.varint(p.delta);
  for (const p of parts) w.bytes(p.tail);
  for (const r of rows) w.varint(code(levels, r.level));
  for (const r of rows) w.varint(code(types, r.type));
  for (const r of rows) w.varint(code(resources, r.resource));
  for (const r of rows) w.varint(r.expiresAt - r.createdAt);
  for (const r of rows) {
    typeCounts[r.type] = (typeCounts[r.type] ?? 0) + 1;
    resourceCounts[r.resource] = (resourceCounts[r.resource] ?? 0) + 1;
    const metadata = r.metadata === null ? '' : JSON.stringify(r.metadata);
    messages.push(r.message);
    metas.push(metadata);
    words.addRow([r.message, metadata]);
    if (PAIRS) {
      addWordPairs(r.message, pairs, ALL_WORDS);
      addWordPairs(metadata, pairs, ALL_WORDS);
    }
    if (PAIR_WORDS) pairDictionary.addRow([pairWords(r.message, ALL_WORDS).join(' '), pairWords(metadata, ALL_WORDS).join(' ')]);
  }
  for (const d of [levels, types, resources]) {
    w.varint(d.values.length);
    for (const v of d.values) {
      w.string(v);
      addTrigrams(v.toLowerCase(), trigrams);
    }
  }
  const rare: RareRow[] = [];
  rows.forEach((r, i) => {
    if (typeCounts[r.type]! <= RARE_ROWS || resourceCounts[r.resource]! <= RARE_ROWS) rare.push([i, r.createdAt, r.id, r.level, r.type, r.resource, messages[i]!, metas[i]!, r.expiresAt]);
  });
  const text = `${messages.join('\0')}\0${metas.join('\0')}`;
  addTrigrams(text.toLowerCase(), trigrams);
  // Byte lengths of the 2n segments first, so a match's row is found without scanning for separators.
  const tw = new Writer();
  for (const part of [...messages, ...metas]) tw.varint(Buffer.byteLength(part) + 1);
  tw.bytes(Buffer.from(text, 'utf8'));
  return {
    stream,
    minAt: rows[0]!.createdAt,
    maxAt: prev,
    n: rows.length,
    dims: JSON.stringify({ type: typeCounts, resource: resourceCounts, level: levels.values }),
    bloom: buildBloom(trigrams),
    words: compress(words.encode()),
    wordRows: words.frequent(1),
    frequent: words.frequent(FREQUENT_ROWS).map(([word, rows]) => `${word} ${rows}\n`).join(''),
    rare: rare.length === 0 ? Buffer.alloc(0) : compress(Buffer.from(JSON.stringify(rare))),
    meta: compress(w.done()),
    text: compress(tw.done()),
    pairs: PAIRS ? WordPairFilter.build(pairs).encode() : new Uint8Array(0),
    pairWords: PAIR_WORDS ? compress(pairDictionary.encode()) : Buffer.alloc(0),
    pairWordRows: PAIR_WORDS ? pairDictionary.frequent(1) : [],
  };
}

interface BlockMeta {
  createdAt: number[];
  /** The ids' timestamps and their other 10 bytes. */
  idAt: number[];
  tails: Buffer;
  level: number[];
  type: number[];
  resource: number[];
  expires: number[];
  levels: string[];
  types: string[];
  resources: string[];
}

function hexId(createdAt: number, tail: Buffer): string {
  const h = createdAt.toString(16).padStart(12, '0') + tail.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function decodeMeta(blob: Uint8Array): BlockMeta {
  const r = new Reader(zstdDecompressSync(blob));
  const n = r.varint();
  let t = r.varint();
  const createdAt = new Array<number>(n);
  for (let i = 0; i < n; i++) createdAt[i] = t += r.varint();
  const idAt = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const z = r.varint();
    idAt[i] = createdAt[i]! + (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
  }
  const tails = r.bytes(10 * n);
  const col = (): number[] => {
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = r.varint();
    return out;
  };
  const level = col();
  const type = col();
  const resource = col();
  const expires = col();
  const strings = (): string[] => Array.from({ length: r.varint() }, () => r.string());
  return { createdAt, idAt, tails, level, type, resource, expires, levels: strings(), types: strings(), resources: strings() };
}

/** A block's decompressed text: row i's message is segment i, its metadata segment n + i. */
interface BlockText {
  raw: Buffer;
  base: number;
  ends: Uint32Array;
}

function decodeText(blob: Uint8Array, n: number): BlockText {
  const raw = zstdDecompressSync(blob);
  const r = new Reader(raw);
  const ends = new Uint32Array(n * 2);
  let end = 0;
  for (let i = 0; i < n * 2; i++) ends[i] = end += r.varint();
  return { raw, base: r.pos, ends };
}

function segment(t: BlockText, i: number): string {
  const start = i === 0 ? 0 : t.ends[i - 1]!;
  return t.raw.toString('utf8', t.base + start, t.base + t.ends[i]! - 1);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

// ---- the store ---------------------------------------------------------------------------------------

interface Entry {
  id: number;
  stream: string;
  minAt: number;
  maxAt: number;
  n: number;
  types: Record<string, number>;
  resources: Record<string, number>;
  dictHit: (needle: string) => boolean;
}

interface Query {
  level?: string;
  type?: string;
  search?: string;
  offset: number;
  limit: number;
}

/** What a page row holds (the store's LogRecord without the fields every row of the prototype shares). */
export interface ProtoRecord {
  id: string;
  createdAt: number;
  level: string;
  type: string;
  resource: string;
  message: string;
  metadata: string;
  expiresAt: number;
}

interface Answer {
  items: ProtoRecord[];
  total: number;
  estimated: boolean;
  /** Blocks whose text or meta was decompressed. */
  blocksRead: number;
  /** Blocks whose token dictionary was read. */
  dictionariesRead: number;
  /** Part dictionaries read. */
  partsRead: number;
  /** Word-pair filters read. */
  pairFiltersRead: number;
}

interface PageRow {
  at: number;
  id: string;
  block: Entry;
  row: number;
  rare?: RareRow;
}

export class BlockStore {
  readonly db: DatabaseSync;
  directory: Entry[] = [];
  readonly #insert;
  readonly #text;
  readonly #meta;
  readonly #words;
  readonly #rare;
  readonly #pairs;
  readonly #blockPairWords;
  readonly #partPairWords;
  readonly #pairParts = new Map<number, PartDictionary>();
  readonly #pairBlocks = new Map<number, TokenDictionary>();
  readonly #bloom;
  readonly #streamBloom;
  readonly #insertPart;
  readonly #parts;
  readonly #partWords;
  /** Per stream, the blocks written since its last part of the largest tier: their ids and words, and the parts of smaller tiers over them. */
  readonly #unparted = new Map<string, { ids: number[]; words: [string, number][][]; pairWords: [string, number][][]; parts: Map<number, number[]> }>();
  readonly #deletePart;
  /** Block id -> its part and its index in it. */
  #partOf = new Map<number, { part: number; index: number; count: number }>();

  constructor(file: string) {
    this.db = new DatabaseSync(file);
    this.db.exec(`PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -65536;
      CREATE TABLE IF NOT EXISTS blocks (id INTEGER PRIMARY KEY, server_key INTEGER NOT NULL, stream TEXT NOT NULL, min_at INTEGER NOT NULL, max_at INTEGER NOT NULL,
        n INTEGER NOT NULL, dims TEXT NOT NULL, bloom BLOB NOT NULL, frequent TEXT NOT NULL, words BLOB NOT NULL, rare BLOB NOT NULL, meta BLOB NOT NULL, text BLOB NOT NULL, pairs BLOB NOT NULL, pair_words BLOB NOT NULL);
      CREATE INDEX IF NOT EXISTS blocks_server_time ON blocks (server_key, max_at);
      CREATE TABLE IF NOT EXISTS parts (id INTEGER PRIMARY KEY, server_key INTEGER NOT NULL, stream TEXT NOT NULL, blocks TEXT NOT NULL, words BLOB NOT NULL, pair_words BLOB NOT NULL);`);
    this.#insertPart = this.db.prepare('INSERT INTO parts (server_key, stream, blocks, words, pair_words) VALUES (1, ?, ?, ?, ?)');
    this.#parts = this.db.prepare('SELECT id, stream, blocks FROM parts WHERE server_key = 1');
    this.#partWords = this.db.prepare('SELECT words FROM parts WHERE id = ?');
    this.#deletePart = this.db.prepare('DELETE FROM parts WHERE id = ?');
    this.#insert = this.db.prepare('INSERT INTO blocks (server_key, stream, min_at, max_at, n, dims, bloom, frequent, words, rare, meta, text, pairs, pair_words) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.#text = this.db.prepare('SELECT text FROM blocks WHERE id = ?');
    this.#meta = this.db.prepare('SELECT meta FROM blocks WHERE id = ?');
    this.#words = this.db.prepare('SELECT words FROM blocks WHERE id = ?');
    this.#rare = this.db.prepare('SELECT rare FROM blocks WHERE id = ?');
    this.#pairs = this.db.prepare('SELECT pairs FROM blocks WHERE id = ?');
    this.#blockPairWords = this.db.prepare('SELECT pair_words FROM blocks WHERE id = ?');
    this.#partPairWords = this.db.prepare('SELECT pair_words FROM parts WHERE id = ?');
    this.#bloom = this.db.prepare('SELECT id, bloom, frequent FROM blocks WHERE server_key = 1');
    this.#streamBloom = this.db.prepare('SELECT id, bloom, frequent FROM blocks WHERE server_key = 1 AND stream = ?');
  }

  write(b: Sealed): void {
    const id = Number(this.#insert.run(b.stream, b.minAt, b.maxAt, b.n, b.dims, b.bloom, b.frequent, b.words, b.rare, b.meta, b.text, b.pairs, b.pairWords).lastInsertRowid);
    let pending = this.#unparted.get(b.stream);
    if (pending === undefined) this.#unparted.set(b.stream, (pending = { ids: [], words: [], pairWords: [], parts: new Map() }));
    pending.ids.push(id);
    pending.words.push(b.wordRows);
    pending.pairWords.push(b.pairWordRows);
    const n = pending.ids.length;
    PART_TIERS.forEach((size, tier) => {
      if (n % size !== 0) return;
      const part = Number(this.#insertPart.run(b.stream, JSON.stringify(pending.ids.slice(n - size)), encodePartDictionary(pending.words.slice(n - size), LEVEL), PAIR_WORDS ? encodePartDictionary(pending.pairWords.slice(n - size), LEVEL) : Buffer.alloc(0)).lastInsertRowid);
      // The smaller parts over these blocks are replaced by this one.
      if (tier > 0) for (const smaller of pending.parts.get(tier - 1)!.splice(0)) this.#deletePart.run(smaller);
      let list = pending.parts.get(tier);
      if (list === undefined) pending.parts.set(tier, (list = []));
      list.push(part);
    });
    if (n === PART_TIERS[PART_TIERS.length - 1]) this.#unparted.delete(b.stream);
  }

  /**
   * Drops what writing keeps for the next parts (the words of a stream's blocks since its last 512-block part):
   * millions of small arrays that every full garbage collection of the query phase would otherwise walk.
   */
  endWriting(): void {
    this.#unparted.clear();
  }

  loadDirectory(): void {
    this.#partOf = new Map();
    for (const r of this.#parts.all()) {
      const ids = JSON.parse(String(r['blocks'])) as number[];
      ids.forEach((id, index) => this.#partOf.set(id, { part: Number(r['id']), index, count: ids.length }));
    }
    this.directory = this.db
      .prepare('SELECT id, stream, min_at, max_at, n, dims FROM blocks WHERE server_key = 1 ORDER BY max_at DESC')
      .all()
      .map((r) => {
        const dims = JSON.parse(String(r['dims'])) as { type: Record<string, number>; resource: Record<string, number>; level: string[] };
        const values = [...Object.keys(dims.type), ...Object.keys(dims.resource), ...dims.level].map((v) => foldAscii(v));
        return {
          id: Number(r['id']),
          stream: String(r['stream']),
          minAt: Number(r['min_at']),
          maxAt: Number(r['max_at']),
          n: Number(r['n']),
          types: dims.type,
          resources: dims.resource,
          dictHit: (needle: string) => values.some((v) => v.includes(needle)),
        };
      });
  }

  /** Row indexes of a block's rows whose message or metadata holds `needle` (folded), found in the decompressed text. */
  #textMatches(entry: Entry, needle: string, pattern: RegExp): Set<number> {
    const { raw, base, ends } = decodeText(this.#text.get(entry.id)!['text'] as Uint8Array, entry.n);
    // An ASCII needle is matched on the bytes (latin1: one char per byte) ignoring ASCII case; another on the
    // decoded, folded text (positions are then counted in characters: the prototype maps them the same way
    // only for ASCII text, which both data sets are).
    const text = isAscii(needle) ? raw.toString('latin1', base) : foldAscii(raw.toString('utf8', base));
    const rows = new Set<number>();
    let seg = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      while (ends[seg]! <= m.index) seg++;
      rows.add(seg % entry.n);
      pattern.lastIndex = m.index + 1;
    }
    return rows;
  }

  /** Rows whose level, type or resource holds the needle (those columns are codes in `meta`). */
  #dimMatches(md: BlockMeta, needle: string, n: number): Set<number> {
    const hit = (values: string[]): Set<number> => new Set(values.flatMap((v, c) => (foldAscii(v).includes(needle) ? [c] : [])));
    const [l, t, rs] = [hit(md.levels), hit(md.types), hit(md.resources)];
    const rows = new Set<number>();
    for (let i = 0; i < n; i++) if (l.has(md.level[i]!) || t.has(md.type[i]!) || rs.has(md.resource[i]!)) rows.add(i);
    return rows;
  }

  /**
   * The blocks (of one stream, or all) whose bloom filter holds every trigram of the needle, each with a lower
   * bound of its matches: the most rows a frequent word containing the needle has (a row holding such a word
   * holds the needle; zero for a needle with separators, which no word contains).
   */
  #bloomPass(needle: string, stream: string | undefined): Map<number, number> {
    const hashes: number[] = [];
    for (let i = 0; i + 3 <= needle.length; i++) hashes.push(trigramHash(needle, i));
    const pass = new Map<number, number>();
    const single = needlePieces(needle).length === 1 && !/^[^a-z0-9_\x80-\uffff]|[^a-z0-9_\x80-\uffff]$/.test(needle);
    for (const r of stream === undefined ? this.#bloom.iterate() : this.#streamBloom.iterate(stream)) {
      if (!bloomHasAll(r['bloom'] as Uint8Array, hashes)) continue;
      let atLeast = 0;
      const frequent = String(r['frequent']);
      for (let at = single ? frequent.indexOf(needle) : -1; at >= 0; at = frequent.indexOf(needle, at + 1)) {
        const end = frequent.indexOf('\n', at);
        const space = frequent.lastIndexOf(' ', end);
        // Only a hit inside the word part of its line counts (not inside the count).
        if (at + needle.length <= space) atLeast = Math.max(atLeast, Number(frequent.slice(space + 1, end)));
      }
      pass.set(Number(r['id']), atLeast);
    }
    return pass;
  }

  /**
   * Decoded dictionaries of recent use, as SQLite's page cache keeps the row store's FTS pages: a part's head is
   * ~70 KB decoded (the bench data), so PROTO_CACHE_PARTS parts are a few MB per server. 0 turns it off.
   */
  readonly #parts_ = new Map<number, PartDictionary>();
  readonly #blockDictionaries = new Map<number, TokenDictionary>();

  #partDictionary(part: number): PartDictionary {
    let cached = this.#parts_.get(part);
    if (cached !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.#parts_.delete(part);
      this.#parts_.set(part, cached);
      return cached;
    }
    cached = new PartDictionary(this.#partWords.get(part)!['words'] as Uint8Array);
    if (CACHE_PARTS > 0) {
      this.#parts_.set(part, cached);
      if (this.#parts_.size > CACHE_PARTS) this.#parts_.delete(this.#parts_.keys().next().value!);
    }
    return cached;
  }

  #blockDictionary(block: number): TokenDictionary {
    let cached = this.#blockDictionaries.get(block);
    if (cached !== undefined) {
      this.#blockDictionaries.delete(block);
      this.#blockDictionaries.set(block, cached);
      return cached;
    }
    cached = TokenDictionary.decode(zstdDecompressSync(this.#words.get(block)!['words'] as Uint8Array));
    if (CACHE_BLOCK_DICTIONARIES > 0) {
      this.#blockDictionaries.set(block, cached);
      if (this.#blockDictionaries.size > CACHE_BLOCK_DICTIONARIES) this.#blockDictionaries.delete(this.#blockDictionaries.keys().next().value!);
    }
    return cached;
  }

  /**
   * The words fit for a piece in block `e`: its part's (a superset of the block's: still safe), else its own
   * dictionary's. Kept per query in `cache`, keyed by part or block.
   */
  #wordsFit(e: Entry, piece: NeedlePiece, cache: Map<string, string[]>): string[] {
    const at = this.#partOf.get(e.id);
    const key = `${at === undefined ? `b${e.id}` : `p${at.part}`} ${piece.atStart ? '1' : '0'}${piece.atEnd ? '1' : '0'} ${piece.text}`;
    let words = cache.get(key);
    if (words === undefined) {
      if (at === undefined) {
        const dictionary = this.#blockDictionary(e.id);
        words = dictionary.matching(piece).map((i) => dictionary.word(i));
      } else {
        const part = this.#partDictionary(at.part);
        words = part.words.matching(piece).map((i) => part.words.word(i));
      }
      cache.set(key, words);
    }
    return words;
  }

  #pairPartDictionary(part: number): PartDictionary {
    let cached = this.#pairParts.get(part);
    if (cached === undefined) {
      cached = new PartDictionary(this.#partPairWords.get(part)!['pair_words'] as Uint8Array);
      if (this.#pairParts.size >= CACHE_PARTS) this.#pairParts.delete(this.#pairParts.keys().next().value!);
      this.#pairParts.set(part, cached);
    }
    return cached;
  }

  #pairBlockDictionary(block: number): TokenDictionary {
    let cached = this.#pairBlocks.get(block);
    if (cached === undefined) {
      cached = TokenDictionary.decode(zstdDecompressSync(this.#blockPairWords.get(block)!['pair_words'] as Uint8Array));
      if (this.#pairBlocks.size >= CACHE_BLOCK_DICTIONARIES) this.#pairBlocks.delete(this.#pairBlocks.keys().next().value!);
      this.#pairBlocks.set(block, cached);
    }
    return cached;
  }

  query(q: Query): Answer {
    const want = q.offset + q.limit;
    let candidates = this.directory.filter((e) => (q.level === undefined || e.stream === q.level.toLowerCase()) && (q.type === undefined || (e.types[q.type] ?? 0) > 0));
    const needle = q.search === undefined ? undefined : foldAscii(q.search);
    let lowerBound = 0;
    // Needles with a piece the dictionaries can look up take them (parts, then blocks); others the bloom filters.
    const byDictionary = needle !== undefined && q.type === undefined && needlePieces(needle).some((p) => constrains(p, ALL_WORDS));
    const verdictsByPart = new Map<number, PartVerdict[] | null>();
    // A two-piece needle is answered from the pair words: the parts' and blocks' pair dictionaries instead.
    const pairInside = PAIR_WORDS && needle !== undefined && q.type === undefined ? pairNeedle(needle, ALL_WORDS) : null;
    const pairPieces = PAIRS && needle !== undefined && q.type === undefined ? needlePairs(needle, ALL_WORDS) : [];
    const fitWords = new Map<string, string[]>();
    let pairFiltersRead = 0;
    let partsRead = 0;
    const partVerdict = (e: Entry): PartVerdict | null => {
      const at = this.#partOf.get(e.id);
      if (at === undefined || needle === undefined) return null;
      let verdicts = verdictsByPart.get(at.part);
      if (verdicts === undefined) {
        partsRead++;
        verdicts =
          pairInside === null ? partVerdicts(this.#partDictionary(at.part), at.count, needle, ALL_WORDS) : partVerdicts(this.#pairPartDictionary(at.part), at.count, pairInside, true);
        verdictsByPart.set(at.part, verdicts);
      }
      return verdicts === null ? null : verdicts[at.index]!;
    };
    if (needle !== undefined && needle.length >= 3 && !byDictionary) {
      const pass = this.#bloomPass(needle.toLowerCase(), q.level?.toLowerCase());
      candidates = candidates.filter((e) => pass.has(e.id));
      for (const e of candidates) lowerBound += pass.get(e.id)!;
    }
    const candidateRows = candidates.reduce((s, e) => s + e.n, 0);
    const pattern = new RegExp((needle ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi');
    const metas = new Map<number, BlockMeta>();
    const blockMeta = (e: Entry): BlockMeta => {
      let md = metas.get(e.id);
      if (md === undefined) metas.set(e.id, (md = decodeMeta(this.#meta.get(e.id)!['meta'] as Uint8Array)));
      return md;
    };
    // Page: newest-first matches; a block can hold rows newer than the k-th best so far until its max_at is older.
    const page: PageRow[] = [];
    let counted = 0;
    let countedRows = 0;
    let dictionariesRead = 0;
    let total = 0;
    let estimated = false;
    if (needle === undefined) total = q.type === undefined ? candidateRows : candidates.reduce((s, e) => s + (e.types[q.type!] ?? 0), 0);
    for (const e of candidates) {
      const pageOpen = page.length < want || e.maxAt >= page[want - 1]!.at;
      if (!pageOpen && (needle === undefined || counted > TOTAL_CAP || lowerBound > TOTAL_CAP)) break;
      let rows: number[] = [];
      if (needle === undefined) {
        if (!pageOpen) continue;
        if (q.type !== undefined && e.types[q.type]! <= RARE_ROWS) {
          // Its few rows are kept whole beside the block: no column to decompress.
          for (const rr of JSON.parse(zstdDecompressSync(this.#rare.get(e.id)!['rare'] as Uint8Array).toString()) as RareRow[]) {
            if (rr[4] === q.type) page.push({ at: rr[1], id: rr[2], block: e, row: rr[0], rare: rr });
          }
          sortPage(page, want);
          continue;
        }
        const md = blockMeta(e);
        const typeCode = q.type === undefined ? -1 : md.types.indexOf(q.type);
        for (let i = e.n - 1; i >= 0 && rows.length < want; i--) if (typeCode < 0 || md.type[i] === typeCode) rows.push(i);
      } else {
        let exact: number | null = null;
        let listed: readonly number[] | null = null;
        const fromPart = q.type === undefined && !e.dictHit(needle) ? partVerdict(e) : null;
        if (fromPart?.kind === 'none') exact = 0;
        else if (fromPart?.kind === 'exact' && !pageOpen) exact = fromPart.rows;
        // A needle with separators gets nothing more from the block's dictionary than from its part's: to the text.
        else if (q.type === undefined && !e.dictHit(needle) && (pairInside !== null || !(fromPart?.kind === 'block' && needlePieces(needle).length > 1))) {
          dictionariesRead++;
          const verdict =
            pairInside === null ? dictionaryVerdict(this.#blockDictionary(e.id), needle, ALL_WORDS) : dictionaryVerdict(this.#pairBlockDictionary(e.id), pairInside, true);
          if (verdict.kind === 'none') exact = 0;
          else if (verdict.kind === 'exact') {
            exact = verdict.rows;
            listed = verdict.rowList;
          }
        }
        // Before the text: a block whose pair filter lacks every fit pair of two adjacent pieces holds no match.
        // (Not when the needle is in the block's level, type or resource values: the filter holds message and metadata only.)
        if (exact === null && pairPieces.length > 0 && !e.dictHit(needle)) {
          pairFiltersRead++;
          const filter = WordPairFilter.decode(this.#pairs.get(e.id)!['pairs'] as Uint8Array);
          if (!pairsMayMatch(filter, pairPieces, (piece) => this.#wordsFit(e, piece, fitWords))) exact = 0;
        }
        countedRows += e.n;
        if (exact !== null && (exact === 0 || !pageOpen || listed !== null)) {
          counted += exact;
          if (!pageOpen || listed === null) continue;
          rows = [...listed].reverse().slice(0, want);
        } else {
        const found = this.#textMatches(e, needle, pattern);
        if (q.type !== undefined || e.dictHit(needle)) {
          const md = blockMeta(e);
          if (e.dictHit(needle)) for (const i of this.#dimMatches(md, needle, e.n)) found.add(i);
          if (q.type !== undefined) {
            const typeCode = md.types.indexOf(q.type);
            for (const i of found) if (md.type[i] !== typeCode) found.delete(i);
          }
        }
        counted += found.size;
        if (!pageOpen) continue;
        // A block's rows are in (createdAt, id) order: only its newest `want` matches can enter the page.
        rows = [...found].sort((a, b) => b - a).slice(0, want);
        }
      }
      if (rows.length === 0) continue;
      const md = blockMeta(e);
      for (const i of rows) page.push({ at: md.createdAt[i]!, id: hexId(md.idAt[i]!, md.tails.subarray(i * 10, i * 10 + 10)), block: e, row: i });
      sortPage(page, want);
    }
    if (needle !== undefined) {
      if (counted > TOTAL_CAP || lowerBound > TOTAL_CAP) {
        // Stopped past the cap (counted, or known from the frequent words): scaled from the rows the count
        // covered, never under the lower bound, and marked as an estimate.
        estimated = true;
        total = Math.max(lowerBound, Math.round((counted / Math.max(1, countedRows)) * candidateRows));
      } else total = counted;
    }
    const items = this.#materialize(page.slice(q.offset), metas);
    return { items, total, estimated, blocksRead: metas.size, dictionariesRead, partsRead, pairFiltersRead };
  }

  /** The page's records: each row's columns from its block's meta and text (each block decoded once). */
  #materialize(rows: PageRow[], metas: Map<number, BlockMeta>): ProtoRecord[] {
    const texts = new Map<number, BlockText>();
    return rows.map((p) => {
      if (p.rare !== undefined) {
        const [, createdAt, id, level, type, resource, message, metadata, expiresAt] = p.rare;
        return { id, createdAt, level, type, resource, message, metadata, expiresAt };
      }
      let md = metas.get(p.block.id);
      if (md === undefined) metas.set(p.block.id, (md = decodeMeta(this.#meta.get(p.block.id)!['meta'] as Uint8Array)));
      let text = texts.get(p.block.id);
      if (text === undefined) texts.set(p.block.id, (text = decodeText(this.#text.get(p.block.id)!['text'] as Uint8Array, p.block.n)));
      const i = p.row;
      return {
        id: p.id,
        createdAt: p.at,
        level: md.levels[md.level[i]!]!,
        type: md.types[md.type[i]!]!,
        resource: md.resources[md.resource[i]!]!,
        message: segment(text, i),
        metadata: segment(text, p.block.n + i),
        expiresAt: p.at + md.expires[i]!,
      };
    });
  }
}

function sortPage(page: PageRow[], want: number): void {
  page.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  page.length = Math.min(page.length, want);
}

// ---- the run -----------------------------------------------------------------------------------------

function percentiles(samples: number[]): { p50: number; p95: number } {
  samples.sort((a, b) => a - b);
  const at = (p: number): number => Number(samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!.toFixed(2));
  return { p50: at(0.5), p95: at(0.95) };
}

function ndjsonLine(r: LogRecord): string {
  // The native API's body for one log (POST /logs): what a game server sends.
  return JSON.stringify({ level: r.level, type: r.type, message: r.message, resource: r.resource, ...(r.metadata === null ? {} : { metadata: r.metadata }) });
}

/** What the row store answers: the newest matches (createdAt, id descending) and the count, by LIKE's rules. */
function check(logs: readonly LogRecord[], q: Query, answer: Answer): void {
  const needle = q.search === undefined ? undefined : foldAscii(q.search);
  const matches = logs
    .filter(
      (r) =>
        (q.level === undefined || foldAscii(r.level) === foldAscii(q.level)) &&
        (q.type === undefined || r.type === q.type) &&
        (needle === undefined ||
          [r.message, r.metadata === null ? '' : JSON.stringify(r.metadata), r.type, r.level, r.resource].some((c) => foldAscii(c).includes(needle))),
    )
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const ids = matches.slice(q.offset, q.offset + q.limit).map((r) => r.id);
  const got = answer.items.map((r) => r.id);
  if (JSON.stringify(ids) !== JSON.stringify(got)) throw new Error(`check: page of ${JSON.stringify(q)} differs from the scan`);
  const first = matches[q.offset];
  if (first !== undefined && answer.items[0]!.message !== first.message) throw new Error(`check: record of ${JSON.stringify(q)} differs from the scan`);
  if (!answer.estimated && answer.total !== matches.length) throw new Error(`check: total of ${JSON.stringify(q)} is ${answer.total}, the scan finds ${matches.length}`);
  if (answer.estimated && matches.length <= TOTAL_CAP) throw new Error(`check: total of ${JSON.stringify(q)} estimated, but ${matches.length} is under the cap`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-proto-'));
  const file = join(dir, 'blocks.db');
  const store = new BlockStore(file);
  const streams = new Map<string, LogRecord[]>();
  const kept: LogRecord[] = [];
  let ndjsonBytes = 0;
  const ndjsonChunks: Buffer[] = [];
  let zstd3Bytes = 0;
  const t = performance.now();
  let sealMs = 0;
  store.db.exec('BEGIN');
  for (let start = 0; start < ROWS; start += BATCH) {
    const logs = batch(start);
    const nd = Buffer.from(logs.map(ndjsonLine).join('\n') + '\n');
    ndjsonBytes += nd.length;
    ndjsonChunks.push(nd);
    // zstd -3 of the NDJSON stream, in 8 MiB windows (what `zstd -3` of the whole file reaches within ~1%).
    if (ndjsonChunks.reduce((s, c) => s + c.length, 0) >= 8 << 20) {
      zstd3Bytes += zstdCompressSync(Buffer.concat(ndjsonChunks.splice(0)), { params: { [constants.ZSTD_c_compressionLevel]: 3 } }).length;
    }
    if (CHECK) kept.push(...logs);
    for (const r of logs) {
      const key = r.level.toLowerCase();
      let rows = streams.get(key);
      if (rows === undefined) streams.set(key, (rows = []));
      rows.push(r);
      if (rows.length === BLOCK_ROWS) {
        const s = performance.now();
        store.write(seal(key, rows));
        sealMs += performance.now() - s;
        streams.set(key, []);
      }
    }
    if (start % 200_000 === 0) {
      store.db.exec('COMMIT; BEGIN');
    }
  }
  if (ndjsonChunks.length > 0) zstd3Bytes += zstdCompressSync(Buffer.concat(ndjsonChunks), { params: { [constants.ZSTD_c_compressionLevel]: 3 } }).length;
  for (const [key, rows] of streams) if (rows.length > 0) store.write(seal(key, rows));
  store.db.exec('COMMIT');
  store.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
  const buildS = (performance.now() - t) / 1000;
  const bytes = statSync(file).size;
  const parts = store.db.prepare('SELECT count(*) AS blocks, sum(length(bloom)) AS bloom, sum(length(words)) AS words, sum(length(frequent)) AS frequent, sum(length(rare)) AS rare, sum(length(pairs)) AS pairs, sum(length(pair_words)) AS pair_words, (SELECT sum(length(pair_words)) FROM parts) AS pair_parts, (SELECT sum(length(words)) FROM parts) AS parts, sum(length(meta)) AS meta, sum(length(text)) AS text FROM blocks').get()!;
  const per = (v: unknown): string => (Number(v) / ROWS).toFixed(1);
  console.log(`${DATA} data, ${ROWS.toLocaleString('en-US')} logs, blocks of ${BLOCK_ROWS}, zstd ${LEVEL}, word pairs ${PAIRS_MODE}: built in ${buildS.toFixed(0)} s (sealing ${(sealMs / 1000).toFixed(0)} s, ${Math.round(ROWS / (sealMs / 1000))} logs/s sealed) (${load()})`);
  console.log(`  file ${(bytes / ROWS).toFixed(1)} B/log (${(bytes / 2 ** 20).toFixed(1)} MiB, ${parts['blocks']} blocks): bloom ${per(parts['bloom'])}, token dictionaries ${per(parts['words'])}, frequent words ${per(parts['frequent'])}, rare rows ${per(parts['rare'])}, part dictionaries ${per(parts['parts'])}, pair bloom ${per(parts['pairs'])}, pair word dictionaries ${per(parts['pair_words'])}, pair part dictionaries ${per(parts['pair_parts'])}, meta ${per(parts['meta'])}, text ${per(parts['text'])} B/log`);
  console.log(`  NDJSON ${(ndjsonBytes / ROWS).toFixed(1)} B/log, zstd -3 of it ${(zstd3Bytes / ROWS).toFixed(1)} B/log`);
  if (process.env['PROTO_QUERIES'] === '0') return;

  store.endWriting();
  store.loadDirectory();
  // The floor of a scan: decompressing every text frame, and also finding a word in it (latin1 + regex).
  {
    const frames = store.db.prepare('SELECT text FROM blocks').all().map((r) => r['text'] as Uint8Array);
    let raw = 0;
    const c = process.cpuUsage();
    for (const f of frames) raw += zstdDecompressSync(f).length;
    const decompressMs = (process.cpuUsage(c).user + process.cpuUsage(c).system) / 1000;
    const c2 = process.cpuUsage();
    for (const f of frames) /frobnicate/gi.exec(zstdDecompressSync(f).toString('latin1'));
    const scanMs = (process.cpuUsage(c2).user + process.cpuUsage(c2).system) / 1000;
    console.log(`  scan floor: text frames ${(raw / ROWS).toFixed(1)} raw B/log; decompress ${Math.round(raw / 2 ** 20 / (decompressMs / 1000))} MiB/s CPU = ${(decompressMs / (ROWS / 1e5)).toFixed(1)} ms per 100,000 logs; + latin1 + regex ${(scanMs / (ROWS / 1e5)).toFixed(1)} ms per 100,000 logs (${load()})`);
  }
  const measure = (name: string, variants: Omit<Query, 'offset' | 'limit'>[]): void => {
    const query = (i: number): Query => ({ limit: 50, offset: OFFSETS[Math.floor(i / variants.length) % OFFSETS.length]!, ...variants[i % variants.length]! });
    for (let i = 0; i < variants.length * OFFSETS.length; i++) {
      const answer = store.query(query(i));
      if (CHECK) check(kept, query(i), answer);
    }
    const samples: number[] = [];
    const cpu: number[] = [];
    let last: Answer | null = null;
    let blocks = 0;
    let dictionaries = 0;
    let parts = 0;
    let pairFilters = 0;
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      const c = process.cpuUsage();
      last = store.query(query(i));
      samples.push(performance.now() - s);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      blocks += last.blocksRead;
      dictionaries += last.dictionariesRead;
      parts += last.partsRead;
      pairFilters += last.pairFiltersRead;
    }
    const { p50, p95 } = percentiles(samples);
    const onCpu = percentiles(cpu);
    console.log(
      `  ${name}: p95 ${p95} ms, p50 ${p50} ms (CPU p95 ${onCpu.p95}, p50 ${onCpu.p50} ms); per query ${(blocks / RUNS).toFixed(0)} blocks read, ${(dictionaries / RUNS).toFixed(0)} block and ${(parts / RUNS).toFixed(0)} part dictionaries, ${(pairFilters / RUNS).toFixed(0)} pair filters; last total ${last!.total}${last!.estimated ? ' (estimate)' : ''} (${load()})`,
    );
  };
  const player = (n: number): string => `player_${n}`;
  if (DATA === 'bench') {
    measure('plain page (50, with total)', [{}]);
    measure('search, a word in 10 logs', RARE_WORDS.map((search) => ({ search })));
    measure('search, a word in 1 of 50 logs', COMMON_WORDS.map((search) => ({ search })));
    measure('type filter, a type in 1 of 20,000 logs', RARE_TYPES.map((type) => ({ type })));
    measure(
      'search, a word in 1 of 50 logs + level',
      COMMON_WORDS.flatMap((search) => ['error', 'warn', 'info'].map((level) => ({ search, level }))),
    );
    // Beyond the search bench: needles every block holds, in fewer than 10,000 logs in all.
    measure('extra: one word in every block, 1 in 3,750 logs (player_N)', [1234, 2718, 3141, 4669].map((n) => ({ search: player(n) })));
    if (EXTRAS) {
      measure('extra: a part of 11 words, 1 in 340 logs (player_N without its last digit)', [123, 271, 314, 466].map((n) => ({ search: player(n) })));
      measure('extra: two words with a space (`sold sword`), 1 in 144 logs', [{ search: 'sold sword' }, { search: 'left arena' }]);
    }
  } else {
    measure('plain page (50, with total)', [{}]);
    measure('search, a last name (one word, 1 in 15 names)', [{ search: 'vercetti' }, { search: 'santos' }, { search: 'okafor' }]);
    measure('search, a player name (two words)', [{ search: 'tony vercetti' }, { search: 'mia santos' }, { search: 'kim price' }]);
    measure('search, an identifier (license:)', [{ search: 'license:' }]);
    measure('search, WEAPON_KNIFE + level warn', [{ search: 'weapon_knife', level: 'warn' }]);
    measure('type filter, Death', [{ type: 'Death' }]);
  }
  store.db.close();
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.main) await main();
