/**
 * Splits a batch-phase .cpuprofile (BENCH_CPU_PROF) by pipeline stage: each sample goes to the first
 * stage whose rule matches its whole stack (leaf to root), so a stage counts everything under it (the
 * SQLite call, JSON.stringify, GC excepted) where profile-summary.ts counts self time by package.
 * docs/PERFORMANCE.md cites these shares. The profiler's own inspector call and idle time are left out.
 *
 * With `--turns <name>.turns.json` (written beside the profile by ingest.bench's profiled phases) it also
 * splits the samples taken during the event loop's long iterations (loop-turns.ts), side by side with the
 * whole phase, and lists the longest of them with their largest stages: what makes a turn long.
 *
 *   node scripts/bench/tools/profile-stages.ts <file.cpuprofile> [--turns <file.turns.json>]
 */
import { readFileSync } from 'node:fs';
import { readProfile, sampleTimes } from '../harness/pinned/cpu-profile.ts';
import type { Profile } from '../harness/pinned/cpu-profile.ts';
import type { LongTurn, LoopTurns } from '../harness/pinned/loop-turns.ts';

/** A frame as `<function> <url>:<line>`. */
type Stack = readonly string[];

const has = (stack: Stack, test: (frame: string) => boolean): boolean => stack.some(test);
const calls = (stack: Stack, fn: string, file: string): boolean => has(stack, (f) => f.startsWith(`${fn} `) && f.includes(file));

/** In order: the first rule that matches a sample's stack takes it. */
const STAGES: readonly (readonly [string, (stack: Stack) => boolean])[] = [
  ['(idle)', (s) => s[0]!.startsWith('(idle)')],
  ['(profiler)', (s) => has(s, (f) => f.includes('node:inspector'))],
  ['GC', (s) => s[0]!.startsWith('(garbage collector)')],
  ['store: background search indexer', (s) => has(s, (f) => f.startsWith('#indexNextChunk ') || f.startsWith('indexPending '))],
  ['store: insertBatch BEGIN/COMMIT', (s) => has(s, (f) => f.startsWith('insertBatch ')) && has(s, (f) => f.startsWith('exec '))],
  ['store: insertBatch rows', (s) => has(s, (f) => f.startsWith('insertBatch '))],
  ['logs consumer, other (tier, live tails, counts)', (s) => has(s, (f) => f.includes('/services/logs/'))],
  ['webhooks consumer', (s) => has(s, (f) => f.includes('/services/webhooks/'))],
  ['event validation (consumers)', (s) => has(s, (f) => f.startsWith('validateEventData '))],
  ['bus: freeze walk of a shared payload', (s) => calls(s, 'keep', 'published-payloads')],
  ['bus: journal append (insert + COMMIT)', (s) => calls(s, 'append', 'journal')],
  ['bus: publish (JSON.stringify)', (s) => calls(s, 'publish', 'memory-event-bus')],
  ['bus: offset commit', (s) => calls(s, 'commit', 'journal')],
  ['bus: fetch', (s) => calls(s, 'fetch', 'journal')],
  ['bus: deliver (JSON.parse of the row / shared copy)', (s) => has(s, (f) => f.startsWith('#deliver ') || f.startsWith('#payloadOf '))],
  ['bus: other', (s) => has(s, (f) => f.includes('/event-bus/'))],
  ['ingestion (validation, ids, chunking)', (s) => has(s, (f) => f.includes('/services/ingestion/'))],
  ['request body JSON.parse', (s) => has(s, (f) => f.includes('secure-json-parse'))],
  ['HTTP, Fastify, Node, other', () => true],
];

/** Each sample's stage (null for idle and the profiler's own call), in sample order. */
export function sampleStages(profile: Profile): (string | null)[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map<number, string>();
  const stageOf = (id: number): string => {
    let stage = stageOfNode.get(id);
    if (stage === undefined) {
      const stack: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        stack.push(`${frame.functionName || '(anonymous)'} ${frame.url}:${frame.lineNumber + 1}`);
      }
      stage = STAGES.find(([, matches]) => matches(stack))![0];
      stageOfNode.set(id, stage);
    }
    return stage;
  };
  return profile.samples.map((id) => {
    const stage = stageOf(id);
    return stage === '(idle)' || stage === '(profiler)' ? null : stage;
  });
}

export interface StageShares {
  readonly busyUs: number;
  readonly shares: [string, number][];
}

