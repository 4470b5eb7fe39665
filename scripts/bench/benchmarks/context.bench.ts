/**
 * The context around a log (GET /logs/{id}/context) at scale: BENCH_CONTEXT_ROWS (default 5,000,000) logs of
 * ONE server over 30 days (and a second server's logs interleaved, 1 in 10) in the embedded SQLite log store,
 * read through the logs service's route as the test kit builds it (real access token, role check, JSON
 * answer with signed photo URLs), as p95 and p50 over BENCH_CONTEXT_RUNS (default 300) requests, each for a
 * different log spread over the whole data set:
 *   - a log whose time is its arrival (nearly every log), 20 lines each side (the default), and 100 each side;
 *   - a log its game server stamped seconds before it arrived (ids carry the arrival, the row its own time);
 *   - a log stamped hours before it arrived (the rare case: the lookup reads the server's rows of a day);
 *   - an id of no log (404; the same day's rows read);
 *   - beside them, in the same run, the newest page of /logs/my/combined (50): the plain list's cost.
 * Target: p95 < 20 ms for the context of a log (the first three). 1 log in 100 is a photo log.
 *
 * Ids are ingestion's own UUIDv7 (their first 48 bits the arrival). The data set is built with the search
 * index off (the context never reads it) and KEPT under BENCH_CONTEXT_CACHE (default
 * <tmpdir>/skald-bench-context), named by rows, generator version and schema, built through a temporary name
 * so an interrupted build is never reused; `BENCH_CONTEXT_CACHE=off` builds in a temp dir and deletes it.
 * Run: `npm run bench -- context` or `BENCH_CONTEXT_ROWS=500000 npm run bench -- context`.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LogContext } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import { buildTestService, waitFor } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { createLogsService } from '@skald/logs-service';
import { uuidv7 } from '@skald/ingestion-service/testing';
import { SqliteLogStore } from '../../../libs/adapters/src/log-store/sqlite-log-store.ts';
import { SCHEMA_SQL, SCHEMA_VERSION } from '../../../libs/adapters/src/log-store/sqlite-log-schema.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { machineLoad, percentiles } from '../harness/samples.ts';

const ROWS = Number(process.env['BENCH_CONTEXT_ROWS'] ?? 5_000_000);
const RUNS = Number(process.env['BENCH_CONTEXT_RUNS'] ?? 300);
const CACHE = process.env['BENCH_CONTEXT_CACHE'] ?? join(tmpdir(), 'skald-bench-context');
/** Bump when the generator changes: a kept data set of another generator is not reused. */
const DATA_VERSION = 1;
const BATCH = 1000;
const DAY = 86_400_000;
const SPAN_DAYS = 30;
const T0 = Date.UTC(2025, 0, 1);
const SERVER = 'bench-context';
const NEIGHBOUR = 'bench-context-other';
const USER = 'bench-user';
/** 1 log in SECONDS_EVERY stamped 1-60 s before its arrival; 1 in HOURS_EVERY 1-23 h before; 1 in PHOTO_EVERY a photo. */
const SECONDS_EVERY = 50;
const HOURS_EVERY = 5_000;
const PHOTO_EVERY = 100;
const LEVELS = ['info', 'info', 'info', 'info', 'warn', 'error'];
const TYPES = ['General', 'Chat', 'Combat', 'Join', 'Economy'];

type Kind = 'arrival' | 'seconds' | 'hours';

/** The kind of log number n (of the measured server's sequence). */
function kindOf(n: number): Kind {
  if (n % HOURS_EVERY === 17) return 'hours';
  if (n % SECONDS_EVERY === 3) return 'seconds';
  return 'arrival';
}

/** Arrival of the i-th log of the whole data set (both servers), evenly over SPAN_DAYS. */
const arrivalOf = (i: number): number => T0 + Math.floor((i / ROWS) * SPAN_DAYS * DAY);

