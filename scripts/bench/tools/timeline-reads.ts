/**
 * What a player's first timeline page costs the block log store (docs/PLAYERS.md, "The timeline on blocks"):
 * the players benchmark's logs (PLAYERS_BENCH_ROWS, default 1,000,000) stored straight into a BlockLogStore
 * with insertBatch (no identity: the tool knows which players each log names), then, for TIMELINE_PLAYERS
 * (default 200) random players, their 51 newest (createdAt, id) keys read with getByKeys, as the timeline does.
 * Prints per page, in this thread's CPU time (process.threadCpuUsage: it holds on a loaded machine) and wall:
 *   - getByKeys as the store answers it (its caches as a running service has them),
 *   - the same reads taken apart on a connection of their own: the blocks touched, the SQLite blob reads,
 *     the meta frame's zstd and its keys, the text frame's zstd, BlockText's lengths, the records built;
 *   - the text frames split into groups of G rows (each its own zstd frame, beside one with the block's
 *     first group as a dictionary): what decoding only a page's groups would cost, and the bytes a log (for a
 *     file whose texts are one frame a block; a file sealed in groups, block-text-dictionaries.ts, has its
 *     groups decoded by the part "text zstd", and this part is skipped).
 * TIMELINE_STORE_MODULE=<path of a block-log-store.ts> reads with another checkout's store;
 * TIMELINE_PARTS=0 stops after the first (an A/B of getByKeys on one file).
 * Run: `flock /work/helpers/bench.lock node_modules/.bin/node scripts/bench/tools/timeline-reads.ts`
 * (from the repository's root); TIMELINE_DB=<file> reuses a file an earlier run filled (kept with TIMELINE_KEEP=1).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { LogKey, LogRecord } from '@skald/ports';
import type * as StoreModule from '../../../libs/adapters/src/log-store/block-log-store.ts';
import { BlockMeta, BlockText, rowOf } from '../../../libs/adapters/src/log-store/block-codec.ts';
import { TextDictionaries } from '../../../libs/adapters/src/log-store/block-text-dictionaries.ts';
import { ByteReader, ByteWriter, zstdContentSize, zstdOutput } from '../../../libs/adapters/src/log-store/block-bytes.ts';

process.env['PLAYERS_BENCH_ROWS'] ??= '1000000';
const ROWS = Number(process.env['PLAYERS_BENCH_ROWS']);
const PLAYERS = Number(process.env['PLAYERS_BENCH_PLAYERS'] ?? 50_000);
const PICKED = Number(process.env['TIMELINE_PLAYERS'] ?? 200);
const PAGE = 51;
const GROUPS = [256, 512, 1024];
const DAY = 86_400_000;
// The bench module reads PLAYERS_BENCH_ROWS when loaded: imported after it is set.
const { SERVER, logAt } = await import('../benchmarks/players.bench.ts');
// TIMELINE_STORE_MODULE: another checkout's block-log-store.ts (an A/B of the store's code on one file).
const { BlockLogStore } = (await import(process.env['TIMELINE_STORE_MODULE'] ?? '../../../libs/adapters/src/log-store/block-log-store.ts')) as typeof StoreModule;

/** Wall ms of each part (thread CPU time counts in scheduler ticks here: parts are summed in CPU over all pages). */
function wallMs(): number {
  return performance.now();
}

