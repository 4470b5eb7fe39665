/**
 * Disk per stored log and the write-ahead log under sustained ingest (docs/STORAGE.md). Each data set: the search
 * bench's generator and realistic FiveM lines (fivem-logs.ts). BENCH_STORAGE_ROWS (default 200,000) logs of one
 * server go through the SQLite log store as the service sends them: batches of BATCH, the event loop given a turn
 * after each, the search index on (its background indexer and the process's WAL checkpointer running as in
 * the service). Then the bench waits until every row is indexed and closes the store gracefully.
 * Printed, each beside the NDJSON of the same logs in the native API's shape and zstd -3 of that stream,
 * measured in the same run:
 * - bytes per log of the store's file after close (everything: logs, search index, indexes, rollups);
 *   target <= 60 B;
 * - bytes per log of the compressed-block layout (storage-prototype.ts) for the same logs;
 * - the largest WAL file seen during ingest and indexing (target < 64 MiB), and what the close leaves (target 0);
 * - the ingest rate (logs/s, wall clock), and the event loop's delay meanwhile (p99 and max: what a request
 *   waits behind the store's commits, seals and checkpoints).
 * Then the same data set (generated again: the same lines, other ids) through the block store (LOG_LAYOUT=blocks,
 * block-log-store.ts) the same way: its ingest rate beside the row store's (target >= 80 %), the time until its
 * sealer caught up (as the row store's index), then bytes per log after a graceful close (which seals the tails
 * short of full), its largest WAL and what the close leaves.
 * For the search bench's data set, the block store is then reopened and searched: p95 and p50 of a page of 50
 * with its total for the search bench's shapes (a word in 10 logs, a word in 1 of 50, that word with a level, a
 * type in 1 of 20,000, a plain page; logType text, offsets 0-150), BENCH_STORAGE_RUNS (default 40) of each.
 * Run: `npm run bench -- storage` or `BENCH_STORAGE_ROWS=50000 BENCH_STORAGE_DATA=fivem npm run bench -- storage`;
 * BENCH_STORAGE_STORES=blocks skips the row store (its indexing is most of the run at a million logs).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ELDHistogram } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { constants, zstdCompressSync } from 'node:zlib';
import type { LogQuery, LogRecord } from '@skald/ports';
import { BlockLogStore } from '../../../libs/adapters/src/log-store/block-log-store.ts';
import { SqliteLogStore } from '../../../libs/adapters/src/log-store/sqlite-log-store.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { fivemBatch } from '../harness/fivem-logs.ts';
import { COMMON_WORDS, RARE_TYPES, RARE_WORDS, makeBatch } from './search.bench.ts';
import { BlockStore, seal } from '../harness/storage-prototype.ts';
import { machineLoad, percentiles } from '../harness/samples.ts';

const ROWS = Number(process.env['BENCH_STORAGE_ROWS'] ?? 200_000);
/** makeBatch's size (search.bench.ts); the store gets each split in BATCH-sized inserts. */
const GENERATED = 1000;
const BATCH = 100;
const BLOCK_ROWS = 4096;
const T0 = Date.UTC(2025, 0, 1);
const MIB = 1024 * 1024;
const INDEX_TIMEOUT_MS = 15 * 60_000;
const SEARCH_RUNS = Number(process.env['BENCH_STORAGE_RUNS'] ?? 40);
const OFFSETS = [0, 50, 100, 150];

/** The event loop's delay, sampled every millisecond while a store ingests. */
function loopDelay(): ELDHistogram {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  return histogram;
}

function describeDelay(histogram: ELDHistogram): string {
  histogram.disable();
  const ms = (ns: number): string => (ns / 1e6).toFixed(1);
  return `event-loop delay p50 ${ms(histogram.percentile(50))} ms, p99 ${ms(histogram.percentile(99))} ms, max ${ms(histogram.max)} ms`;
}

function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

function ndjsonLine(r: LogRecord): string {
  // The native API's body for one log (POST /logs): what a game server sends.
  return JSON.stringify({ level: r.level, type: r.type, message: r.message, resource: r.resource, ...(r.metadata === null ? {} : { metadata: r.metadata }) });
}

