/**
 * A/B of the ingestion path between two source trees: the all-in-one of this tree (B) and of another
 * checkout (A, `AB_BASE=/path/to/tree`, with its own node_modules) run side by side on the server CPU and
 * take turns under the same load, the order flipping every round, like ingest.bench.ts alternates Skald
 * and bare Fastify: on a machine shared with other work, two processes measured in the same minute are
 * the fairest comparison there is.
 *
 *   AB_BASE=/path/to/other/tree node scripts/bench/tools/ab.ts   (AB_ROUNDS=6, BENCH_DURATION_S=5)
 *
 * `node scripts/bench/tools/ab-base.ts <commit>` prepares such a tree from an earlier commit (a worktree with
 * this tree's node_modules and harness).
 *
 * AB_PATH=single (default): single-log POSTs at 50 connections, CPU per acknowledged request (the consumers'
 * tail included). AB_PATH=batch: batches of 1000 at 8 connections, CPU per log until every acknowledged log
 * is stored, as ingest.bench.ts measures the batch path.
 *
 * Both sides run with the deployed V8 flags (scripts/node-flags.mjs), but a side on a Node of its own (below).
 * AB_A_ARGS / AB_B_ARGS: Node and V8 flags for that side's process (space-separated, on its command line,
 * so V8 flags NODE_OPTIONS refuses work too): `AB_BASE=. AB_B_ARGS=--single-threaded-gc` compares one tree
 * with and without a flag. AB_A_NODE / AB_B_NODE: that side's Node binary (default: the one running ab.ts), to
 * compare runtimes on one tree: `AB_BASE=. AB_B_NODE=/path/to/node`. Each phase also reports the event loop's delay p99 (loop-delay-start/-stop) and
 * its iterations of 20 ms or more (turns-start/-stop): how many, and how much of their wall time the loop's
 * thread and all of the process's threads were on the CPU.
 * AB_ALLOC_PROF=<dir>: after the rounds, one more phase per side under V8's sampling heap profiler, written
 * as <dir>/A.heapprofile and B.heapprofile and summarised per acknowledged unit (alloc-summary.ts).
 *
 * On a machine at load average ~9 two identical trees read 95% (73-98%), so this tells apart changes of
 * tens of percent there, not of a few.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summariseAllocations } from './alloc-summary.ts';
import type { HeapNode } from './alloc-summary.ts';
import { asDeployed, skaldServerOf } from '../harness/pinned/as-deployed.ts';
import { BATCH_BODY, BATCH_SIZE, SINGLE_BODY } from '../harness/pinned/bodies.ts';
import type { LoopDelay } from '../harness/pinned/child-rpc.ts';
import type { LoadResult } from '../harness/pinned/load-generator.ts';
import type { TurnsSummary } from '../harness/pinned/loop-turns.ts';
import { PinnedChild, pinningPlan, pinSelf } from '../harness/pinned/pinned-child.ts';
import type { Provisioned } from '../harness/pinned/skald-server.ts';

const base = process.env['AB_BASE'];
if (!base) throw new Error('AB_BASE: the other tree (a checkout with node_modules)');
const ROUNDS = Number(process.env['AB_ROUNDS'] ?? 6);
const SECONDS = Number(process.env['BENCH_DURATION_S'] ?? 5);
const BATCH = process.env['AB_PATH'] === 'batch';
if (!BATCH && (process.env['AB_PATH'] ?? 'single') !== 'single') throw new Error('AB_PATH: single or batch');
const unit = BATCH ? 'log' : 'req';
// Both trees' all-in-ones run as deployed (the bench's own environment and V8 flags, one copy of them).
const deployed = asDeployed();
const env = deployed.env;

const plan = pinningPlan();
pinSelf(plan.loadCpu);
const load = PinnedChild.start('load generator', './load-generator.ts', plan.loadCpu);
const nodeOf = (side: 'A' | 'B'): string | undefined => process.env[`AB_${side}_NODE`];
/** The deployed V8 flags, then AB_<side>_ARGS; another runtime (AB_<side>_NODE) may not know them: it takes its own. */
const argsOf = (side: 'A' | 'B'): string[] => [
  ...(nodeOf(side) === undefined ? deployed.execArgv : []),
  ...(process.env[`AB_${side}_ARGS`] ?? '').split(' ').filter((arg) => arg !== ''),
];
const sides = [
  { name: 'A', child: PinnedChild.start('A', skaldServerOf(base), plan.serverCpu, { env, execArgv: argsOf('A'), node: nodeOf('A') }) },
  { name: 'B', child: PinnedChild.start('B', './skald-server.ts', plan.serverCpu, { env, execArgv: argsOf('B'), node: nodeOf('B') }) },
];
console.log(`A: ${base} ${argsOf('A').join(' ')} | B: this tree ${argsOf('B').join(' ')}`);
const targets = await Promise.all(sides.map((s) => s.child.call<Provisioned>('provision')));

