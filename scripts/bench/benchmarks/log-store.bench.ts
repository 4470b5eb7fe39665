/**
 * Raw log-store benchmark (SQLite adapter), against its targets:
 *   - insertBatch >= 200,000 logs/s in batches of 1000
 *   - newest filtered page (level=error, 50 rows) of one server among BENCH_ROWS rows: p95 < 20 ms
 *   - stats (dashboard: 7-day range): p95 < 100 ms
 * plus figures without a bar: other page shapes (incl. type/resource filters, which have no index and walk
 * the clustered key: a common value and a rare one, RARE_TYPE, ~1 in 20,000 rows), search, facets,
 * redelivery, random-id inserts, deletes.
 *
 * BENCH_ROWS (default 5,000,000) rows over BENCH_SERVERS (default 50) servers and 30 days, ids UUIDv7
 * as ingestion assigns them. Runs in a temp dir that is deleted afterwards.
 * Run alone: `npm run bench -- log-store` or `BENCH_ROWS=500000 npm run bench -- log-store`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LogQuery, LogRecord } from '@skald/ports';
import { SqliteLogStore } from '../../../libs/adapters/src/log-store/sqlite-log-store.ts';
import { uuidv7 } from '@skald/ingestion-service/testing';
import type { BenchRow } from '../harness/bench-row.ts';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 5_000_000);
const SERVERS = Number(process.env['BENCH_SERVERS'] ?? 50);
const BATCH = 1000;
const DAY = 86_400_000;
const SPAN_DAYS = 30;

const LEVELS = weighted([
  ['info', 70],
  ['warn', 15],
  ['error', 10],
  ['debug', 4],
  ['fatal', 1],
]);
const TYPES = ['General', 'Chat', 'Combat', 'Join', 'Leave', 'Economy', 'Admin', 'Death'];
/** A type about 1 in 20,000 logs have: the worst case of a type filter without an index of its own. */
const RARE_TYPE = 'AntiCheat';
const RESOURCES = Array.from({ length: 20 }, (_, i) => `resource-${i}`);
const WORDS = ['player', 'joined', 'left', 'killed', 'bought', 'sold', 'sword', 'arena', 'lobby', 'spawned', 'chat', 'vehicle'];

function weighted(entries: Array<[string, number]>): string[] {
  return entries.flatMap(([value, weight]) => Array.from({ length: weight }, () => value));
}

/** xorshift32: cheap deterministic randomness for the generator. */
let seed = 0x9e3779b9;
function rand(n: number): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}

function makeBatch(start: number, t0: number, serverIds: readonly string[], idOf: (createdAt: number) => string): LogRecord[] {
  const serverId = serverIds[(start / BATCH) % serverIds.length]!;
  const out: LogRecord[] = new Array<LogRecord>(BATCH);
  for (let i = 0; i < BATCH; i++) {
    const createdAt = t0 + Math.floor(((start + i) / ROWS) * SPAN_DAYS * DAY);
    const photo = rand(50) === 0;
    const id = idOf(createdAt);
    out[i] = {
      id,
      serverId,
      createdAt,
      level: LEVELS[rand(LEVELS.length)]!,
      type: rand(20_000) === 0 ? RARE_TYPE : TYPES[rand(TYPES.length)]!,
      resource: RESOURCES[rand(RESOURCES.length)]!,
      message: `${WORDS[rand(WORDS.length)]} ${WORDS[rand(WORDS.length)]} #${rand(100_000)} by player_${rand(5000)}`,
      metadata: rand(3) === 0 ? { player: `player_${rand(5000)}`, x: rand(1000), y: rand(1000) } : null,
      logType: photo ? 'photo' : 'text',
      imageKey: photo ? `photos/${serverId}/${id}.webp` : null,
      thumbKey: photo ? `thumbs/${serverId}/${id}.webp` : null,
      expiresAt: createdAt + 14 * DAY,
    };
  }
  return out;
}

async function timeRuns(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  await fn(0); // warm the statement cache
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number): number => Number(samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!.toFixed(2));
  return { p50: at(0.5), p95: at(0.95) };
}