function cpuMs(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

/** mulberry32: the same players every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The players a log names, as the recorder finds them: the first name of the message or metadata, a killer. */
function playersOf(log: ReturnType<typeof logAt>): number[] {
  const out: number[] = [];
  const add = (o: unknown): void => {
    if (o === null || typeof o !== 'object') return;
    const ids = (o as { identifiers?: unknown }).identifiers;
    if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string' && id.startsWith('fivem:')) out.push(Number(id.slice(6)) - 1_000_000);
  };
  const m = log.metadata;
  if (m !== null) for (const key of ['player', 'victim', 'killer']) add(m[key]);
  const license = /\(license:[0-9a-f]{8}([0-9a-f]{32})\)/.exec(log.message);
  if (license !== null) out.push(parseInt(license[1]!, 16));
  return out;
}

const random = seeded(33);
const picked = new Map<number, LogKey[]>();
while (picked.size < Math.min(PICKED, PLAYERS)) picked.set(Math.floor(random() * PLAYERS), []);

const dir = mkdtempSync(join(tmpdir(), 'skald-timeline-'));
const file = process.env['TIMELINE_DB'] ?? join(dir, 'logs.db');
const fill = !existsSync(file);
const t0 = performance.now();
for (let i = 0; i < ROWS; i++) {
  const log = logAt(i);
  for (const p of playersOf(log)) {
    const keys = picked.get(p);
    if (keys === undefined) continue;
    keys.push({ createdAt: log.createdAt, id: log.id });
    if (keys.length > PAGE) keys.shift();
  }
}
if (fill) {
  const store = new BlockLogStore(file);
  const BATCH = 10_000;
  for (let i = 0; i < ROWS; i += BATCH) {
    const batch: LogRecord[] = [];
    for (let j = i; j < Math.min(ROWS, i + BATCH); j++) {
      const log = logAt(j);
      batch.push({ ...log, serverId: SERVER, expiresAt: log.createdAt + 90 * DAY });
    }
    await store.insertBatch(batch);
  }
  await store.sealAll();
  await store.close();
}
if (!fill) {
  // The bench's logs are timed from the moment its module loads: a file filled by an earlier run is shifted by
  // the difference of the first log's time (the ids do not move).
  const reader = new DatabaseSync(file, { readOnly: true });
  const first = Number(reader.prepare('SELECT min(min_at) AS at FROM blocks').get()?.['at']);
  reader.close();
  const shift = first - logAt(0).createdAt;
  for (const keys of picked.values()) keys.forEach((k, i) => (keys[i] = { createdAt: k.createdAt + shift, id: k.id }));
}
console.log(`${ROWS} logs, ${fill ? 'filled' : 'reused'} in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${picked.size} players' ${PAGE} newest keys; load ${loadavg()[0]!.toFixed(1)}`);

const pct = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const row = (name: string, values: number[]): string => `  ${name.padEnd(34)} p50 ${pct(values, 50).toFixed(2).padStart(7)}  p95 ${pct(values, 95).toFixed(2).padStart(7)}  mean ${mean(values).toFixed(2).padStart(7)}`;
const pages = [...picked.values()].map((keys) => [...keys].reverse());

// 1. getByKeys as the store answers it.
{
  const store = new BlockLogStore(file);
  const cpu: number[] = [];
  const wall: number[] = [];
  const againCpu: number[] = [];
  let read = 0;
  let processUs = 0;
  for (const keys of pages) {
    const p0 = process.cpuUsage();
    const c = cpuMs();
    const w = performance.now();
    read += (await store.getByKeys(SERVER, keys)).length;
    cpu.push(cpuMs() - c);
    wall.push(performance.now() - w);
    const used = process.cpuUsage(p0);
    processUs += used.user + used.system;
    // The same page again at once (a reload): what the store kept of the first read.
    const again = cpuMs();
    await store.getByKeys(SERVER, keys);
    againCpu.push(cpuMs() - again);
  }
  const decodes = store.decodes();
  await store.close();
  console.log(`getByKeys (${read} of ${pages.reduce((a, k) => a + k.length, 0)} logs read; decodes: ${decodes.keys} meta, ${decodes.text} text), ms a page, load ${loadavg()[0]!.toFixed(1)}:`);
  console.log(row('CPU of this thread', cpu));
  console.log(`  CPU of the process (the thread pool's decodes too), a page: ${(processUs / 1000 / pages.length).toFixed(2)} ms`);
  console.log(row('wall', wall));
  console.log(row('the same page again, CPU', againCpu));
}
if (process.env['TIMELINE_PARTS'] === '0') process.exit(0);

// 2. The same reads taken apart (no caches: each page reads its blocks afresh), CPU ms a page by part.
const db = new DatabaseSync(file, { readOnly: true });
const blocks = db.prepare('SELECT block_id, min_at, max_at, n, length(text) AS t FROM blocks ORDER BY max_at DESC').all().map((r) => ({ id: Number(r['block_id']), minAt: Number(r['min_at']), maxAt: Number(r['max_at']), n: Number(r['n']), textBytes: Number(r['t']) }));
const metaOf = db.prepare('SELECT meta AS b FROM blocks WHERE block_id = ?');
const textOf = db.prepare('SELECT text AS b FROM blocks WHERE block_id = ?');
const hasDictionaries = db.prepare("SELECT 1 AS yes FROM sqlite_master WHERE name = 'text_dictionaries'").get() !== undefined;
const dictionaries = new TextDictionaries((sql) => db.prepare(sql));
let grouped = 0;
const parts = { blocks: [] as number[], blob: [] as number[], metaZstd: [] as number[], metaKeys: [] as number[], textZstd: [] as number[], lengths: [] as number[], records: [] as number[], total: [] as number[], totalWall: [] as number[], rawText: [] as number[] };
const touched: { blockId: number; n: number; rows: number[]; raw: Buffer }[][] = [];
for (const keys of pages) {
  const p = { blob: 0, metaZstd: 0, metaKeys: 0, textZstd: 0, lengths: 0, records: 0 };
  const start = cpuMs();
  const startWall = wallMs();
  let n = 0;
  let rawBytes = 0;
  const mine: { blockId: number; n: number; rows: number[]; raw: Buffer }[] = [];
  for (const b of blocks) {
    const inRange = keys.filter((k) => k.createdAt >= b.minAt && k.createdAt <= b.maxAt);
    if (inRange.length === 0) continue;
    let t = wallMs();
    const metaBlob = metaOf.get(b.id)!['b'] as Uint8Array;
    p.blob += wallMs() - t;
    t = wallMs();
    // Into one buffer of the size the frame states, as the store decompresses it.
    const metaRaw = zstdDecompressSync(metaBlob, zstdOutput(zstdContentSize(metaBlob)));
    p.metaZstd += wallMs() - t;
    t = wallMs();
    const meta = new BlockMeta(metaRaw);
    const rows = inRange.map((k) => rowOf(meta, k.createdAt, k.id)).filter((r) => r >= 0);
    p.metaKeys += wallMs() - t;
    if (rows.length === 0) continue;
    n++;
    t = wallMs();
    const textBlob = textOf.get(b.id)!['b'] as Uint8Array;
    p.blob += wallMs() - t;
    if (hasDictionaries && textBlob[0] === 1) {
      // Groups: the rows' groups decompressed in one call (and their lengths read), as getByKeys reads them.
      grouped++;
      t = wallMs();
      const text = new BlockText(textBlob, b.n, true, dictionaries.raw);
      text.readRows(rows);
      for (const r of rows) text.message(r);
      p.textZstd += wallMs() - t;
      rawBytes += text.groupsDecoded;
      t = wallMs();
      for (const r of rows.sort((x, y) => x - y)) meta.record(SERVER, text, r);
      p.records += wallMs() - t;
      continue;
    }
    t = wallMs();
    const raw = zstdDecompressSync(textBlob);
    p.textZstd += wallMs() - t;
    rawBytes += raw.length;
    t = wallMs();
    const text = new BlockText(raw, b.n, false);
    p.lengths += wallMs() - t;
    t = wallMs();
    for (const r of rows.sort((x, y) => x - y)) meta.record(SERVER, text, r);
    p.records += wallMs() - t;
    mine.push({ blockId: b.id, n: b.n, rows, raw });
  }
  touched.push(mine);
  parts.total.push(cpuMs() - start);
  parts.totalWall.push(wallMs() - startWall);
  parts.blocks.push(n);
  parts.rawText.push(grouped > 0 ? rawBytes : rawBytes / 1024);
  parts.blob.push(p.blob);
  parts.metaZstd.push(p.metaZstd);
  parts.metaKeys.push(p.metaKeys);
  parts.textZstd.push(p.textZstd);
  parts.lengths.push(p.lengths);
  parts.records.push(p.records);
}
console.log(`taken apart, uncached, ms a page (parts in wall; blocks: with a row of the page), load ${loadavg()[0]!.toFixed(1)}:`);
console.log(row('blocks touched (count)', parts.blocks));
console.log(row(grouped > 0 ? 'text groups decoded (count)' : 'text decoded (KiB)', parts.rawText));
console.log(row('SQLite blob reads', parts.blob));
console.log(row('meta zstd', parts.metaZstd));
console.log(row('meta keys + binary search', parts.metaKeys));
console.log(row('text zstd', parts.textZstd));
console.log(row('BlockText lengths', parts.lengths));
console.log(row('records built', parts.records));
console.log(row('total, wall', parts.totalWall));
console.log(row('total, CPU', parts.total));
const partSum = ['blob', 'metaZstd', 'metaKeys', 'textZstd', 'lengths', 'records'] as const;
const wallSum = partSum.reduce((a, k) => a + mean(parts[k]), 0);
console.log(`  shares of the wall: ${partSum.map((k) => `${k} ${((100 * mean(parts[k])) / wallSum).toFixed(0)}%`).join(', ')}`);

if (grouped > 0) {
  console.log(`texts in groups (${grouped} block reads): the regrouping below is for files of one frame a block`);
  db.close();
  if (process.env['TIMELINE_KEEP'] === '1' && process.env['TIMELINE_DB'] === undefined) console.log(`kept ${file}`);
  else if (process.env['TIMELINE_DB'] === undefined) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
// 3. The text frames split into groups of G rows: a row's message and metadata in its group's frame.
const level = { params: { [constants.ZSTD_c_compressionLevel]: 6 } };
/** The text frame's rows [from, to) as a frame of their own: the lengths, then messages, then metadata. */
function groupBytes(raw: Buffer, n: number, from: number, to: number): Buffer {
  const r = new ByteReader(raw);
  const lengths: number[] = [];
  for (let i = 0; i < 2 * n; i++) lengths.push(r.varint());
  const ends: number[] = [];
  let end = r.pos;
  for (const l of lengths) ends.push((end += l));
  const seg = (i: number): Buffer => raw.subarray(i === 0 ? r.pos : ends[i - 1]!, ends[i]!);
  const head = new ByteWriter();
  for (let i = from; i < to; i++) head.varint(lengths[i]!);
  for (let i = from; i < to; i++) head.varint(lengths[n + i]!);
  const parts: Buffer[] = [head.done()];
  for (let i = from; i < to; i++) parts.push(seg(i));
  for (let i = from; i < to; i++) parts.push(seg(n + i));
  return Buffer.concat(parts);
}
const sample = touched.flat().filter((b, i, all) => all.findIndex((o) => o.blockId === b.blockId) === i);
let oneFrame = 0;
let logs = 0;
for (const b of sample) {
  oneFrame += (textOf.get(b.blockId)!['b'] as Uint8Array).length;
  logs += b.n;
}
console.log(`text frames in groups (the ${sample.length} blocks the pages touched; one frame: ${(oneFrame / logs).toFixed(1)} B a log), wall ms a page to decode the page's groups:`);
for (const g of GROUPS) {
  const frames = new Map<number, { plain: Buffer[]; dict: Buffer[]; first: Buffer }>();
  let plainBytes = 0;
  let dictBytes = 0;
  for (const b of sample) {
    const plain: Buffer[] = [];
    const dict: Buffer[] = [];
    const first = groupBytes(b.raw, b.n, 0, Math.min(g, b.n));
    for (let from = 0; from < b.n; from += g) {
      const bytes = groupBytes(b.raw, b.n, from, Math.min(b.n, from + g));
      plain.push(zstdCompressSync(bytes, level));
      dict.push(from === 0 ? zstdCompressSync(bytes, level) : zstdCompressSync(bytes, { ...level, dictionary: first }));
    }
    plainBytes += plain.reduce((a, f) => a + f.length, 0);
    dictBytes += dict.reduce((a, f) => a + f.length, 0);
    frames.set(b.blockId, { plain, dict, first });
  }
  const plainMs: number[] = [];
  const dictMs: number[] = [];
  const c0 = cpuMs();
  for (const page of touched) {
    let t = wallMs();
    for (const b of page) for (const gi of new Set(b.rows.map((r) => Math.floor(r / g)))) zstdDecompressSync(frames.get(b.blockId)!.plain[gi]!);
    plainMs.push(wallMs() - t);
    t = wallMs();
    for (const b of page) {
      const f = frames.get(b.blockId)!;
      const groups = new Set(b.rows.map((r) => Math.floor(r / g)));
      // The dictionary is the first group, decoded once per block when another group needs it.
      const first = zstdDecompressSync(f.dict[0]!);
      for (const gi of groups) if (gi !== 0) zstdDecompressSync(f.dict[gi]!, { dictionary: first });
    }
    dictMs.push(wallMs() - t);
  }
  const cpuBoth = cpuMs() - c0;
  console.log(`  groups of ${g}: ${(plainBytes / logs).toFixed(1)} B a log, ${(dictBytes / logs).toFixed(1)} with group 0 as dictionary`);
  console.log(`    CPU of both, a page: ${(cpuBoth / touched.length).toFixed(2)} ms (wall means ${(mean(plainMs) + mean(dictMs)).toFixed(2)})`);
  console.log(row(`  ${g}: decode the page's groups`, plainMs));
  console.log(row(`  ${g}: the same, dictionary`, dictMs));
}
db.close();
if (process.env['TIMELINE_KEEP'] === '1' && process.env['TIMELINE_DB'] === undefined) console.log(`kept ${file}`);
else if (process.env['TIMELINE_DB'] === undefined) rmSync(dir, { recursive: true, force: true });
