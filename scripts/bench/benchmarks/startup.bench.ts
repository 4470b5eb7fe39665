/**
 * How long the all-in-one takes from spawn to every service answering its health, as `npm start` runs it
 * (`node <NODE_FLAGS> gateway/src/main.ts`, TARGET=all, a new empty DATA_DIR each start, PORT=0 read from its
 * listening line, which it logs at level info), beside a bare Node HTTP server spawned the same way in the same run (the floor: Node's own
 * start on this machine at this load). Target: every service healthy within 10 s of the spawn. The start time
 * is a speed figure, so it lives here and not in a timed test (test/sigkill-durability.integration.test.ts
 * checks that every service answers, without a clock).
 * Starts of the two kinds alternate BENCH_STARTUP_ROUNDS times (default 5); the figures are medians.
 * Run: `npm run bench -- startup`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@skald/service-kit';
import { listeningPort } from '@skald/testing/listening-line';
import type { BenchRow } from '../harness/bench-row.ts';
import { describeSpread, spread } from '../harness/pinned/stats.ts';
import { NODE_FLAGS } from '../../node-flags.mjs';

const ROUNDS = Number(process.env['BENCH_STARTUP_ROUNDS'] ?? 5);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const TARGET_MS = 10_000;
const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });`;

/** Spawns `args`, waits for its listening line, then until every path answers 200; the milliseconds from the spawn. */
async function timeToReady(args: readonly string[], env: Record<string, string>, paths: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const port = listeningPort(output);
        if (port !== undefined) resolve(`http://127.0.0.1:${port}`);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => reject(new Error(`exited with ${String(code)} before listening:\n${output.slice(-2000)}`)));
    });
    for (const path of paths) {
      for (;;) {
        const answer = await fetch(`${baseUrl}${path}`).catch(() => undefined);
        await answer?.arrayBuffer();
        if (answer?.status === 200) break;
        if (performance.now() - started > 120_000) throw new Error(`${path} not 200 within 120 s:\n${output.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    return performance.now() - started;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  }
}

async function startSkald(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'skald-bench-startup-'));
  try {
    const paths = ['/api/health', ...SERVICE_NAMES.map((name) => `/api/${name}/health`)];
    return await timeToReady([...NODE_FLAGS, join(ROOT, 'gateway', 'src', 'main.ts')], { TARGET: 'all', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1' }, paths);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const loadBefore = loadavg()[0]!;
  const skald: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The order flips every round, so a change of the machine's load falls on both alike.
    if (round % 2 === 0) {
      skald.push(await startSkald());
      bare.push(await timeToReady(['-e', BARE_SERVER], {}, ['/']));
    } else {
      bare.push(await timeToReady(['-e', BARE_SERVER], {}, ['/']));
      skald.push(await startSkald());
    }
  }
  const ms = (n: number) => `${Math.round(n)} ms`;
  const skaldSpread = spread(skald);
  const bareSpread = spread(bare);
  return [
    {
      name: 'all-in-one start: spawn to every service healthy (empty data folder)',
      value: Math.round(skaldSpread.median),
      unit: 'ms',
      target: `< ${TARGET_MS.toLocaleString('en-US')} ms`,
      pass: skaldSpread.median < TARGET_MS,
      baseline: `a bare Node HTTP server ${ms(bareSpread.median)} (${describeSpread(bareSpread, ms)})`,
      note: `${describeSpread(skaldSpread, ms)}; ${ROUNDS} starts of each, alternating; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
    },
  ];
}

export default run;

if (import.meta.main) {
  const rows = await run();
  console.table(rows.map((r) => ({ metric: r.name, value: r.value, unit: r.unit, target: r.target ?? '', baseline: r.baseline ?? '', note: r.note ?? '' })));
}
