/**
 * Ingestion through the all-in-one process, measured so that the figure holds on any run.
 *
 * Every party runs in a process of its own (scripts/bench/harness/pinned/): the load generator (autocannon) on
 * one CPU, and on the other CPU, each pinned with taskset: the all-in-one process under test, the bare
 * Fastify baseline, and the "limits" process that measures the log store's raw insert, parse+validate
 * and sharp. Skald and its baseline alternate (their order flips every round) for BENCH_ROUNDS rounds
 * (default 5) of BENCH_DURATION_S seconds (default 5) each; every ratio is computed per round, and the
 * table prints its median with the spread over the rounds. Anything else running on the machine slows
 * both sides of a round alike, which the ratio cancels; the absolute figures move with it.
 *
 * Counting: only logs that were acknowledged (2xx) and then found stored in the logs service's store
 * count; a log acknowledged but never stored is counted as lost (a missed target). The quota is checked on
 * every request but can never run out (unlimited-quota.ts): any 429 (or other non-2xx) is a missed target.
 *
 *   single   POST /api/logs, one log, 50 connections: acked-and-stored req/s vs bare Fastify; p99; and the
 *            same load on a second all-in-one whose ingestion acknowledges without publishing (BENCH_FREE_BUS,
 *            pinned/skald-server.ts): the ceiling of this path for any bus and store
 *   batch    POST /api/logs, 1000 logs, 8 connections: logs/s from the first request until every
 *            acknowledged log is stored, vs the log store's raw insertBatch of the same rows
 *   limits   parse+validate of the same bodies with no I/O (the CPU floor of the validation itself)
 *   memory   idle RSS of the all-in-one (10 s after provisioning, its worker threads retired, before any load; compile cache
 *            warmed as the image build warms it, pinned/as-deployed.ts), the same on an empty compile cache
 *            (a cold start), peak RSS under the batch load (each split into anonymous and file-backed memory)
 *   photos   (first, on the idle process) POST /api/photologs of a 1920x1080 JPEG and PNG, 4 connections (the photo gate's size):
 *            uploads/s stored, vs sharp's own re-encode of the same image; RSS above idle per upload
 *
 * BENCH_CPU_PROF=<dir>: after the measured rounds, one extra single and one batch phase run under V8's
 * CPU profiler in the all-in-one process (written as <dir>/single.cpuprofile and batch.cpuprofile), and one
 * single phase each in the free-bus all-in-one and bare Fastify (single-free-bus, single-bare); summarise
 * with `node scripts/bench/tools/profile-summary.ts <file>`; each profiled phase also writes <name>.turns.json, the
 * loop's iterations of 20 ms or more, read with `node scripts/bench/tools/profile-stages.ts <file> --turns
 * <name>.turns.json` (what ran in the long turns against the whole phase). BENCH_PHOTOS=0 skips photos; BENCH_ONLY=single
 * runs the single-log rounds only (the batch rows then read NaN), BENCH_ONLY=batch the batch rounds only
 * (the single-log rows then read NaN).
 * Run: `npm run bench -- ingest.bench` or `node scripts/bench/benchmarks/ingest.bench.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from '../harness/bench-row.ts';
import { BATCH_BODY, BATCH_SIZE, MULTIPART_BOUNDARY, SINGLE_BODY, photoForm, screenshot } from '../harness/pinned/bodies.ts';
import type { LoadResult, PostLoad } from '../harness/pinned/load-generator.ts';
import type { Rate } from '../harness/pinned/limits.ts';
import { asDeployed, IDLE_SETTLE_MS, warmAsDeployed } from '../harness/pinned/as-deployed.ts';
import { PinnedChild, pinSelf, pinningPlan } from '../harness/pinned/pinned-child.ts';
import type { LoopDelay, RssSplit } from '../harness/pinned/child-rpc.ts';
import type { TurnsSummary } from '../harness/pinned/loop-turns.ts';
import type { Provisioned } from '../harness/pinned/skald-server.ts';
import { describeSpread, int, mib, pct, spread } from '../harness/pinned/stats.ts';

const SECONDS = Number(process.env['BENCH_DURATION_S'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const SINGLE_CONNECTIONS = 50;
const BATCH_CONNECTIONS = 8;
const PHOTO_CONNECTIONS = 4;
const PHOTO_ROUNDS = 2;
const CPU_PROFILE_DIR = process.env['BENCH_CPU_PROF'];
/** BENCH_ONLY=single|batch: that path's rounds only (quick comparisons while working on it). */
const ONLY = process.env['BENCH_ONLY'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Parties {
  readonly load: PinnedChild;
  readonly bare: PinnedChild;
  readonly skald: PinnedChild;
  /** The all-in-one with a free bus (BENCH_FREE_BUS): single-log requests acknowledged, nothing published. */
  readonly free: PinnedChild;
  readonly limits: PinnedChild;
  readonly bareUrl: string;
  readonly target: Provisioned;
  readonly freeTarget: Provisioned;
}

/** One load phase against Skald, counted as acknowledged AND found stored. */
interface StoredPhase {
  readonly load: LoadResult;
  /** CPU microseconds the all-in-one process spent per acknowledged unit (its whole cost, store included). */
  readonly cpuPerUnit: number;
  /** Units (logs or photo logs) acknowledged and then found stored, per second. */
  readonly perSecond: number;
  /** Acknowledged but not found stored within the wait: lost. */
  readonly lost: number;
  readonly peakRss?: RssSplit;
  /** The all-in-one's event-loop delay during the load (single-log phases). */
  readonly loopDelay?: LoopDelay;
}

const stored = (p: Parties): Promise<number> => p.skald.call<number>('stored', p.target.serverId);

/** Waits until the count has not changed for quietMs: the pipeline behind the bus has drained. */
async function settled(p: Parties, quietMs = 500, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let value = await stored(p);
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() < deadline) {
    await sleep(25);
    const next = await stored(p);
    if (next !== value) {
      value = next;
      since = Date.now();
    }
  }
  return value;
}

