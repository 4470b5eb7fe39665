/**
 * Prototype of a block layout for the embedded log store (docs/STORAGE.md): what bytes per log and search p95s
 * a design of compressed column blocks inside SQLite rows reaches, measured on the search bench's data set and
 * on realistic FiveM lines (fivem-logs.ts), beside NDJSON of the same logs and zstd -3 of that stream.
 *
 * Layout measured here:
 * - logs grouped per (server, lower-cased level) stream, in time order, sealed into blocks of BLOCK_ROWS;
 * - one SQLite row per block: its time range, row count and per-type/resource counts (the directory, kept in
 *   memory: ~100 B a block), a bloom filter of the lower-cased trigrams of every searched column, and two zstd
 *   frames: `meta` (created_at deltas, the ids' random bytes, dictionary codes, expires deltas) and `text`
 *   (messages and metadata JSON, NUL-separated), so a search decompresses only the text;
 * - a search walks the candidate blocks newest first (level: that stream's blocks only; type: blocks whose
 *   counts hold it; a needle of >= 3 characters: blocks whose bloom holds every trigram of it), finds the rows
 *   by indexOf on the lower-cased text, and counts exactly up to TOTAL_CAP, then estimates from the rows seen.
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

const ROWS = Number(process.env['PROTO_ROWS'] ?? 1_000_000);
const DATA = process.env['PROTO_DATA'] ?? 'bench';
const BLOCK_ROWS = Number(process.env['PROTO_BLOCK_ROWS'] ?? 4096);
const LEVEL = Number(process.env['PROTO_ZSTD_LEVEL'] ?? 6);
const RUNS = Number(process.env['PROTO_RUNS'] ?? 100);
const TOTAL_CAP = 10_000;
const FREQUENT_TOKEN = Number(process.env['PROTO_FREQUENT_TOKEN'] ?? 8);
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

const MEASURE_WORD_INDEX = process.env['PROTO_WORD_INDEX'] === '1';
let wordIndexBytes = 0;

/**
 * What an in-block word index would cost (measured, not stored): every lower-cased word of the block with the
 * rows holding it (row numbers as varint deltas), the words NUL-separated, both zstd-compressed.
 */
function wordIndexSize(messages: string[], metas: string[]): number {
  const postings = new Map<string, number[]>();
  for (let i = 0; i < messages.length; i++) {
    for (const t of new Set(`${messages[i]}\0${metas[i]}`.toLowerCase().split(/[^a-z0-9_]+/))) {
      if (t === '') continue;
      let rows = postings.get(t);
      if (rows === undefined) postings.set(t, (rows = []));
      rows.push(i);
    }
  }
  const words = [...postings.keys()].sort();
  const w = new Writer();
  for (const word of words) {
    const rows = postings.get(word)!;
    w.varint(rows.length);
    let prev = 0;
    for (const r of rows) {
      w.varint(r - prev);
      prev = r;
    }
  }
  return compress(Buffer.from(words.join('\0'))).length + compress(w.done()).length;
}

export interface Sealed {
  stream: string;
  minAt: number;
  maxAt: number;
  n: number;
  dims: string;
  bloom: Uint8Array;
  tokens: string;
  meta: Buffer;
  text: Buffer;
}

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
    messages.push(r.message);
    metas.push(r.metadata === null ? '' : JSON.stringify(r.metadata));
  }
  for (const d of [levels, types, resources]) {
    w.varint(d.values.length);
    for (const v of d.values) {
      w.string(v);
      addTrigrams(v.toLowerCase(), trigrams);
    }
  }
  // Rows holding each lower-cased word, kept for the words FREQUENT_TOKEN rows or more hold: a lower bound of
  // a search's matches in this block (every row holding a word that contains the needle holds the needle).
  const tokenRows = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const seen = new Set(`${messages[i]}\0${metas[i]}`.toLowerCase().split(/[^a-z0-9_]+/));
    for (const t of seen) if (t.length >= 3) tokenRows.set(t, (tokenRows.get(t) ?? 0) + 1);
  }
  const frequent = [...tokenRows].filter(([, c]) => c >= FREQUENT_TOKEN);
  if (MEASURE_WORD_INDEX) wordIndexBytes += wordIndexSize(messages, metas);
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
    tokens: JSON.stringify(frequent),
    meta: compress(w.done()),
    text: compress(tw.done()),
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
  col(); // expires deltas
  const strings = (): string[] => Array.from({ length: r.varint() }, () => r.string());
  return { createdAt, idAt, tails, level, type, resource, levels: strings(), types: strings(), resources: strings() };
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
  dictHit: (needle: string) => boolean;
}