/** Busy time by stage over the samples `keep` accepts (all by default). */
export function stageShares(profile: Profile, keep: (sample: number) => boolean = () => true): StageShares {
  const stages = sampleStages(profile);
  const byStage = new Map<string, number>();
  stages.forEach((stage, i) => {
    if (stage !== null && keep(i)) byStage.set(stage, (byStage.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const busyUs = [...byStage.values()].reduce((a, b) => a + b, 0);
  const shares = [...byStage].map(([stage, us]): [string, number] => [stage, us / busyUs]).sort((a, b) => b[1] - a[1]);
  return { busyUs, shares };
}

/** The index of the long turn each sample fell in, or -1 (turns are ordered and do not overlap). */
function turnOfSample(times: readonly number[], turns: readonly LongTurn[]): number[] {
  let t = 0;
  return times.map((at) => {
    while (t < turns.length && turns[t]!.endUs < at) t += 1;
    return t < turns.length && turns[t]!.startUs <= at ? t : -1;
  });
}

const pctOf = (share: number | undefined): string => `${((share ?? 0) * 100).toFixed(1).padStart(6)}%`;

function printTurns(profile: Profile, recorded: LoopTurns): void {
  const times = sampleTimes(profile);
  const inTurn = turnOfSample(times, recorded.long);
  const whole = stageShares(profile);
  const long = stageShares(profile, (i) => inTurn[i]! >= 0);
  const spanUs = (times.at(-1) ?? 0) - (profile.startTime ?? 0);
  const longUs = recorded.long.reduce((sum, t) => sum + (t.endUs - t.startUs), 0);
  const longCpuUs = recorded.long.reduce((sum, t) => sum + t.cpuUs, 0);
  const longProcessCpuUs = recorded.long.reduce((sum, t) => sum + t.processCpuUs, 0);
  const matched = new Set(inTurn.filter((t) => t >= 0)).size;
  console.log(
    `loop iterations ${recorded.iterations}, ${recorded.long.length} of 20 ms or more (${matched} with samples), ` +
      `${(longUs / 1e3).toFixed(0)} ms of ${(spanUs / 1e3).toFixed(0)} ms profiled (${((longUs / spanUs) * 100).toFixed(1)}%), ` +
      `the loop's thread on the CPU for ${(longCpuUs / 1e3).toFixed(0)} ms of them, all the process's threads ${(longProcessCpuUs / 1e3).toFixed(0)} ms`,
  );
  console.log(`threads' CPU over the phase (ms): ${recorded.threads.map((t) => `${t.name} ${(t.cpuUs / 1e3).toFixed(0)}`).join(', ')}`);
  console.log(`busy: whole phase ${(whole.busyUs / 1e6).toFixed(2)} s, long turns ${(long.busyUs / 1e6).toFixed(2)} s; shares by stage:`);
  const longShares = new Map(long.shares);
  console.log('  whole    long  stage');
  for (const [stage, share] of whole.shares) console.log(`${pctOf(share)} ${pctOf(longShares.get(stage))}  ${stage}`);
  const stages = sampleStages(profile);
  const longest = recorded.long.map((turn, index) => ({ turn, index })).sort((a, b) => (b.turn.endUs - b.turn.startUs) - (a.turn.endUs - a.turn.startUs)).slice(0, 12);
  console.log('longest turns (wall ms / the loop thread\'s CPU ms / all threads\' CPU ms, then their largest stages by sampled time):');
  for (const { turn, index } of longest) {
    const byStage = new Map<string, number>();
    let idleUs = 0;
    inTurn.forEach((t, i) => {
      if (t !== index) return;
      const stage = stages[i];
      if (stage === null || stage === undefined) idleUs += profile.timeDeltas[i] ?? 0;
      else byStage.set(stage, (byStage.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
    });
    const top = [...byStage].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([stage, us]) => `${stage} ${(us / 1e3).toFixed(1)}`);
    console.log(`  ${((turn.endUs - turn.startUs) / 1e3).toFixed(1).padStart(6)} / ${(turn.cpuUs / 1e3).toFixed(1).padStart(5)} / ${(turn.processCpuUs / 1e3).toFixed(1).padStart(5)}  ${top.join('; ')}${idleUs > 0 ? `; idle/profiler ${(idleUs / 1e3).toFixed(1)}` : ''}`);
  }
}

if (import.meta.main) {
  const [file, flag, turnsFile] = process.argv.slice(2);
  if (!file || (flag !== undefined && (flag !== '--turns' || !turnsFile))) throw new Error('usage: profile-stages.ts <file.cpuprofile> [--turns <file.turns.json>]');
  const profile = readProfile(file);
  if (turnsFile) {
    printTurns(profile, JSON.parse(readFileSync(turnsFile, 'utf8')) as LoopTurns);
  } else {
    const { busyUs, shares } = stageShares(profile);
    console.log(`busy ${(busyUs / 1e6).toFixed(2)} s (idle and the profiler's own call left out); shares by stage:`);
    for (const [stage, share] of shares) console.log(`${pctOf(share)}  ${stage}`);
  }
}