/** Polls until `target` more than `before` are stored (or the timeout); answers the count above `before`. */
async function storedBeyond(p: Parties, before: number, target: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let delta = (await stored(p)) - before;
  while (delta < target && Date.now() < deadline) {
    await sleep(10);
    delta = (await stored(p)) - before;
  }
  return delta;
}

function post(p: Parties, load: Omit<PostLoad, 'seconds'> & { seconds?: number }): Promise<LoadResult> {
  return p.load.call<LoadResult>('post', { seconds: SECONDS, ...load });
}

const logsHeaders = (p: Parties) => ({ 'content-type': 'application/json', 'x-api-key': p.target.apiKey });

interface BarePhase {
  readonly load: LoadResult;
  readonly perSecond: number;
  readonly cpuPerUnit: number;
}

async function bareSingle(p: Parties, seconds = SECONDS): Promise<BarePhase> {
  const cpu = await p.bare.call<number>('cpu');
  const load = await post(p, { url: p.bareUrl, headers: { 'content-type': 'application/json' }, body: SINGLE_BODY, connections: SINGLE_CONNECTIONS, seconds });
  const used = (await p.bare.call<number>('cpu')) - cpu;
  return { load, perSecond: load.ok / load.seconds, cpuPerUnit: used / Math.max(1, load.ok) };
}

/** Single-log load on the free-bus all-in-one: acknowledged req/s and CPU per request (nothing is stored). */
async function freeSingle(p: Parties, seconds = SECONDS): Promise<BarePhase> {
  const cpu = await p.free.call<number>('cpu');
  const headers = { 'content-type': 'application/json', 'x-api-key': p.freeTarget.apiKey };
  const load = await post(p, { url: `${p.freeTarget.address}/api/logs`, headers, body: SINGLE_BODY, connections: SINGLE_CONNECTIONS, seconds });
  const used = (await p.free.call<number>('cpu')) - cpu;
  return { load, perSecond: load.ok / load.seconds, cpuPerUnit: used / Math.max(1, load.ok) };
}