interface Query {
  level?: string;
  type?: string;
  search?: string;
  offset: number;
  limit: number;
}

interface Answer {
  ids: string[];
  total: number;
  estimated: boolean;
  blocksRead: number;
}

export class BlockStore {
  readonly db: DatabaseSync;
  directory: Entry[] = [];
  readonly #insert;
  readonly #text;
  readonly #meta;
  readonly #bloom;

  constructor(file: string) {
    this.db = new DatabaseSync(file);
    this.db.exec(`PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -65536;
      CREATE TABLE IF NOT EXISTS blocks (id INTEGER PRIMARY KEY, server_key INTEGER NOT NULL, stream TEXT NOT NULL, min_at INTEGER NOT NULL, max_at INTEGER NOT NULL,
        n INTEGER NOT NULL, dims TEXT NOT NULL, bloom BLOB NOT NULL, tokens TEXT NOT NULL, meta BLOB NOT NULL, text BLOB NOT NULL);
      CREATE INDEX IF NOT EXISTS blocks_server_time ON blocks (server_key, max_at);`);
    this.#insert = this.db.prepare('INSERT INTO blocks (server_key, stream, min_at, max_at, n, dims, bloom, tokens, meta, text) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.#text = this.db.prepare('SELECT text FROM blocks WHERE id = ?');
    this.#meta = this.db.prepare('SELECT meta FROM blocks WHERE id = ?');
    this.#bloom = this.db.prepare('SELECT id, bloom, tokens FROM blocks WHERE server_key = 1');
  }

  write(b: Sealed): void {
    this.#insert.run(b.stream, b.minAt, b.maxAt, b.n, b.dims, b.bloom, b.tokens, b.meta, b.text);
  }

  loadDirectory(): void {
    this.directory = this.db
      .prepare('SELECT id, stream, min_at, max_at, n, dims FROM blocks WHERE server_key = 1 ORDER BY max_at DESC')
      .all()
      .map((r) => {
        const dims = JSON.parse(String(r['dims'])) as { type: Record<string, number>; resource: Record<string, number>; level: string[] };
        const values = [...Object.keys(dims.type), ...Object.keys(dims.resource), ...dims.level].map((v) => v.toLowerCase());
        return { id: Number(r['id']), stream: String(r['stream']), minAt: Number(r['min_at']), maxAt: Number(r['max_at']), n: Number(r['n']), types: dims.type, dictHit: (needle: string) => values.some((v) => v.includes(needle)) };
      });
  }