export default async function logStoreBenchmark(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'skald-bench-logs-'));
  const file = join(dir, 'logs.db');
  const store = new SqliteLogStore(file);
  const rows: BenchRow[] = [];
  const scale = `${ROWS.toLocaleString('en-US')} rows, ${SERVERS} servers`;
  try {
    const serverIds = Array.from({ length: SERVERS }, () => randomUUID());
    const t0 = Date.UTC(2025, 0, 1);

    // 1. Bulk insert: only insertBatch is timed, the generator is not.
    let insertMs = 0;
    let insertCpuUs = 0;
    let inserted = 0;
    const progressEvery = Math.max(BATCH, Math.floor(ROWS / 10 / BATCH) * BATCH);
    for (let start = 0; start < ROWS; start += BATCH) {
      const batch = makeBatch(start, t0, serverIds, (createdAt) => uuidv7(createdAt));
      const t = performance.now();
      const cpu = process.cpuUsage();
      inserted += (await store.insertBatch(batch)).inserted;
      const used = process.cpuUsage(cpu);
      insertMs += performance.now() - t;
      insertCpuUs += used.user + used.system;
      if ((start + BATCH) % progressEvery === 0) console.log(`inserted ${(start + BATCH).toLocaleString('en-US')} rows, ${Math.round(inserted / (insertMs / 1000)).toLocaleString('en-US')} logs/s so far`);
    }
    const insertRate = Math.round(inserted / (insertMs / 1000));
    rows.push({ name: 'insertBatch, 1000/batch, UUIDv7 ids (wall clock)', value: insertRate, unit: 'logs/s', target: '>= 200000 logs/s', pass: insertRate >= 200_000, note: `${scale}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores` });
    // The machine may be shared: CPU time spent by this process is the figure other load cannot deflate.
    const cpuRate = Math.round(inserted / (insertCpuUs / 1e6));
    rows.push({ name: 'insertBatch, same run, per CPU-second of this process', value: cpuRate, unit: 'logs/s', target: '>= 200000 logs/s', pass: cpuRate >= 200_000, note: 'what one uncontended core does' });

    // 2. Redelivery of stored batches (idempotent path): every row is a duplicate.
    {
      const again = makeBatchesFromStore(await store.query({ serverId: serverIds[0]!, offset: 0, limit: 10_000 }));
      const t = performance.now();
      let dup = 0;
      for (const batch of again) dup += (await store.insertBatch(batch)).inserted;
      const rate = Math.round((again.length * BATCH) / ((performance.now() - t) / 1000));
      rows.push({ name: 'insertBatch redelivery (all duplicates)', value: rate, unit: 'logs/s', note: `${dup} re-inserted (must be 0)`, pass: dup === 0 });
    }

    // 3. Pages and stats on one server (~ROWS/SERVERS rows each); every run picks the next server.
    const server = (i: number): string => serverIds[i % serverIds.length]!;
    const page = (extra: Partial<LogQuery>) => (i: number) => store.query({ serverId: server(i), offset: 0, limit: 50, ...extra });
    const measure = async (name: string, fn: (i: number) => Promise<unknown>, target?: { max: number }): Promise<void> => {
      const { p50, p95 } = await timeRuns(100, fn);
      rows.push({
        name: `${name} p95`,
        value: p95,
        unit: 'ms',
        ...(target === undefined ? {} : { target: `p95 < ${target.max} ms`, pass: p95 < target.max }),
        note: `p50 ${p50} ms`,
      });
    };
    await measure('newest page level=error (50, with total)', page({ level: 'error' }), { max: 20 });
    await measure('newest page unfiltered', page({}));
    await measure('newest page level=fatal type=Combat resource=resource-3', page({ level: 'fatal', type: 'Combat', resource: 'resource-3' }));
    await measure('newest page type=Combat (1 in 8, clustered key)', page({ type: 'Combat' }));
    await measure('newest page resource=resource-3 type=Chat (1 in 160)', page({ resource: 'resource-3', type: 'Chat' }));
    await measure(`newest page type=${RARE_TYPE} (1 in 20,000: walks the whole server)`, page({ type: RARE_TYPE }));
    await measure('newest page level=error, last 24 h (not day-aligned)', page({ level: 'error', from: t0 + (SPAN_DAYS - 1) * DAY - 3_600_000, to: t0 + SPAN_DAYS * DAY }));
    await measure('page 20 (offset 950) level=warn', page({ level: 'warn', offset: 950 }));
    await measure('photo logs page', page({ logType: 'photo' }));
    await measure('search "sword" page (total capped at 100000; rows not indexed: the bench never yields to the indexer)', page({ search: 'sword' }));
    await measure('search rare "player_4999 " page', page({ search: 'player_4999 ' }));
    const lastDay = new Date(t0 + (SPAN_DAYS - 1) * DAY).toISOString().slice(0, 10);
    const weekAgo = new Date(t0 + (SPAN_DAYS - 14) * DAY).toISOString().slice(0, 10);
    await measure('stats (14-day window, all-time dims)', (i) => store.stats(server(i), { fromDay: weekAgo, toDay: lastDay }), { max: 100 });
    await measure('facets', (i) => store.facets(server(i)));
    await measure('count', (i) => store.count(server(i)));

    // 4. Random (UUIDv4) ids into the full table: the worst case for the id index.
    {
      const n = Math.min(200_000, ROWS);
      let ms = 0;
      for (let start = 0; start < n; start += BATCH) {
        const batch = makeBatch(start, t0 + SPAN_DAYS * DAY, serverIds, () => randomUUID());
        const t = performance.now();
        await store.insertBatch(batch);
        ms += performance.now() - t;
      }
      rows.push({ name: 'insertBatch, 1000/batch, random UUIDv4 ids', value: Math.round(n / (ms / 1000)), unit: 'logs/s', note: `${n.toLocaleString('en-US')} rows into the full table` });
    }

    // 5. Delete paths (rollups maintained): one server's oldest day, then a global retention sweep.
    {
      let t = performance.now();
      const before = await store.deleteBefore(serverIds[1]!, t0 + DAY);
      rows.push({ name: 'deleteBefore (one server, 1 day)', value: Math.round(before.deletedCount / ((performance.now() - t) / 1000)), unit: 'logs/s', note: `${before.deletedCount} rows` });
      t = performance.now();
      const expired = await store.deleteExpired(t0 + 16 * DAY);
      const s = (performance.now() - t) / 1000;
      rows.push({ name: 'deleteExpired (all servers, 2 days)', value: Math.round(expired.deletedCount / s), unit: 'logs/s', note: `${expired.deletedCount} rows in ${s.toFixed(1)} s, ${expired.objectKeys.length} object keys` });
    }
    const size = (await stat(file)).size;
    rows.push({ name: 'database file size', value: Math.round(size / 1024 / 1024), unit: 'MiB', note: `${Math.round(size / (inserted || 1))} bytes/row incl. indexes` });
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** Re-wraps stored logs into 1000-row batches (for the redelivery measurement). */
function makeBatchesFromStore(page: { items: LogRecord[] }): LogRecord[][] {
  const out: LogRecord[][] = [];
  for (let i = 0; i + BATCH <= page.items.length; i += BATCH) out.push(page.items.slice(i, i + BATCH));
  return out;
}

if (import.meta.main) console.table(await logStoreBenchmark());