interface DataSet {
  readonly name: string;
  readonly batch: (start: number) => LogRecord[];
}

/**
 * A UUIDv7 of the log's own time, as ingestion mints one for a log it receives then. makeBatch takes ingestion's
 * uuidv7(), which is monotonic per process: the second pass over the same times (the block store's) got ids
 * stamped at the end of the first pass's span, whose distance to created_at the block codec then stores (~5 B a
 * log more than ids of the log's time).
 */
function ownTimeId(createdAt: number): string {
  const random = randomUUID();
  const time = createdAt.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${random.slice(19, 23)}-${random.slice(24)}`;
}

const DATA_SETS: readonly DataSet[] = [
  { name: 'search bench logs', batch: (start) => makeBatch(start, ROWS, T0).map((r) => ({ ...r, id: ownTimeId(r.createdAt) })) },
  { name: 'FiveM logs', batch: (start) => fivemBatch('bench-server', start, GENERATED, ROWS, T0) },
];

/** NDJSON bytes of the logs and zstd -3 of that stream (8 MiB windows, within ~1% of `zstd -3` of the whole file). */
class Baselines {
  ndjson = 0;
  zstd3 = 0;
  #window: Buffer[] = [];
  #windowBytes = 0;
  add(logs: readonly LogRecord[]): void {
    const chunk = Buffer.from(`${logs.map(ndjsonLine).join('\n')}\n`);
    this.ndjson += chunk.length;
    this.#window.push(chunk);
    this.#windowBytes += chunk.length;
    if (this.#windowBytes >= 8 * MIB) this.flush();
  }
  flush(): void {
    if (this.#windowBytes === 0) return;
    this.zstd3 += zstdCompressSync(Buffer.concat(this.#window), { params: { [constants.ZSTD_c_compressionLevel]: 3 } }).length;
    this.#window = [];
    this.#windowBytes = 0;
  }
}

/** The compressed-block layout (docs/STORAGE.md) of the same logs: per-level streams sealed into blocks. */
class BlockLayout {
  readonly #file: string;
  readonly #store: BlockStore;
  readonly #streams = new Map<string, LogRecord[]>();
  constructor(dir: string) {
    this.#file = join(dir, 'blocks.db');
    this.#store = new BlockStore(this.#file);
  }
  add(logs: readonly LogRecord[]): void {
    this.#store.db.exec('BEGIN');
    for (const r of logs) {
      const key = r.level.toLowerCase();
      const rows = this.#streams.get(key) ?? [];
      rows.push(r);
      this.#streams.set(key, rows);
      if (rows.length === BLOCK_ROWS) {
        this.#store.write(seal(key, rows));
        this.#streams.set(key, []);
      }
    }
    this.#store.db.exec('COMMIT');
  }
  /** Seals what the streams hold and answers the file's size with its WAL checkpointed away. */
  finish(): number {
    for (const [key, rows] of this.#streams) if (rows.length > 0) this.#store.write(seal(key, rows));
    this.#store.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    this.#store.db.close();
    return sizeOf(this.#file);
  }
}

interface Run {
  readonly bytes: number;
  readonly blockBytes: number;
  readonly ndjson: number;
  readonly zstd3: number;
  readonly maxWal: number;
  readonly walLeft: number;
  readonly rate: number;
  readonly indexedAfterMs: number;
  readonly loopDelay: string;
}

/**
 * One pass over the data set (generated once: its UUIDv7 ids depend on the generator's clock state): each
 * generated batch goes to the store, to the block layout and to the baselines. The ingest rate counts only the
 * time not spent on the latter two. Then the store's file per log after indexing and a graceful close, and the
 * WAL's high-water mark meanwhile.
 */
async function run(dir: string, data: DataSet): Promise<Run> {
  const file = join(dir, 'logs.db');
  const wal = `${file}-wal`;
  const store = new SqliteLogStore(file);
  const blocks = new BlockLayout(dir);
  const baselines = new Baselines();
  let maxWal = 0;
  const sample = (): void => {
    maxWal = Math.max(maxWal, sizeOf(wal));
  };
  let aside = 0;
  const delay = loopDelay();
  const started = performance.now();
  for (let start = 0; start < ROWS; start += GENERATED) {
    const logs = data.batch(start);
    const t = performance.now();
    baselines.add(logs);
    blocks.add(logs);
    aside += performance.now() - t;
    for (let i = 0; i < logs.length; i += BATCH) {
      await store.insertBatch(logs.slice(i, i + BATCH));
      sample();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const rate = Math.round(ROWS / ((performance.now() - started - aside) / 1000));
  const ingestDelay = describeDelay(delay);
  baselines.flush();
  const blockBytes = blocks.finish();
  // A reader as searches would be: short read transactions, now and then.
  const check = new DatabaseSync(file, { readOnly: true });
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  for (;;) {
    sample();
    if (Number(check.prepare('SELECT count(*) AS n FROM logs WHERE fts_rowid IS NULL').get()?.['n']) === 0) break;
    if (Date.now() > deadline) throw new Error('the search index did not catch up within 15 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const indexedAfterMs = Math.round(performance.now() - started);
  check.close();
  await store.close();
  return { bytes: sizeOf(file), blockBytes, ndjson: baselines.ndjson, zstd3: baselines.zstd3, maxWal, walLeft: sizeOf(wal), rate, indexedAfterMs, loopDelay: ingestDelay };
}

interface BlockRun {
  readonly file: string;
  readonly bytes: number;
  readonly maxWal: number;
  readonly walLeft: number;
  readonly rate: number;
  /** From the first insert until the sealer caught up (every full block's worth sealed), as the row store's indexedAfterMs. */
  readonly sealedAfterMs: number;
  /** What the graceful close took (it seals the tails short of full). */
  readonly closeMs: number;
  readonly loopDelay: string;
}

/**
 * The data set through the block store as the service sends it (batches of BATCH, a turn after each); then, as the
 * row store's run waits for its search index, a wait for the sealer to catch up; then a graceful close (which
 * seals the tails short of full).
 */
async function runBlockStore(dir: string, data: DataSet): Promise<BlockRun> {
  const file = join(dir, 'blocks-store.db');
  const wal = `${file}-wal`;
  const store = new BlockLogStore(file);
  let maxWal = 0;
  let generating = 0;
  const delay = loopDelay();
  const started = performance.now();
  for (let start = 0; start < ROWS; start += GENERATED) {
    const t = performance.now();
    const logs = data.batch(start);
    generating += performance.now() - t;
    for (let i = 0; i < logs.length; i += BATCH) {
      await store.insertBatch(logs.slice(i, i + BATCH));
      maxWal = Math.max(maxWal, sizeOf(wal));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const rate = Math.round(ROWS / ((performance.now() - started - generating) / 1000));
  const ingestDelay = describeDelay(delay);
  await store.sealDue();
  const sealedAfterMs = Math.round(performance.now() - started - generating);
  maxWal = Math.max(maxWal, sizeOf(wal));
  const closing = performance.now();
  await store.close();
  return { file, bytes: sizeOf(file), maxWal, walLeft: sizeOf(wal), rate, sealedAfterMs, closeMs: Math.round(performance.now() - closing), loopDelay: ingestDelay };
}

interface SearchShape {
  readonly name: string;
  readonly query: (k: number) => Omit<LogQuery, 'serverId' | 'offset' | 'limit'>;
}

/** The search bench's query shapes (search.bench.ts), each cycling through its words or types. */
const SEARCH_SHAPES: readonly SearchShape[] = [
  { name: 'a word in 10 logs', query: (k) => ({ search: RARE_WORDS[k % RARE_WORDS.length]! }) },
  { name: 'a word in 1 of 50 logs', query: (k) => ({ search: COMMON_WORDS[k % COMMON_WORDS.length]! }) },
  { name: 'a word in 1 of 50 logs + level', query: (k) => ({ search: COMMON_WORDS[k % COMMON_WORDS.length]!, level: ['info', 'warn', 'error'][k % 3]! }) },
  { name: 'a type in 1 of 20,000 logs', query: (k) => ({ type: RARE_TYPES[k % RARE_TYPES.length]! }) },
  { name: 'plain page', query: () => ({}) },
];

/** The block store's file reopened (as after a restart) and searched: p95 / p50 wall of each shape, and what it decoded. */
async function searchBlockStore(file: string): Promise<{ name: string; p50: number; p95: number; cpu: string; decoded: string }[]> {
  const store = new BlockLogStore(file);
  try {
    const out = [];
    for (const shape of SEARCH_SHAPES) {
      const samples: number[] = [];
      // The process's CPU time per query beside the wall time: on a shared machine the wall time is mostly waiting for a core.
      const cpu: number[] = [];
      const before = store.decodes();
      for (let k = 0; k < SEARCH_RUNS; k++) {
        const t = performance.now();
        const c = process.cpuUsage();
        await store.query({ serverId: 'bench-server', logType: 'text', ...shape.query(k), offset: OFFSETS[k % OFFSETS.length]!, limit: 50 });
        samples.push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpu.push((used.user + used.system) / 1000);
      }
      const cpuAt = percentiles(cpu);
      const after = store.decodes();
      const perQuery = (key: keyof typeof after): string => ((after[key] - before[key]) / SEARCH_RUNS).toFixed(1);
      const decoded = `decoded a query: ${perQuery('columns')} blocks' columns, ${perQuery('keys')} keys, ${perQuery('text')} texts, ${perQuery('dictionaries')} dictionaries, ${perQuery('rareRows')} rare-row frames`;
      out.push({ name: shape.name, ...percentiles(samples), cpu: `CPU p95 ${cpuAt.p95} ms, p50 ${cpuAt.p50} ms`, decoded });
    }
    return out;
  } finally {
    await store.close();
  }
}

