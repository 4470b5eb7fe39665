/**
 * What splitting a block's text frame into groups of rows costs on disk (docs/PLAYERS.md, "The timeline on
 * blocks"): TEXT_GROUPS_ROWS (default 200,000) logs of a data set (TEXT_GROUPS_DATA: `fivem`, the storage
 * bench's FiveM lines, default; or `players`, the players bench's logs) stored straight into a BlockLogStore
 * (insertBatch, then sealAll), then every block's text frame taken apart and compressed again in groups of G
 * rows (1,024 and 2,048), at the store's zstd level, each group its own frame:
 *   - `columns`: a group's lengths, then its messages, then its metadata (the one frame's layout, per group);
 *   - `rows`: a group's lengths, then each row's message followed by its metadata;
 * each plain, and with the block's first group (decompressed) as a zstd dictionary for the other groups.
 * Printed: bytes a log of the text frames (one frame, as stored, against each grouping), plus the varints a
 * block needs to find its groups; and the total bytes a log of the store's file after close for the one frame.
 * Run: `flock /work/helpers/bench.lock node_modules/.bin/node scripts/bench/tools/text-groups.ts` from the
 * repository's root.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { LogRecord } from '@skald/ports';
import { BlockLogStore } from '../../../libs/adapters/src/log-store/block-log-store.ts';
import { BLOCK_ZSTD_LEVEL } from '../../../libs/adapters/src/log-store/block-codec.ts';
import { ByteReader, ByteWriter } from '../../../libs/adapters/src/log-store/block-bytes.ts';
import { fivemBatch } from '../harness/fivem-logs.ts';

const ROWS = Number(process.env['TEXT_GROUPS_ROWS'] ?? 200_000);
const DATA = process.env['TEXT_GROUPS_DATA'] ?? 'fivem';
const GROUPS = [1024, 2048];
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const BATCH = 10_000;

/** Logs start..start+count of the data set. */
async function batchOf(start: number, count: number): Promise<LogRecord[]> {
  if (DATA === 'fivem') return fivemBatch('bench-server', start, count, ROWS, T0);
  process.env['PLAYERS_BENCH_ROWS'] ??= String(ROWS);
  const { SERVER, logAt } = await import('../benchmarks/players.bench.ts');
  return Array.from({ length: count }, (_, j) => {
    const log = logAt(start + j);
    return { ...log, serverId: SERVER, expiresAt: log.createdAt + 90 * DAY };
  });
}

const dir = mkdtempSync(join(tmpdir(), 'skald-text-groups-'));
const file = join(dir, 'logs.db');
const store = new BlockLogStore(file);
for (let i = 0; i < ROWS; i += BATCH) await store.insertBatch(await batchOf(i, Math.min(BATCH, ROWS - i)));
await store.sealAll();
await store.close();
const fileBytes = statSync(file).size;

/** A text frame's segments: message i is segments[i], metadata i is segments[n + i]. */
function segmentsOf(raw: Buffer, n: number): Buffer[] {
  const r = new ByteReader(raw);
  const lengths: number[] = [];
  for (let i = 0; i < 2 * n; i++) lengths.push(r.varint());
  const out: Buffer[] = [];
  let at = r.pos;
  for (const l of lengths) {
    out.push(raw.subarray(at, at + l));
    at += l;
  }
  return out;
}

/** Rows [from, to) as a group: their lengths, then their bytes in the layout's order. */
function groupBytes(segments: readonly Buffer[], n: number, from: number, to: number, layout: 'columns' | 'rows'): Buffer {
  const order: Buffer[] = [];
  if (layout === 'columns') {
    for (let i = from; i < to; i++) order.push(segments[i]!);
    for (let i = from; i < to; i++) order.push(segments[n + i]!);
  } else {
    for (let i = from; i < to; i++) order.push(segments[i]!, segments[n + i]!);
  }
  const w = new ByteWriter();
  for (const s of order) w.varint(s.length);
  for (const s of order) w.bytes(s);
  return Buffer.from(w.done());
}

