/**
 * Splits a batch-phase .cpuprofile (BENCH_CPU_PROF) by pipeline stage: each sample goes to the first
 * stage whose rule matches its whole stack (leaf to root), so a stage counts everything under it (the
 * SQLite call, JSON.stringify, GC excepted) where profile-summary.ts counts self time by package.
 * docs/PERFORMANCE.md cites these shares. The profiler's own inspector call and idle time are left out.
 *
 *   node scripts/bench/pinned/profile-stages.ts <batch.cpuprofile>
 */
import { readProfile } from './cpu-profile.ts';
import type { Profile } from './cpu-profile.ts';

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

export function stageShares(profile: Profile): { busyUs: number; shares: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byStage = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      stack.push(`${frame.functionName || '(anonymous)'} ${frame.url}:${frame.lineNumber + 1}`);
    }
    const stage = STAGES.find(([, matches]) => matches(stack))![0];
    byStage.set(stage, (byStage.get(stage) ?? 0) + us);
  }
  byStage.delete('(idle)');
  byStage.delete('(profiler)');
  const busyUs = [...byStage.values()].reduce((a, b) => a + b, 0);
  const shares = [...byStage].map(([stage, us]): [string, number] => [stage, us / busyUs]).sort((a, b) => b[1] - a[1]);
  return { busyUs, shares };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-stages.ts <file.cpuprofile>');
  const { busyUs, shares } = stageShares(readProfile(file));
  console.log(`busy ${(busyUs / 1e6).toFixed(2)} s (idle and the profiler's own call left out); shares by stage:`);
  for (const [stage, share] of shares) console.log(`${(share * 100).toFixed(1).padStart(6)}%  ${stage}`);
}
