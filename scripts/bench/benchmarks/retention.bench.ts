/**
 * Retention under ingest (docs/STORAGE.md, "Retention under ingest"): does the retention sweep that deletes a day
 * of a busy server stall ingestion? Target: p99 of a single-log POST /api/logs < 50 ms during the sweep.
 *
 * Per layout (LOG_LAYOUT blocks, the default, and rows): the all-in-one (harness/pinned/retention-server.ts) is
 * filled with two days of a busy server's realistic FiveM lines (BENCH_RETENTION_HOURLY an hour, default 100,000:
 * Voyager's hourly limit, whose 60-day retention makes a day 2.4 million logs), the older day expired; written
 * straight into the log and player stores (not measured), the store left to catch up (seals and parts, or the
 * search index). Then the all-in-one is pinned to one CPU and a client on the other (harness/steady-poster.ts)
 * sends single-log POSTs at BENCH_RETENTION_RATE a second (default 100), open loop, over:
 * - a phase without a sweep (BENCH_RETENTION_BASE_S, default 10 s);
 * - the sweep: the logs service's retention job added to its queue, as its schedule does every 10 minutes
 *   (sweepExpired: the log store's deleteExpired, then the player store's forgetExpired); the requests due between
 *   the job's start and end are its figures.
 * Printed: p50 / p99 / max of the requests during the sweep beside the same without a sweep, the sweep's duration
 * and rows deleted, the server's event-loop delay in each phase, and the WAL files a graceful close left.
 * Also printed, per phase: where the requests' time went inside the server (harness/pinned/request-probe.ts) and
 * the server's loop turns of 20 ms or more.
 * Knobs: BENCH_RETENTION_LAYOUTS (`blocks,rows`), BENCH_RETENTION_PLAYERS (`0`: no players recorded in the fill),
 * BENCH_CPU_PROF (a folder: the server's CPU profile and long turns of the sweep phase), and the pinning ones
 * (BENCH_PIN, BENCH_LOAD_CPU, BENCH_SERVER_CPU).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRow } from '../harness/bench-row.ts';
import { fivemBatch } from '../harness/fivem-logs.ts';
import { asDeployed } from '../harness/pinned/as-deployed.ts';
import type { LoopDelay } from '../harness/pinned/child-rpc.ts';
import type { TurnsSummary } from '../harness/pinned/loop-turns.ts';
import { PinnedChild, pinningPlan } from '../harness/pinned/pinned-child.ts';
import { showSplit } from '../harness/pinned/request-probe.ts';
import type { ProbeSplit } from '../harness/pinned/request-probe.ts';
import type { Filled, Provisioned, Swept } from '../harness/pinned/retention-server.ts';
import { machineLoad, percentile } from '../harness/samples.ts';
import type { SteadySample } from '../harness/steady-poster.ts';

const HOURLY = Number(process.env['BENCH_RETENTION_HOURLY'] ?? 100_000);
const RATE = Number(process.env['BENCH_RETENTION_RATE'] ?? 100);
const BASE_S = Number(process.env['BENCH_RETENTION_BASE_S'] ?? 10);
const LAYOUTS = (process.env['BENCH_RETENTION_LAYOUTS'] ?? 'blocks,rows').split(',').map((l) => l.trim());
const PLAYERS = process.env['BENCH_RETENTION_PLAYERS'] !== '0';
/** A folder: the server's CPU profile of the sweep phase and its long turns are written there (profile-stages.ts --turns reads them). */
const CPU_PROFILE_DIR = process.env['BENCH_CPU_PROF'];
const WARM_UP_S = 3;
/** Sent before the sweep starts and after it ends, so the requests cover its whole span. */
const AROUND_SWEEP_MS = 1000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One FiveM line (a join with its identifiers) in the native API's shape: what a game server posts per event. */
function singleBody(): string {
  const line = fivemBatch('body', 0, 200, 200, Date.now()).find((r) => r.type.toLowerCase().includes('join')) ?? fivemBatch('body', 0, 1, 1, Date.now())[0]!;
  return JSON.stringify({ level: line.level, type: line.type, message: line.message, resource: line.resource, ...(line.metadata === null ? {} : { metadata: line.metadata }) });
}

interface Latencies {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly failed: number;
}

function latencies(samples: readonly SteadySample[]): Latencies {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const round = (v: number): number => Number(v.toFixed(1));
  if (ms.length === 0) return { n: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN, failed: 0 };
  return { n: ms.length, p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(ms[ms.length - 1]!), failed: samples.filter((s) => s.status !== 201).length };
}