/**
 * A load phase against Skald: `unitsPerAnswer` logs per 2xx answer. The rate runs from the load's start
 * until every acknowledged unit is found stored (for single logs the pipeline keeps up, so that is the
 * load's own duration plus the last coalesced write).
 */
async function skaldPhase(p: Parties, load: Omit<PostLoad, 'seconds'> & { seconds?: number }, unitsPerAnswer: number, watch: 'rss' | 'loop delay'): Promise<StoredPhase> {
  const before = await settled(p);
  const cpu = await p.skald.call<number>('cpu');
  const watchRss = watch === 'rss';
  if (watchRss) await p.skald.call('watch');
  else await p.skald.call('loop-delay-start');
  const started = performance.now();
  const result = await post(p, load);
  const loopDelay = watchRss ? undefined : await p.skald.call<LoopDelay>('loop-delay-stop');
  const acknowledged = result.ok * unitsPerAnswer;
  const delta = await storedBeyond(p, before, acknowledged, 300_000);
  const seconds = Math.max(result.seconds, (performance.now() - started) / 1000);
  const cpuUsed = (await p.skald.call<number>('cpu')) - cpu;
  const peakRss = watchRss ? await p.skald.call<RssSplit>('peak') : undefined;
  return {
    load: result,
    cpuPerUnit: cpuUsed / Math.max(1, Math.min(acknowledged, delta)),
    perSecond: Math.min(acknowledged, delta) / seconds,
    lost: Math.max(0, acknowledged - delta),
    ...(peakRss === undefined ? {} : { peakRss }),
    ...(loopDelay === undefined ? {} : { loopDelay }),
  };
}

const skaldSingle = (p: Parties, seconds = SECONDS) =>
  skaldPhase(p, { url: `${p.target.address}/api/logs`, headers: logsHeaders(p), body: SINGLE_BODY, connections: SINGLE_CONNECTIONS, seconds }, 1, 'loop delay');
const skaldBatch = (p: Parties, seconds = SECONDS) =>
  skaldPhase(p, { url: `${p.target.address}/api/logs`, headers: logsHeaders(p), body: BATCH_BODY, connections: BATCH_CONNECTIONS, seconds }, BATCH_SIZE, 'rss');
const storeInsert = (p: Parties, seconds = SECONDS) => p.limits.call<Rate>('store-insert', { body: BATCH_BODY, seconds });

/** Runs the two measurements of a round, the first one first on odd rounds and second on even ones. */
async function alternate<A, B>(round: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (round % 2 === 1) {
    const first = await a();
    return [first, await b()];
  }
  const second = await b();
  return [await a(), second];
}

function refusals(results: readonly LoadResult[]): { non2xx: number; quota: number; errors: number } {
  let non2xx = 0;
  let quota = 0;
  let errors = 0;
  for (const r of results) {
    non2xx += r.non2xx;
    quota += r.statusCodes['429'] ?? 0;
    errors += r.errors + r.timeouts;
  }
  return { non2xx, quota, errors };
}

/** Profiles one phase, and records the loop's long iterations beside (<name>.turns.json, profile-stages.ts --turns). */
async function profiled(child: PinnedChild, name: string, phase: () => Promise<unknown>): Promise<void> {
  await child.call('profile-start');
  await child.call('turns-start');
  await phase();
  const turnsFile = join(CPU_PROFILE_DIR!, `${name}.turns.json`);
  const turns = await child.call<TurnsSummary>('turns-stop', turnsFile);
  const file = await child.call<string>('profile-stop', join(CPU_PROFILE_DIR!, `${name}.cpuprofile`));
  console.log(`CPU profile of the ${name} phase: ${file}; ${turns.long} loop iterations of 20 ms or more: ${turnsFile}`);
}

