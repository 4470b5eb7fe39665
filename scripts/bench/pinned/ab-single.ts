/**
 * A/B of the single-log path between two source trees: the all-in-one of this tree (B) and of another
 * checkout (A, `AB_BASE=/path/to/tree`, with its own node_modules) run side by side on the server CPU and
 * take turns under the same load, the order flipping every round, like ingest.bench.ts alternates Skald
 * and bare Fastify: on a machine shared with other work, two processes measured in the same minute are
 * the fairest comparison there is.
 *
 *   AB_BASE=/path/to/other/tree node scripts/bench/pinned/ab-single.ts   (AB_ROUNDS=6, BENCH_DURATION_S=5)
 *
 * On a machine at load average ~9 two identical trees read 95% (73-98%), so this tells apart changes of
 * tens of percent there, not of a few.
 */
import { join } from 'node:path';
import { AS_DEPLOYED } from './as-deployed.ts';
import { SINGLE_BODY } from './bodies.ts';
import type { LoadResult } from './load-generator.ts';
import { PinnedChild, pinningPlan, pinSelf } from './pinned-child.ts';
import type { Provisioned } from './skald-server.ts';

const base = process.env['AB_BASE'];
if (!base) throw new Error('AB_BASE: the other tree (a checkout with node_modules)');
const ROUNDS = Number(process.env['AB_ROUNDS'] ?? 6);
const SECONDS = Number(process.env['BENCH_DURATION_S'] ?? 5);
// Both trees' all-in-ones run as deployed (the bench's own environment, one copy of it).
const env = AS_DEPLOYED;

const plan = pinningPlan();
pinSelf(plan.loadCpu);
const load = PinnedChild.start('load generator', './load-generator.ts', plan.loadCpu);
const sides = [
  { name: 'A', child: PinnedChild.start('A', join(base, 'scripts/bench/pinned/skald-server.ts'), plan.serverCpu, { env }) },
  { name: 'B', child: PinnedChild.start('B', './skald-server.ts', plan.serverCpu, { env }) },
];
const targets = await Promise.all(sides.map((s) => s.child.call<Provisioned>('provision')));

async function phase(i: number, seconds: number): Promise<{ rps: number; cpu: number; p99: number }> {
  const side = sides[i]!;
  const target = targets[i]!;
  const cpu = await side.child.call<number>('cpu');
  const result = await load.call<LoadResult>('post', {
    url: `${target.address}/api/logs`,
    headers: { 'content-type': 'application/json', 'x-api-key': target.apiKey },
    body: SINGLE_BODY,
    connections: 50,
    seconds,
  });
  // Let the consumers finish the tail of the load, so its CPU is counted.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const used = (await side.child.call<number>('cpu')) - cpu;
  return { rps: result.ok / result.seconds, cpu: used / Math.max(1, result.ok), p99: result.p99 };
}

await phase(0, 2);
await phase(1, 2);
const ratios: number[] = [];
const cpus: [number[], number[]] = [[], []];
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? [0, 1] : [1, 0];
  const got: { rps: number; cpu: number; p99: number }[] = [];
  for (const i of order) got[i] = await phase(i, SECONDS);
  const [a, b] = got as [{ rps: number; cpu: number; p99: number }, { rps: number; cpu: number; p99: number }];
  ratios.push(b.cpu / a.cpu);
  cpus[0].push(a.cpu);
  cpus[1].push(b.cpu);
  const load1 = (await import('node:os')).loadavg()[0]!.toFixed(1);
  console.log(`round ${round}: A ${a.rps.toFixed(0)} req/s ${a.cpu.toFixed(1)} µs/req p99 ${a.p99} ms | B ${b.rps.toFixed(0)} req/s ${b.cpu.toFixed(1)} µs/req p99 ${b.p99} ms | B/A CPU ${(100 * b.cpu / a.cpu).toFixed(0)}% (load ${load1})`);
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`median CPU per request: A ${median(cpus[0]).toFixed(1)} µs, B ${median(cpus[1]).toFixed(1)} µs; B/A median ${(100 * median(ratios)).toFixed(0)}% (spread ${(100 * Math.min(...ratios)).toFixed(0)}-${(100 * Math.max(...ratios)).toFixed(0)}%)`);
await Promise.all([load.close(), ...sides.map((s) => s.child.close())]);