const level = { params: { [constants.ZSTD_c_compressionLevel]: BLOCK_ZSTD_LEVEL } };
const db = new DatabaseSync(file, { readOnly: true });
const blocks = db.prepare('SELECT stream, n, text FROM blocks ORDER BY stream, min_at').all();
/** Per stream: the first block's first DICT_ROWS rows (columns layout), a dictionary every block of the stream uses. */
const streamDictionaries = new Map<string, Buffer>();
const DICT_ROWS = [256, 1024];
let logs = 0;
let oneFrame = 0;
const sizes = new Map<string, number>();
const add = (name: string, bytes: number): void => void sizes.set(name, (sizes.get(name) ?? 0) + bytes);
for (const b of blocks) {
  const n = Number(b['n']);
  const text = b['text'] as Uint8Array;
  logs += n;
  oneFrame += text.length;
  const segments = segmentsOf(zstdDecompressSync(text), n);
  const stream = String(b['stream']);
  for (const d of DICT_ROWS) {
    const key = `${stream} ${d}`;
    let shared = streamDictionaries.get(key);
    if (shared === undefined) {
      shared = groupBytes(segments, n, 0, Math.min(d, n), 'columns');
      streamDictionaries.set(key, shared);
      // Stored once a stream, compressed.
      add(`${1024} shared dict of ${d}`, zstdCompressSync(shared, level).length);
      add(`${2048} shared dict of ${d}`, zstdCompressSync(shared, level).length);
    }
    for (const g of GROUPS) for (let from = 0; from < n; from += g) add(`${g} shared dict of ${d}`, zstdCompressSync(groupBytes(segments, n, from, Math.min(n, from + g), 'columns'), { ...level, dictionary: shared }).length + 2);
    // The block's own first d rows as a small group and dictionary, then groups of 1,024 after it.
    const own = groupBytes(segments, n, 0, Math.min(d, n), 'columns');
    add(`own ${d} + 1024s`, zstdCompressSync(own, level).length);
    for (let from = d; from < n; from += 1024) add(`own ${d} + 1024s`, zstdCompressSync(groupBytes(segments, n, from, Math.min(n, from + 1024), 'columns'), { ...level, dictionary: own }).length + 2);
  }
  for (const g of GROUPS) {
    for (const layout of ['columns', 'rows'] as const) {
      const first = groupBytes(segments, n, 0, Math.min(g, n), layout);
      // Where each group's frame ends: a varint per group.
      const offsets = new ByteWriter();
      let plainEnd = 0;
      for (let from = 0; from < n; from += g) {
        const bytes = from === 0 ? first : groupBytes(segments, n, from, Math.min(n, from + g), layout);
        const plain = zstdCompressSync(bytes, level).length;
        const dict = from === 0 ? plain : zstdCompressSync(bytes, { ...level, dictionary: first }).length;
        add(`${g} ${layout} plain`, plain);
        add(`${g} ${layout} dictionary`, dict);
        offsets.varint((plainEnd += plain));
      }
      add(`${g} ${layout} plain`, offsets.done().length);
      add(`${g} ${layout} dictionary`, offsets.done().length);
    }
  }
}
db.close();
rmSync(dir, { recursive: true, force: true });

console.log(`${DATA}: ${logs} logs in ${blocks.length} blocks; load ${loadavg()[0]!.toFixed(1)}`);
console.log(`  store's file after close: ${(fileBytes / logs).toFixed(1)} B a log; text frames, one a block: ${(oneFrame / logs).toFixed(2)} B a log`);
for (const [name, bytes] of sizes) {
  console.log(`  groups of ${name.padEnd(22)} ${(bytes / logs).toFixed(2).padStart(6)} B a log of text (${((bytes - oneFrame) / logs >= 0 ? '+' : '') + ((bytes - oneFrame) / logs).toFixed(2)})`);
}