interface Phase {
  readonly rps: number;
  readonly cpu: number;
  readonly p99: number;
  readonly loopP99: number;
  readonly turns: TurnsSummary;
  /** Requests (single) or logs (batch) acknowledged. */
  readonly units: number;
}

const turnsLine = (t: TurnsSummary): string =>
  `${t.long} turns >= 20 ms: ${t.wallMs.toFixed(0)} ms, loop thread ${t.loopCpuMs.toFixed(0)}, all threads ${t.processCpuMs.toFixed(0)}; ` +
  `phase CPU ms by thread: ${threadsLine(t.threads)}`;

/** Threads of one name summed (V8's four workers as one), largest first. */
function threadsLine(threads: TurnsSummary['threads']): string {
  const byName = new Map<string, number>();
  for (const thread of threads) byName.set(thread.name, (byName.get(thread.name) ?? 0) + thread.cpuUs / 1000);
  return [...byName].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ');
}

async function phase(i: number, seconds: number): Promise<Phase> {
  const side = sides[i]!;
  const target = targets[i]!;
  const storedBefore = BATCH ? await side.child.call<number>('stored', target.serverId) : 0;
  const cpu = await side.child.call<number>('cpu');
  await side.child.call('loop-delay-start');
  await side.child.call('turns-start');
  const result = await load.call<LoadResult>('post', {
    url: `${target.address}/api/logs`,
    headers: { 'content-type': 'application/json', 'x-api-key': target.apiKey },
    body: BATCH ? BATCH_BODY : SINGLE_BODY,
    connections: BATCH ? 8 : 50,
    seconds,
  });
  const loopDelay = await side.child.call<LoopDelay>('loop-delay-stop');
  const turns = await side.child.call<TurnsSummary>('turns-stop', null);
  const units = result.ok * (BATCH ? BATCH_SIZE : 1);
  if (BATCH) {
    // Until every acknowledged log is stored, so the consumers' whole share is counted.
    const deadline = Date.now() + 120_000;
    while ((await side.child.call<number>('stored', target.serverId)) < storedBefore + units) {
      if (Date.now() > deadline) throw new Error(`${side.name}: acknowledged logs not stored within 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } else {
    // Let the consumers finish the tail of the load, so its CPU is counted.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const used = (await side.child.call<number>('cpu')) - cpu;
  return { rps: units / result.seconds, cpu: used / Math.max(1, units), p99: result.p99, loopP99: loopDelay.p99, turns, units };
}

await phase(0, 2);
await phase(1, 2);
const ratios: number[] = [];
const cpus: [number[], number[]] = [[], []];
const p99s: [number[], number[]] = [[], []];
const loopP99s: [number[], number[]] = [[], []];
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? [0, 1] : [1, 0];
  const got: Phase[] = [];
  for (const i of order) got[i] = await phase(i, SECONDS);
  const [a, b] = got as [Phase, Phase];
  ratios.push(b.cpu / a.cpu);
  cpus[0].push(a.cpu);
  cpus[1].push(b.cpu);
  [a, b].forEach((side, i) => {
    p99s[i]!.push(side.p99);
    loopP99s[i]!.push(side.loopP99);
  });
  const load1 = (await import('node:os')).loadavg()[0]!.toFixed(1);
  console.log(`  A ${turnsLine(a.turns)}\n  B ${turnsLine(b.turns)}`);
  console.log(`round ${round}: A ${a.rps.toFixed(0)} ${unit}/s ${a.cpu.toFixed(2)} µs/${unit} p99 ${a.p99} ms loop ${a.loopP99.toFixed(1)} ms | B ${b.rps.toFixed(0)} ${unit}/s ${b.cpu.toFixed(2)} µs/${unit} p99 ${b.p99} ms loop ${b.loopP99.toFixed(1)} ms | B/A CPU ${(100 * b.cpu / a.cpu).toFixed(0)}% (load ${load1})`);
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`median CPU per ${unit}: A ${median(cpus[0]).toFixed(2)} µs, B ${median(cpus[1]).toFixed(2)} µs; B/A median ${(100 * median(ratios)).toFixed(0)}% (spread ${(100 * Math.min(...ratios)).toFixed(0)}-${(100 * Math.max(...ratios)).toFixed(0)}%)`);
console.log(`median p99: A ${median(p99s[0])} ms, B ${median(p99s[1])} ms; median loop delay p99: A ${median(loopP99s[0]).toFixed(1)} ms, B ${median(loopP99s[1]).toFixed(1)} ms`);
const allocDir = process.env['AB_ALLOC_PROF'];
if (allocDir) {
  for (const [i, side] of sides.entries()) {
    await side.child.call('alloc-start');
    const { units } = await phase(i, SECONDS);
    const file = await side.child.call<string>('alloc-stop', join(allocDir, `${side.name}.heapprofile`));
    console.log(`\n${side.name}: ${file}\n${summariseAllocations((JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head, units)}`);
  }
}
await Promise.all([load.close(), ...sides.map((s) => s.child.close())]);