/** Log i of the data set: 1 in 10 the other server's, the rest the measured server's (n its own sequence). */
function logAt(i: number): LogRecord {
  const arrival = arrivalOf(i);
  const serverId = i % 10 === 9 ? NEIGHBOUR : SERVER;
  const n = i - Math.floor((i + 1) / 10);
  const kind = serverId === SERVER ? kindOf(n) : 'arrival';
  const createdAt = kind === 'hours' ? arrival - (1 + (n % 23)) * 3_600_000 : kind === 'seconds' ? arrival - (1 + (n % 60)) * 1000 : arrival;
  const photo = n % PHOTO_EVERY === 11;
  const base = {
    id: uuidv7(arrival),
    serverId,
    createdAt,
    level: LEVELS[n % LEVELS.length]!,
    type: TYPES[n % TYPES.length]!,
    resource: `resource-${n % 13}`,
    message: `player ${n % 977} did something number ${n}`,
    metadata: n % 3 === 0 ? { player: `p${n % 977}`, x: n % 100 } : null,
    logType: photo ? ('photo' as const) : ('text' as const),
    imageKey: photo ? `photos/${serverId}/${i}.webp` : null,
    thumbKey: photo ? `thumbs/${serverId}/${i}.webp` : null,
    expiresAt: arrival + 365 * DAY,
  };
  return createdAt === arrival ? base : { ...base, receivedAt: arrival };
}

/** Builds the data set (through a temporary name, so an interrupted build is never reused). */
async function buildDataSet(file: string): Promise<void> {
  const building = `${file}.building`;
  for (const suffix of ['', '-wal', '-shm']) await rm(building + suffix, { force: true });
  const store = new SqliteLogStore(building, { searchIndex: 'off' });
  const t = performance.now();
  for (let start = 0; start < ROWS; start += BATCH) {
    const batch: LogRecord[] = [];
    for (let i = start; i < Math.min(ROWS, start + BATCH); i++) batch.push(logAt(i));
    await store.insertBatch(batch);
    if (start % 1_000_000 === 0 && start > 0) console.log(`inserted ${start.toLocaleString('en-US')} rows (${machineLoad()})`);
  }
  console.log(`inserted ${ROWS.toLocaleString('en-US')} rows in ${((performance.now() - t) / 1000).toFixed(0)} s (${machineLoad()})`);
  await store.close();
  await rename(building, file);
}

/**
 * RUNS logs of the measured server of one kind, spread evenly over the data set. The generator is
 * deterministic but uuidv7 is not: each id is read back from the store by its log's time and message.
 */
async function sampleIds(store: SqliteLogStore, kind: Kind): Promise<string[]> {
  const ids: string[] = [];
  // From a day in to just before the end, so every sampled log has its full context on both sides.
  const first = Math.ceil(ROWS / SPAN_DAYS);
  const last = ROWS - 1000;
  const step = Math.max(1, Math.floor((last - first) / RUNS));
  for (let i = first; i < last && ids.length < RUNS; i += step) {
    for (let j = i; j < Math.min(ROWS, i + step); j++) {
      const log = logAt(j);
      if (log.serverId !== SERVER || kindOf(j - Math.floor((j + 1) / 10)) !== kind) continue;
      const page = await store.query({ serverId: SERVER, from: log.createdAt, to: log.createdAt, offset: 0, limit: 10 });
      const found = page.items.find((r) => r.message === log.message);
      if (found) ids.push(found.id);
      break;
    }
  }
  return ids;
}