const show = (l: Latencies): string => `p50 ${l.p50} / p99 ${l.p99} / max ${l.max} ms (${l.n} requests${l.failed > 0 ? `, ${l.failed} not 201` : ''})`;
const showDelay = (d: LoopDelay): string => `event-loop delay p99 ${d.p99.toFixed(1)} / max ${d.max.toFixed(1)} ms`;

interface Phase<T> {
  readonly samples: SteadySample[];
  readonly delay: LoopDelay;
  readonly result: T;
  /** Where the time of the requests that arrived within `window` went inside the server. */
  readonly split: ProbeSplit;
  readonly turns: TurnsSummary;
}

/**
 * Requests at RATE while `during` runs, with the server's event-loop delay, long turns (20 ms or more) and
 * request probe over the same time; the probe's split is of the requests that arrived within `window`
 * (default: the whole phase).
 */
async function phase<T>(
  client: PinnedChild,
  server: PinnedChild,
  load: object,
  during: () => Promise<T>,
  window?: (result: T) => { start: number; end: number },
  profile?: string,
): Promise<Phase<T>> {
  if (profile !== undefined) await server.call('profile-start');
  await server.call('loop-delay-start');
  await server.call('turns-start');
  await server.call('probe-start');
  const start = await client.call<number>('now');
  await client.call('begin', load);
  const result = await during();
  const samples = await client.call<SteadySample[]>('end');
  const end = await client.call<number>('now');
  const delay = await server.call<LoopDelay>('loop-delay-stop');
  const turns = await server.call<TurnsSummary>('turns-stop', profile === undefined ? null : `${profile}.turns.json`);
  if (profile !== undefined) await server.call('profile-stop', `${profile}.cpuprofile`);
  const span = window?.(result) ?? { start, end };
  const split = await server.call<ProbeSplit>('probe-stop', { from: span.start, to: span.end });
  return { samples, delay, result, split, turns };
}

const showTurns = (t: TurnsSummary): string =>
  `${t.long} loop turns of 20 ms or more, ${t.wallMs.toFixed(0)} ms in all (CPU meanwhile: the loop's thread ${t.loopCpuMs.toFixed(0)} ms, the process's ${t.processCpuMs.toFixed(0)} ms)`;