  /** Row indexes of a block's rows whose searched columns hold `needle` (lower-cased). */
  #matches(blockId: number, needle: string, pattern: RegExp, entry: Entry, meta: () => BlockMeta): Set<number> {
    const raw = zstdDecompressSync(this.#text.get(blockId)!['text'] as Uint8Array);
    const r = new Reader(raw);
    const segments = entry.n * 2;
    const ends = new Uint32Array(segments);
    let end = 0;
    for (let i = 0; i < segments; i++) ends[i] = end += r.varint();
    const base = r.pos;
    // An ASCII needle is matched on the bytes (latin1: one char per byte) ignoring ASCII case; another on the
    // decoded, lower-cased text (positions are then counted in characters: the prototype maps them the same way
    // only for ASCII text, which both data sets are).
    const text = isAscii(needle) ? raw.toString('latin1', base) : raw.toString('utf8', base).toLowerCase();
    const rows = new Set<number>();
    let seg = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      while (ends[seg]! <= m.index) seg++;
      rows.add(seg % entry.n);
      pattern.lastIndex = m.index + 1;
    }
    const hit = (values: string[]): Set<number> => new Set(values.flatMap((v, c) => (v.toLowerCase().includes(needle) ? [c] : [])));
    if (entry.dictHit(needle)) {
      const md = meta();
      const [l, t, rs] = [hit(md.levels), hit(md.types), hit(md.resources)];
      for (let i = 0; i < entry.n; i++) if (l.has(md.level[i]!) || t.has(md.type[i]!) || rs.has(md.resource[i]!)) rows.add(i);
    }
    return rows;
  }

  query(q: Query): Answer {
    const want = q.offset + q.limit;
    let candidates = this.directory.filter((e) => (q.level === undefined || e.stream === q.level.toLowerCase()) && (q.type === undefined || (e.types[q.type] ?? 0) > 0));
    const needle = q.search?.toLowerCase();
    let lowerBound = 0;
    const pattern = new RegExp((needle ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi');
    if (needle !== undefined && needle.length >= 3) {
      const hashes: number[] = [];
      for (let i = 0; i + 3 <= needle.length; i++) hashes.push(trigramHash(needle, i));
      const pass = new Map<number, number>();
      for (const r of this.#bloom.iterate()) {
        if (!bloomHasAll(r['bloom'] as Uint8Array, hashes)) continue;
        let atLeast = 0;
        for (const [token, rows] of JSON.parse(String(r['tokens'])) as [string, number][]) if (rows > atLeast && token.includes(needle)) atLeast = rows;
        pass.set(Number(r['id']), atLeast);
      }
      candidates = candidates.filter((e) => pass.has(e.id));
      lowerBound = candidates.reduce((sum, e) => sum + pass.get(e.id)!, 0);
    }
    const candidateRows = candidates.reduce((s, e) => s + e.n, 0);
    // Page: newest-first matches; a block can hold rows newer than the k-th best so far until its max_at is older.
    const page: { at: number; id: string }[] = [];
    let counted = 0;
    let scannedRows = 0;
    let blocksRead = 0;
    let estimated = false;
    let total = 0;
    if (needle === undefined) total = q.type === undefined ? candidateRows : candidates.reduce((s, e) => s + (e.types[q.type!] ?? 0), 0);
    for (const e of candidates) {
      const pageFull = page.length >= want && e.maxAt < page[want - 1]!.at;
      if (pageFull && (needle === undefined || counted > TOTAL_CAP || lowerBound > TOTAL_CAP)) break;
      let decoded: BlockMeta | null = null;
      const blockMeta = (): BlockMeta => (decoded ??= decodeMeta(this.#meta.get(e.id)!['meta'] as Uint8Array));
      const meta = needle === undefined ? blockMeta() : null;
      blocksRead++;
      let rows: Iterable<number>;
      if (needle !== undefined) {
        const m = this.#matches(e.id, needle, pattern, e, blockMeta);
        counted += m.size;
        scannedRows += e.n;
        rows = m;
      } else {
        const typeCode = q.type === undefined ? -1 : meta!.types.indexOf(q.type);
        const picked: number[] = [];
        for (let i = e.n - 1; i >= 0 && picked.length < want; i--) if (typeCode < 0 || meta!.type[i] === typeCode) picked.push(i);
        rows = picked;
      }
      const md = meta ?? (!pageFull && [...rows].length > 0 ? blockMeta() : null);
      if (!pageFull && md !== null) {
        const meta = md;
        // A block's rows are in (createdAt, id) order: only its newest `want` matches can enter the page.
        const newest = [...rows].sort((a, b) => b - a).slice(0, want);
        for (const i of newest) page.push({ at: meta.createdAt[i]!, id: hexId(meta.idAt[i]!, meta.tails.subarray(i * 10, i * 10 + 10)) });
        page.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
        page.length = Math.min(page.length, want);
      }
    }
    if (needle !== undefined) {
      if (lowerBound > TOTAL_CAP && counted <= TOTAL_CAP) {
        // Known to be above the cap without reading every block: the frequent words' rows, scaled by what the read blocks held beyond them.
        estimated = true;
        total = lowerBound;
      } else if (counted > TOTAL_CAP) {
        estimated = true;
        total = Math.round((counted / scannedRows) * candidateRows);
      } else total = counted;
    }
    return { ids: page.slice(q.offset).map((p) => p.id), total, estimated, blocksRead };
  }
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-proto-'));
  const file = join(dir, 'blocks.db');
  const store = new BlockStore(file);
  const streams = new Map<string, LogRecord[]>();
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
  const parts = store.db.prepare('SELECT count(*) AS blocks, sum(length(bloom)) AS bloom, sum(length(tokens)) AS tokens, sum(length(meta)) AS meta, sum(length(text)) AS text FROM blocks').get()!;
  const per = (v: unknown): string => (Number(v) / ROWS).toFixed(1);
  console.log(`${DATA} data, ${ROWS.toLocaleString('en-US')} logs, blocks of ${BLOCK_ROWS}, zstd ${LEVEL}: built in ${buildS.toFixed(0)} s (sealing ${(sealMs / 1000).toFixed(0)} s, ${Math.round(ROWS / (sealMs / 1000))} logs/s sealed) (${load()})`);
  console.log(`  file ${(bytes / ROWS).toFixed(1)} B/log (${(bytes / 2 ** 20).toFixed(1)} MiB, ${parts['blocks']} blocks): bloom ${per(parts['bloom'])}, frequent words ${per(parts['tokens'])}, meta ${per(parts['meta'])}, text ${per(parts['text'])} B/log`);
  console.log(`  NDJSON ${(ndjsonBytes / ROWS).toFixed(1)} B/log, zstd -3 of it ${(zstd3Bytes / ROWS).toFixed(1)} B/log`);
  if (MEASURE_WORD_INDEX) console.log(`  an in-block word index (words + row lists, zstd) would add ${(wordIndexBytes / ROWS).toFixed(1)} B/log`);
  if (process.env['PROTO_QUERIES'] === '0') return;

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
    const run = (i: number): Answer => store.query({ limit: 50, offset: OFFSETS[Math.floor(i / variants.length) % OFFSETS.length]!, ...variants[i % variants.length]! });
    for (let i = 0; i < variants.length; i++) run(i);
    const samples: number[] = [];
    const cpu: number[] = [];
    let last: Answer | null = null;
    let blocks = 0;
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      const c = process.cpuUsage();
      last = run(i);
      samples.push(performance.now() - s);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      blocks += last.blocksRead;
    }
    const { p50, p95 } = percentiles(samples);
    const onCpu = percentiles(cpu);
    console.log(`  ${name}: p95 ${p95} ms, p50 ${p50} ms (CPU p95 ${onCpu.p95}, p50 ${onCpu.p50} ms); ${(blocks / RUNS).toFixed(0)} blocks read/query; last total ${last!.total}${last!.estimated ? ' (estimate)' : ''} (${load()})`);
  };
  if (DATA === 'bench') {
    measure('plain page (50, with total)', [{}]);
    measure('search, a word in 10 logs', RARE_WORDS.map((search) => ({ search })));
    measure('search, a word in 1 of 50 logs', COMMON_WORDS.map((search) => ({ search })));
    measure('type filter, a type in 1 of 20,000 logs', RARE_TYPES.map((type) => ({ type })));
    measure(
      'search, a word in 1 of 50 logs + level',
      COMMON_WORDS.flatMap((search) => ['error', 'warn', 'info'].map((level) => ({ search, level }))),
    );
  } else {
    measure('plain page (50, with total)', [{}]);
    measure('search, a player name', [{ search: 'tony vercetti' }, { search: 'mia santos' }, { search: 'kim price' }]);
    measure('search, an identifier (license:)', [{ search: 'license:' }]);
    measure('search, WEAPON_KNIFE + level warn', [{ search: 'weapon_knife', level: 'warn' }]);
    measure('type filter, Death', [{ type: 'Death' }]);
  }
  store.db.close();
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.main) await main();