export default async function storageBenchmark(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const perLog = (bytes: number): number => Number((bytes / ROWS).toFixed(1));
  // BENCH_STORAGE_DATA=fivem (or bench): one data set only.
  const only = process.env['BENCH_STORAGE_DATA']?.toLowerCase();
  const rowsToo = process.env['BENCH_STORAGE_STORES'] !== 'blocks';
  for (const data of DATA_SETS.filter((d) => only === undefined || d.name.toLowerCase().includes(only))) {
    const dir = await mkdtemp(join(tmpdir(), 'skald-bench-storage-'));
    try {
      const size = `${ROWS.toLocaleString('en-US')} logs`;
      let store: Run | null = null;
      let baseline: string | undefined;
      if (rowsToo) {
        store = await run(dir, data);
        const blocks = store.blockBytes;
        baseline = `NDJSON ${perLog(store.ndjson)} B/log; zstd -3 of it ${perLog(store.zstd3)} B/log`;
        console.log(`${data.name}: row store ${perLog(store.bytes)} B/log, blocks ${perLog(blocks)} B/log, WAL max ${(store.maxWal / MIB).toFixed(1)} MiB, left ${store.walLeft} B (${machineLoad()})`);
        rows.push({
          name: `${data.name}: bytes per log on disk, row store with its search index`,
          value: perLog(store.bytes),
          unit: 'B/log',
          target: '<= 60 B/log',
          pass: store.bytes / ROWS <= 60,
          baseline,
          note: `${size}; file after a graceful close, every row indexed; ${machineLoad()}`,
        });
        rows.push({
          name: `${data.name}: bytes per log, compressed-block layout prototype (docs/STORAGE.md)`,
          value: perLog(blocks),
          unit: 'B/log',
          target: '<= 60 B/log',
          pass: blocks / ROWS <= 60,
          baseline,
          note: `${size}; blocks of ${BLOCK_ROWS} per level stream, WAL checkpointed; ${machineLoad()}`,
        });
        rows.push({
          name: `${data.name}: largest WAL during ingest and indexing`,
          value: Number((store.maxWal / MIB).toFixed(1)),
          unit: 'MiB',
          target: '< 64 MiB',
          pass: store.maxWal < 64 * MIB,
          note: `sampled after every insert of ${BATCH} and every 250 ms until indexed (${(store.indexedAfterMs / 1000).toFixed(0)} s after the first insert); ${machineLoad()}`,
        });
        rows.push({ name: `${data.name}: WAL left after a graceful close`, value: store.walLeft, unit: 'bytes', target: '0', pass: store.walLeft === 0 });
        rows.push({ name: `${data.name}: ingest with the search index on`, value: store.rate, unit: 'logs/s', note: `batches of ${BATCH}, the event loop given a turn after each; ${store.loopDelay}; ${machineLoad()}` });
      }
      const blockStore = await runBlockStore(dir, data);
      console.log(
        `${data.name}: block store ${perLog(blockStore.bytes)} B/log, WAL max ${(blockStore.maxWal / MIB).toFixed(1)} MiB, left ${blockStore.walLeft} B, ${blockStore.rate} logs/s (${blockStore.loopDelay}), sealed ${(blockStore.sealedAfterMs / 1000).toFixed(1)} s after the first insert, close ${blockStore.closeMs} ms (${machineLoad()})`,
      );
      rows.push({
        name: `${data.name}: bytes per log on disk, block store (LOG_LAYOUT=blocks)`,
        value: perLog(blockStore.bytes),
        unit: 'B/log',
        target: '<= 60 B/log',
        pass: blockStore.bytes / ROWS <= 60,
        baseline,
        note: `${size}; file after the sealer caught up and a graceful close (which seals the tails short of full: ${blockStore.closeMs} ms); ${machineLoad()}`,
      });
      rows.push({
        name: `${data.name}: block store, largest WAL during ingest / left after close`,
        value: Number((blockStore.maxWal / MIB).toFixed(1)),
        unit: 'MiB',
        target: '< 64 MiB, 0 left',
        pass: blockStore.maxWal < 64 * MIB && blockStore.walLeft === 0,
        note: `${blockStore.walLeft} bytes left after close; sampled after every insert of ${BATCH}`,
      });
      if (store !== null) {
        rows.push({
          name: `${data.name}: block store ingest, share of the row store's (search index on)`,
          value: Math.round((blockStore.rate / store.rate) * 1000) / 10,
          unit: '%',
          target: '>= 80 %',
          pass: blockStore.rate >= 0.8 * store.rate,
          baseline: `block store ${blockStore.rate} logs/s (${blockStore.loopDelay}), row store ${store.rate} logs/s (${store.loopDelay})`,
          note: `batches of ${BATCH}, the event loop given a turn after each, sealing as it fills (every full block sealed ${(blockStore.sealedAfterMs / 1000).toFixed(1)} s after the first insert; the row store's index: ${(store.indexedAfterMs / 1000).toFixed(1)} s); ${machineLoad()}`,
        });
      } else {
        rows.push({
          name: `${data.name}: block store ingest`,
          value: blockStore.rate,
          unit: 'logs/s',
          note: `batches of ${BATCH}, a turn after each; ${blockStore.loopDelay}; every full block sealed ${(blockStore.sealedAfterMs / 1000).toFixed(1)} s after the first insert; ${machineLoad()}`,
        });
      }
      // The search shapes are the search bench's words and types: its data set only.
      if (data === DATA_SETS[0]) {
        for (const shape of await searchBlockStore(blockStore.file)) {
          console.log(`${data.name}: block store, ${shape.name}: p95 ${shape.p95} ms, p50 ${shape.p50} ms (${shape.cpu}); ${shape.decoded} (${machineLoad()})`);
          rows.push({
            name: `${data.name}: block store search, ${shape.name} (page of 50 + total)`,
            value: shape.p95,
            unit: 'ms p95',
            target: '< 50 ms',
            pass: shape.p95 < 50,
            note: `p50 ${shape.p50} ms; ${shape.cpu}; ${SEARCH_RUNS} queries on the reopened file, offsets 0-150; ${shape.decoded}; ${size}; ${machineLoad()}`,
          });
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (import.meta.main) console.table(await storageBenchmark());