async function measure(layout: string, plan: ReturnType<typeof pinningPlan>): Promise<BenchRow[]> {
  // Unpinned while filling (its seal workers or search indexer use both cores); pinned before the measurement.
  const server = PinnedChild.start(`all-in-one (${layout})`, './retention-server.ts', null, asDeployed({ LOG_LAYOUT: layout }));
  const client = PinnedChild.start('steady poster', '../steady-poster.ts', plan.loadCpu);
  try {
    const provisioned = await server.call<Provisioned>('provision');
    console.log(`${layout}: filling ${(HOURLY * 48).toLocaleString('en-US')} logs (${HOURLY.toLocaleString('en-US')} an hour, two days; players ${PLAYERS ? 'on' : 'off'}) (${machineLoad()})`);
    const filled = await server.call<Filled>('fill', { serverId: provisioned.serverId, hourly: HOURLY, players: PLAYERS });
    const files = await server.call<Record<string, number>>('files');
    const logsFile = Object.entries(files).find(([name]) => name.endsWith('logs.db'))?.[1] ?? 0;
    console.log(
      `${layout}: filled in ${(filled.insertMs / 1000).toFixed(0)} s, caught up ${(filled.catchUpMs / 1000).toFixed(0)} s later; logs.db ${(logsFile / 2 ** 20).toFixed(0)} MiB (${machineLoad()})`,
    );
    await server.call('pin', plan.serverCpu);
    const load = { url: `${provisioned.address}/api/logs`, body: singleBody(), headers: { 'x-api-key': provisioned.apiKey }, rate: RATE };
    await phase(client, server, load, () => sleep(WARM_UP_S * 1000));
    const quiet = await phase(client, server, load, () => sleep(BASE_S * 1000));
    const swept = await phase(
      client,
      server,
      load,
      async () => {
        await sleep(AROUND_SWEEP_MS);
        const result = await server.call<Swept>('sweep');
        await sleep(AROUND_SWEEP_MS);
        return result;
      },
      (result) => result.job,
      CPU_PROFILE_DIR === undefined ? undefined : join(CPU_PROFILE_DIR, `retention-${layout}-sweep`),
    );
    const sweep = swept.result;
    const during = latencies(swept.samples.filter((s) => s.at >= sweep.job.start && s.at <= sweep.job.end));
    const without = latencies(quiet.samples);
    // The same requests split by the job's two parts: the log store's deleteExpired, then the player store's forgetExpired.
    const within = (span: { start: number; end: number } | null): string => (span === null ? 'n/a' : show(latencies(swept.samples.filter((s) => s.at >= span.start && s.at <= span.end))));
    const parts = `during deleteExpired ${within(sweep.deleteExpired)}; during forgetExpired ${within(sweep.forgetExpired)}${sweep.playersFailure === null ? '' : ` (failed: ${sweep.playersFailure})`}`;
    const sweepS = (sweep.job.end - sweep.job.start) / 1000;
    const spanMs = (span: { start: number; end: number } | null): string => (span === null ? 'n/a' : `${Math.round(span.end - span.start)} ms`);
    const load1 = machineLoad();
    console.log(`${layout}: without a sweep ${show(without)}, ${showDelay(quiet.delay)}; ${showTurns(quiet.turns)}`);
    console.log(`${layout}: without a sweep, ${showSplit(quiet.split)}`);
    console.log(`${layout}: ${parts}`);
    console.log(`${layout}: during the sweep, ${showSplit(swept.split)}; ${showTurns(swept.turns)}`);
    console.log(
      `${layout}: during the sweep ${show(during)}, ${showDelay(swept.delay)}; sweep ${sweepS.toFixed(1)} s, ${sweep.deletedCount.toLocaleString('en-US')} logs deleted (deleteExpired ${spanMs(sweep.deleteExpired)}, players' forgetExpired ${spanMs(sweep.forgetExpired)}) (${load1})`,
    );
    const left = await server.call<Record<string, number>>('shutdown');
    const walLeft = Object.entries(left).filter(([name]) => name.endsWith('-wal'));
    const walBytes = walLeft.reduce((sum, [, size]) => sum + size, 0);
    const size = `${(filled.rows / 1e6).toFixed(1)}M logs of one server (${HOURLY.toLocaleString('en-US')} an hour, two days; players ${PLAYERS ? 'recorded' : 'not recorded'})`;
    return [
      {
        name: `retention (${layout}): single-log POST p99 during a sweep deleting a day`,
        value: during.p99,
        unit: 'ms',
        target: '< 50 ms',
        pass: during.p99 < 50 && during.failed === 0,
        baseline: `without a sweep ${show(without)}`,
        note: `during: ${show(during)} (${parts}); ${RATE} requests/s open loop, client and server pinned apart (${plan.note}); server ${showDelay(swept.delay)} (without: ${showDelay(quiet.delay)}); ${size}; ${load1}`,
      },
      {
        name: `retention (${layout}): the sweep (retention job)`,
        value: Number(sweepS.toFixed(2)),
        unit: 's',
        note: `${sweep.deletedCount.toLocaleString('en-US')} logs deleted (the expired day: ${filled.expiredRows.toLocaleString('en-US')}); deleteExpired ${spanMs(sweep.deleteExpired)}, players' forgetExpired ${spanMs(sweep.forgetExpired)}; ${load1}`,
      },
      {
        name: `retention (${layout}): WAL left after a graceful close`,
        value: walBytes,
        unit: 'bytes',
        target: '0',
        pass: walBytes === 0,
        note: walLeft.length === 0 ? 'no -wal file left' : walLeft.map(([name, bytes]) => `${name} ${bytes} B`).join(', '),
      },
    ];
  } finally {
    await client.close();
    await server.close();
  }
}

export default async function retentionBenchmark(): Promise<BenchRow[]> {
  // This process stays unpinned (it only sends commands): a child inherits its CPUs, and the all-in-one fills on all.
  const plan = pinningPlan();
  if (CPU_PROFILE_DIR !== undefined) mkdirSync(CPU_PROFILE_DIR, { recursive: true });
  const rows: BenchRow[] = [];
  for (const layout of LAYOUTS) {
    if (layout !== 'blocks' && layout !== 'rows') throw new Error(`BENCH_RETENTION_LAYOUTS: unknown layout ${layout}`);
    rows.push(...(await measure(layout, plan)));
  }
  return rows;
}

if (import.meta.main) console.table(await retentionBenchmark());