export default async function contextBenchmark(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'skald-bench-context-'));
  const keep = CACHE !== 'off';
  const cacheDir = keep ? CACHE : dir;
  await mkdir(cacheDir, { recursive: true });
  const layout = createHash('sha256').update(`${SCHEMA_VERSION}\n${SCHEMA_SQL}\n${DATA_VERSION}`).digest('hex').slice(0, 12);
  const file = join(cacheDir, `context-${ROWS}-${layout}.db`);
  if (keep) {
    for (const name of await readdir(cacheDir)) if (name.startsWith(`context-${ROWS}-`) && !name.startsWith(`context-${ROWS}-${layout}.db`)) await rm(join(cacheDir, name), { force: true });
  }
  if (existsSync(file)) console.log(`reusing the data set ${file}`);
  else await buildDataSet(file);

  // The service reads the kept file; the search index stays off (the context never reads it, and indexing
  // millions of rows in the background would take the CPU the requests are measured on).
  const store = new SqliteLogStore(file, { searchIndex: 'off' });
  let service: TestService | undefined;
  const rows: BenchRow[] = [];
  try {
    const byKind = { arrival: await sampleIds(store, 'arrival'), seconds: await sampleIds(store, 'seconds'), hours: await sampleIds(store, 'hours') };
    console.log(`sampled ${byKind.arrival.length} / ${byKind.seconds.length} / ${byKind.hours.length} logs (${machineLoad()})`);
    service = await buildTestService(createLogsService, { service: 'logs', overrides: { logStore: store } });
    await service.identity.server({ serverId: SERVER, ownerId: USER, tier: 'legend' });
    const authorization = `Bearer ${service.tokenFor({ id: USER })}`;
    const logs = service;
    const get = (url: string) => logs.inject({ method: 'GET', url, headers: { authorization } });
    await waitFor(async () => (await get(`/settings/levels?serverId=${SERVER}`)).statusCode === 200, 'the bench server in the logs read model');

    const note = `${ROWS.toLocaleString('en-US')} stored logs (90% on the measured server, 30 days), through the route (access token, role check, JSON)`;
    interface Measure {
      readonly expect?: number;
      readonly lines?: number;
      readonly bar?: number;
      readonly baseline?: string;
    }
    const measure = async (label: string, urls: readonly string[], options: Measure = {}): Promise<number> => {
      const check = (status: number, body: string): void => {
        if (status !== (options.expect ?? 200)) throw new Error(`${label}: ${status} ${body.slice(0, 200)}`);
        if (options.lines === undefined) return;
        const context = JSON.parse(body) as LogContext;
        // Every sampled log lies well inside the data set: both sides come back full.
        if (context.before.length !== options.lines || context.after.length !== options.lines) throw new Error(`${label}: ${context.before.length} + ${context.after.length} lines around ${context.log.id}`);
      };
      for (const url of urls.slice(0, 5)) await get(url);
      const samples: number[] = [];
      for (const url of urls) {
        const t = performance.now();
        const res = await get(url);
        samples.push(performance.now() - t);
        check(res.statusCode, res.body);
      }
      const { p50, p95 } = percentiles(samples);
      console.log(`${label.padEnd(64)} p50 ${p50.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms (${machineLoad()})`);
      rows.push({
        name: `${label} p95`,
        value: p95,
        unit: 'ms',
        ...(options.bar === undefined ? {} : { target: `p95 < ${options.bar} ms`, pass: p95 < options.bar }),
        ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
        note: `p50 ${p50} ms; ${urls.length} requests, each a different log; ${note}; ${machineLoad()}`,
      });
      return p95;
    };
    const contextOf = (ids: readonly string[], query = '') => ids.map((id) => `/logs/${id}/context?serverId=${SERVER}${query}`);
    const plain = await measure('newest page of /logs/my/combined (50)', Array.from({ length: RUNS }, () => `/logs/my/combined?serverId=${SERVER}&page=1&pageSize=50`));
    const baseline = `newest page (50) p95 ${plain} ms`;
    await measure('context, a log at its arrival, 20 each side', contextOf(byKind.arrival), { lines: 20, bar: 20, baseline });
    await measure('context, a log at its arrival, 100 each side', contextOf(byKind.arrival, '&before=100&after=100'), { lines: 100, bar: 20, baseline });
    await measure('context, a log stamped 1-60 s before it arrived, 20 each side', contextOf(byKind.seconds), { lines: 20, bar: 20, baseline });
    await measure('context, a log stamped 1-23 h before it arrived, 20 each side', contextOf(byKind.hours), { lines: 20, bar: 20, baseline });
    // The same arrival times, random bits no log has.
    const unknown = byKind.arrival.map((id) => `${id.slice(0, 24)}ffffffffffff`);
    await measure('context of an id of no log (404)', contextOf(unknown), { expect: 404, baseline });
  } finally {
    await service?.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) console.table(await contextBenchmark());