/** Stand-ins for a path BENCH_ONLY left out: every figure computed from them reads NaN. */
const skippedLoad: LoadResult = { ok: 0, non2xx: 0, statusCodes: {}, errors: 0, timeouts: 0, p50: Number.NaN, p99: Number.NaN, seconds: Number.NaN };
const skippedBare: BarePhase = { load: skippedLoad, perSecond: Number.NaN, cpuPerUnit: Number.NaN };
const skippedSkald: StoredPhase = { load: skippedLoad, cpuPerUnit: Number.NaN, perSecond: Number.NaN, lost: 0 };

async function singleAndBatch(p: Parties, rows: BenchRow[], note: string): Promise<void> {
  // Warm-up (not counted): the JIT, the store's caches and the connection pools of every party.
  if (ONLY !== 'batch') {
    await bareSingle(p, 2);
    await skaldSingle(p, 2);
    await freeSingle(p, 2);
  }
  if (ONLY !== 'single') {
    await skaldBatch(p, 2);
    await storeInsert(p, 2);
  }

  const single: { bare: BarePhase; skald: StoredPhase; free: BarePhase }[] = [];
  const batch: { skald: StoredPhase; store: Rate }[] = [];
  const parse: { single: number; batch: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // The free-bus measurement before the pair on odd rounds and after it on even ones.
    let free = skippedBare;
    if (ONLY !== 'batch' && round % 2 === 1) free = await freeSingle(p);
    const [bare, skald] = ONLY === 'batch' ? [skippedBare, skippedSkald] : await alternate(round, () => bareSingle(p), () => skaldSingle(p));
    if (ONLY !== 'batch' && round % 2 === 0) free = await freeSingle(p);
    single.push({ bare, skald, free });
    const [skaldB, store] = ONLY === 'single' ? [skippedSkald, { perSecond: Number.NaN, units: 0, seconds: 0, cpuPerUnit: Number.NaN }] : await alternate(round, () => skaldBatch(p), () => storeInsert(p));
    batch.push({ skald: skaldB, store });
    const parseSingle = await p.limits.call<Rate & { requestsPerSecond: number }>('parse', { body: SINGLE_BODY, seconds: 1 });
    const parseBatch = await p.limits.call<Rate>('parse', { body: BATCH_BODY, seconds: 1 });
    parse.push({ single: parseSingle.requestsPerSecond, batch: parseBatch.perSecond });
    console.log(
      `round ${round}/${ROUNDS}: single ${int(skald.perSecond)} req/s vs bare ${int(bare.perSecond)} (${pct(skald.perSecond / bare.perSecond)}, p99 ${skald.load.p99} ms, loop delay p99 ${(skald.loopDelay?.p99 ?? Number.NaN).toFixed(1)} max ${(skald.loopDelay?.max ?? Number.NaN).toFixed(0)} ms; ` +
        `CPU ${int(skald.cpuPerUnit)} vs ${int(bare.cpuPerUnit)} µs/req; free bus ${int(free.perSecond)} req/s, ${pct(free.perSecond / bare.perSecond)}); batch ${int(skaldB.perSecond)} logs/s vs raw insert ${int(store.perSecond)} ` +
        `(${pct(skaldB.perSecond / store.perSecond)}; CPU ${skaldB.cpuPerUnit.toFixed(1)} vs ${(store.cpuPerUnit ?? Number.NaN).toFixed(1)} µs/log); load average ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  if (CPU_PROFILE_DIR) {
    if (ONLY !== 'batch') {
      await profiled(p.skald, 'single', () => skaldSingle(p));
      // The same load on its two references: what the free-bus path and bare Fastify spend it on.
      await profiled(p.free, 'single-free-bus', () => freeSingle(p));
      await profiled(p.bare, 'single-bare', () => bareSingle(p));
    }
    if (ONLY !== 'single') await profiled(p.skald, 'batch', () => skaldBatch(p));
  }

  const bareRps = spread(single.map((s) => s.bare.perSecond));
  const singleRps = spread(single.map((s) => s.skald.perSecond));
  const singleRatio = spread(single.map((s) => s.skald.perSecond / s.bare.perSecond));
  const singleCpu = spread(single.map((s) => s.skald.cpuPerUnit));
  const singleCpuRatio = spread(single.map((s) => s.bare.cpuPerUnit / s.skald.cpuPerUnit));
  const batchCpu = spread(batch.map((b) => b.skald.cpuPerUnit));
  const batchCpuRatio = spread(batch.map((b) => (b.store.cpuPerUnit ?? Number.NaN) / b.skald.cpuPerUnit));
  const p99 = spread(single.map((s) => s.skald.load.p99));
  const loopP99 = spread(single.map((s) => s.skald.loopDelay?.p99 ?? Number.NaN));
  const loopMax = spread(single.map((s) => s.skald.loopDelay?.max ?? Number.NaN));
  const freeRps = spread(single.map((s) => s.free.perSecond));
  const freeRatio = spread(single.map((s) => s.free.perSecond / s.bare.perSecond));
  const freeCpu = spread(single.map((s) => s.free.cpuPerUnit));
  const storeRate = spread(batch.map((b) => b.store.perSecond));
  const batchRate = spread(batch.map((b) => b.skald.perSecond));
  const batchRatio = spread(batch.map((b) => b.skald.perSecond / b.store.perSecond));
  const peakRss = batch.map((b) => b.skald.peakRss).reduce<RssSplit>((top, r) => (r !== undefined && r.rss > top.rss ? r : top), { rss: 0, anon: 0, file: 0 });
  const lost = [...single.map((s) => s.skald.lost), ...batch.map((b) => b.skald.lost)].reduce((a, b) => a + b, 0);
  const refused = refusals([...single.map((s) => s.skald.load), ...(ONLY === 'single' ? [] : batch.map((b) => b.skald.load))]);
  const parseSingle = spread(parse.map((x) => x.single));
  const parseBatch = spread(parse.map((x) => x.batch));
  const each = `${SECONDS} s per measurement, ${note}`;

  rows.push(
    { name: 'bare Fastify POST (HTTP limit)', value: Math.round(bareRps.median), unit: 'req/s', note: `${describeSpread(bareRps, int)}; ${SINGLE_CONNECTIONS} connections; ${each}` },
    { name: 'parse+validate single log, no I/O', value: Math.round(parseSingle.median), unit: 'req/s', note: 'UTF-8 decode, JSON.parse, validation, id; one CPU' },
    { name: 'single-log POST /api/logs, acked+stored', value: Math.round(singleRps.median), unit: 'req/s', note: describeSpread(singleRps, int) },
    { name: 'single-log vs bare Fastify', value: Math.round(singleRatio.median * 100), unit: '%', target: '>= 50 %', pass: singleRatio.median >= 0.5, baseline: `bare Fastify median ${int(bareRps.median)} req/s`, note: describeSpread(singleRatio, pct) },
    { name: 'single-log CPU per request (all-in-one)', value: Math.round(singleCpu.median), unit: 'µs', baseline: `bare Fastify median ${int(spread(single.map((s) => s.bare.cpuPerUnit)).median)} µs`, note: `${describeSpread(singleCpu, int)}; everything the process did per acked log, store included` },
    { name: 'single-log CPU ratio bare/all-in-one', value: Math.round(singleCpuRatio.median * 100), unit: '%', note: `${describeSpread(singleCpuRatio, pct)}; what the req/s ratio would be with both CPU-bound on an idle core` },
    {
      name: 'single-log, free bus, vs bare Fastify',
      value: Math.round(freeRatio.median * 100),
      unit: '%',
      baseline: `${int(freeRps.median)} req/s (${describeSpread(freeRps, int)}), ${int(freeCpu.median)} µs CPU/req`,
      note: `${describeSpread(freeRatio, pct)}; the same requests on an all-in-one whose ingestion acknowledges without publishing (nothing stored): gateway, hooks, key, quota, validation and ids alone, the ceiling of the single-log figure for any bus and store`,
    },
    { name: 'single-log p99 latency', value: p99.median, unit: 'ms', target: '< 20 ms', pass: p99.median < 20, note: `${describeSpread(p99, (n) => `${n} ms`)}; ${SINGLE_CONNECTIONS} connections` },
    {
      name: 'single-log event-loop delay p99',
      value: Number(loopP99.median.toFixed(1)),
      unit: 'ms',
      note: `${describeSpread(loopP99, (n) => `${n.toFixed(1)} ms`)}; max ${describeSpread(loopMax, (n) => `${n.toFixed(0)} ms`)}; how late the all-in-one ran a 10 ms timer during the single-log load (a request waits behind the same stalls)`,
    },
    { name: 'log store raw insertBatch (storage limit)', value: Math.round(storeRate.median), unit: 'rows/s', note: `${describeSpread(storeRate, int)}; the same rows, 1000 per call, SqliteLogStore` },
    { name: 'parse+validate batch, no I/O', value: Math.round(parseBatch.median), unit: 'logs/s', note: '1000 logs per body; one CPU' },
    { name: 'batch POST (1000/request), acked+stored', value: Math.round(batchRate.median), unit: 'logs/s', note: `${describeSpread(batchRate, int)}; ${BATCH_CONNECTIONS} connections, until every acked log is stored` },
    { name: 'batch vs log store raw insert', value: Math.round(batchRatio.median * 100), unit: '%', target: '>= 75 %', pass: batchRatio.median >= 0.75, baseline: `raw insert median ${int(storeRate.median)} rows/s`, note: describeSpread(batchRatio, pct) },
    { name: 'batch CPU per log (all-in-one)', value: Number(batchCpu.median.toFixed(2)), unit: 'µs', note: describeSpread(batchCpu, (n) => n.toFixed(2)) },
    { name: 'batch CPU ratio raw insert/all-in-one', value: Math.round(batchCpuRatio.median * 100), unit: '%', note: `${describeSpread(batchCpuRatio, pct)}; raw insertBatch CPU per row over the all-in-one's CPU per stored log` },
    { name: 'acknowledged but not stored (lost)', value: lost, unit: 'logs', target: '0', pass: lost === 0 },
    { name: 'non-2xx answers (429 quota)', value: refused.non2xx, unit: 'count', target: '0', pass: refused.non2xx === 0, note: `${refused.quota} x 429; ${refused.errors} connection errors or timeouts` },
    { name: 'all-in-one RSS, peak under batch load', value: mib(peakRss.rss), unit: 'MiB', note: `${mib(peakRss.anon)} MiB anonymous (heap, SQLite page caches), ${mib(peakRss.file)} MiB file-backed (code, memory-mapped databases)` },
  );
}

async function photos(p: Parties, rows: BenchRow[]): Promise<void> {
  for (const [format, contentType, filename] of [['jpeg', 'image/jpeg', 'shot.jpg'], ['png', 'image/png', 'shot.png']] as const) {
    const image = await screenshot(format);
    const body = photoForm(image, filename, contentType).toString('base64');
    const headers = { 'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, 'x-api-key': p.target.apiKey };
    const upload = (seconds = SECONDS) =>
      skaldPhase(p, { url: `${p.target.address}/api/photologs`, headers, body, base64: true, connections: PHOTO_CONNECTIONS, seconds }, 1, 'rss');
    const reencode = () => p.limits.call<Rate>('sharp', { image: image.toString('base64'), seconds: SECONDS });
    await upload(2);
    const rounds: { skald: StoredPhase; sharp: Rate; before: number }[] = [];
    for (let round = 1; round <= PHOTO_ROUNDS; round++) {
      const before = (await p.skald.call<RssSplit>('rss')).rss;
      const [skald, sharpRate] = await alternate(round, () => upload(), reencode);
      rounds.push({ skald, sharp: sharpRate, before });
    }
    const uploads = spread(rounds.map((r) => r.skald.perSecond));
    const sharpRate = spread(rounds.map((r) => r.sharp.perSecond));
    const perUpload = Math.max(...rounds.map((r) => ((r.skald.peakRss?.rss ?? r.before) - r.before) / PHOTO_CONNECTIONS));
    const refused = refusals(rounds.map((r) => r.skald.load));
    const size = `1920x1080 ${format.toUpperCase()}, ${Math.round(image.length / 1024)} KiB`;
    rows.push(
      { name: `photo upload ${format.toUpperCase()}, acked+stored`, value: Number(uploads.median.toFixed(1)), unit: 'uploads/s', baseline: `sharp re-encode alone ${sharpRate.median.toFixed(1)} images/s (${(1000 / sharpRate.median).toFixed(0)} ms each)`, note: `${size}; ${PHOTO_CONNECTIONS} connections; ${describeSpread(uploads, (n) => n.toFixed(1))}; ${refused.non2xx} non-2xx` },
      { name: `photo upload ${format.toUpperCase()} vs sharp alone`, value: Math.round((uploads.median / sharpRate.median) * 100), unit: '%' },
      { name: `photo upload ${format.toUpperCase()} memory per upload`, value: mib(perUpload), unit: 'MiB', note: `peak RSS above the process before the load, / ${PHOTO_CONNECTIONS} uploads in flight` },
    );
  }
}

/** Longest wait for the adapters' worker threads to retire (their idle timeout is 60 s). */
const RETIRE_WAIT_MS = 90_000;

interface IdleReading {
  /** IDLE_SETTLE_MS after provisioning. */
  readonly settled: RssSplit;
  /** The adapters' worker threads alive at that reading. */
  readonly threadsAtSettle: readonly string[];
  /** Once none of them is alive any more (or RETIRE_WAIT_MS passed: then `threadsLeft` says which live). */
  readonly idle: RssSplit;
  readonly waitedMs: number;
  readonly threadsLeft: readonly string[];
}

/**
 * The provisioning's probe logs (2,000, to see the tier applied) can make the log store's indexing heavy
 * enough to start its worker thread, which lives on for its idle timeout with its own V8 isolate (~15 MiB):
 * whether it has retired at a fixed reading is a matter of timing. Idle means nothing left running: the
 * reading waits for the adapters' worker threads to retire, and the settled reading is kept beside it.
 */
async function idleRss(skald: PinnedChild): Promise<IdleReading> {
  await sleep(IDLE_SETTLE_MS);
  const settled = await skald.call<RssSplit>('rss');
  const threadsAtSettle = await skald.call<string[]>('background-threads');
  const started = Date.now();
  let threadsLeft = threadsAtSettle;
  while (threadsLeft.length > 0 && Date.now() - started < RETIRE_WAIT_MS) {
    await sleep(1_000);
    threadsLeft = await skald.call<string[]>('background-threads');
  }
  const waitedMs = Date.now() - started;
  // A worker that just ended: V8 hands its pages back some seconds later (measured: a retired index worker
  // left ~15 MiB resident 1 s after its exit, ~9 MiB 15 s after), so the same settle again.
  if (threadsAtSettle.length > 0) await sleep(IDLE_SETTLE_MS);
  return { settled, threadsAtSettle, idle: await skald.call<RssSplit>('rss'), waitedMs, threadsLeft };
}

function describeIdle(reading: IdleReading): string {
  const at = `${mib(reading.settled.rss)} MiB ${IDLE_SETTLE_MS / 1000} s after provisioning`;
  if (reading.threadsAtSettle.length === 0) return `${at}, no worker thread alive`;
  const left = reading.threadsLeft.length === 0 ? 'retired' : `still alive: ${reading.threadsLeft.join(', ')}`;
  return `${at} with worker threads ${reading.threadsAtSettle.join(', ')}, read again ${((reading.waitedMs + IDLE_SETTLE_MS) / 1000).toFixed(0)} s later (${left} after ${(reading.waitedMs / 1000).toFixed(0)} s)`;
}

/**
 * Idle RSS of a start on an empty compile cache (what every container's first start was before the image
 * held a warmed cache): started, provisioned and settled as the measured process, then stopped.
 */
async function coldIdleRss(cpu: number | null): Promise<IdleReading> {
  const emptyCache = await mkdtemp(join(tmpdir(), 'skald-bench-cold-cache-'));
  const skald = PinnedChild.start('all-in-one (cold compile cache)', './skald-server.ts', cpu, asDeployed({ NODE_COMPILE_CACHE: emptyCache }));
  try {
    await skald.call<Provisioned>('provision');
    return await idleRss(skald);
  } finally {
    await skald.close();
    await rm(emptyCache, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const plan = pinningPlan();
  pinSelf(plan.loadCpu);
  console.log(plan.note);
  const cold = await coldIdleRss(plan.serverCpu);
  await warmAsDeployed(fileURLToPath(new URL('../../..', import.meta.url)), plan.serverCpu);
  const load = PinnedChild.start('load generator', './load-generator.ts', plan.loadCpu);
  const bare = PinnedChild.start('bare Fastify', './bare-server.ts', plan.serverCpu);
  const skald = PinnedChild.start('all-in-one', './skald-server.ts', plan.serverCpu, asDeployed());
  const free = PinnedChild.start('all-in-one, free bus', './skald-server.ts', plan.serverCpu, asDeployed({ BENCH_FREE_BUS: '1' }));
  const limits = PinnedChild.start('limits', './limits.ts', plan.serverCpu);
  const rows: BenchRow[] = [];
  try {
    const bareUrl = await bare.call<string>('address');
    const target = await skald.call<Provisioned>('provision');
    const freeTarget = await free.call<Provisioned>('provision');
    const parties: Parties = { load, bare, skald, free, limits, bareUrl, target, freeTarget };
    // Idle: started, one user and server provisioned, nothing sent yet; timers and consumers settled, V8's
    // memory reducer past (IDLE_SETTLE_MS) and the adapters' worker threads retired (idleRss).
    const reading = await idleRss(skald);
    const { idle } = reading;
    // The free-bus process beside it never stored its probe logs, so no indexing worker ever ran in it.
    const neverIndexed = await free.call<RssSplit>('rss');
    rows.push({
      name: 'all-in-one RSS, idle',
      value: mib(idle.rss),
      unit: 'MiB',
      target: '< 120 MiB',
      pass: mib(idle.rss) < 120,
      note: `every service, started as deployed (MALLOC_ARENA_MAX=2, compile cache warmed as the image build does), before any load; ${describeIdle(reading)}; ${mib(idle.anon)} MiB anonymous, ${mib(idle.file)} MiB file-backed; the free-bus process, whose probe logs were never stored nor indexed, ${mib(neverIndexed.rss)} MiB`,
    });
    rows.push({
      name: 'all-in-one RSS, idle, cold compile cache',
      value: mib(cold.idle.rss),
      unit: 'MiB',
      note: `the same start on an empty compile cache (a container's first start without the image's cache: Node loads its TypeScript stripper); ${describeIdle(cold)}; ${mib(cold.idle.anon)} MiB anonymous, ${mib(cold.idle.file)} MiB file-backed`,
    });
    // Photos first: their memory per upload is read against a process that has not yet grown its caches
    // under the log load.
    if (process.env['BENCH_PHOTOS'] !== '0') await photos(parties, rows);
    await singleAndBatch(parties, rows, plan.note);
  } finally {
    await Promise.all([load.close(), bare.close(), skald.close(), free.close(), limits.close()]);
  }
  return rows;
}

export default run;

if (import.meta.main) {
  const rows = await run();
  console.table(rows.map((r) => ({ metric: r.name, value: r.value, unit: r.unit, target: r.target ?? '', result: r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL', note: r.note ?? '' })));
}
