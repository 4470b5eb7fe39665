/**
 * Summarises a V8 .cpuprofile (from --cpu-prof or the pinned benchmark's BENCH_CPU_PROF): the share of
 * sampled time by area (Skald's own code per package, each dependency, Node internals, GC, native) and
 * the top functions by self time, with the Skald frame that called into each dependency.
 *
 *   node scripts/bench/tools/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readProfile } from '../harness/pinned/cpu-profile.ts';
import type { CallFrame, Profile } from '../harness/pinned/cpu-profile.ts';

/** Where a frame lives: `skald:<package dir>`, `dep:<npm package>`, `node:internal`, or V8's pseudo frames. */
export function areaOf(frame: CallFrame): string {
  const url = frame.url;
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dep) return `dep:${dep[1]}`;
  const own = /\/(libs|services|gateway|scripts)\/([^/]+)?/.exec(url);
  if (own) return own[1] === 'gateway' ? 'skald:gateway' : `skald:${own[1]}/${own[2] ?? ''}`;
  return url;
}

/** A frame as `<function> <path from the package or workspace folder>:<line>`. */
export const label = (f: CallFrame): string => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|libs|services|gateway|scripts)\//, '$1/')}:${f.lineNumber + 1}`;

export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
    total += dt;
  });
  const idle = [...selfUs].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0);
  const busy = total - idle;

  const byArea = new Map<string, number>();
  const byFunction = new Map<string, { us: number; caller: string }>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const area = areaOf(frame);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    // The nearest Skald frame above a dependency or internal frame: who asked for this work.
    let caller = '';
    for (let up = parent.get(id); up !== undefined && caller === ''; up = parent.get(up)) {
      const f = byId.get(up)!.callFrame;
      if (areaOf(f).startsWith('skald:')) caller = label(f);
    }
    // Native frames (SQLite's run/exec, JSON) are one function for many callers: split them by caller.
    const key = frame.url === '' && caller !== '' ? `${label(frame)} [${caller}]` : label(frame);
    const entry = byFunction.get(key) ?? { us: 0, caller };
    entry.us += us;
    byFunction.set(key, entry);
  }
  const share = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const lines = [`sampled ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (${((busy / total) * 100).toFixed(0)}%); shares of busy time`, '', 'by area:'];
  for (const [area, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`  ${share(us)}  ${area}`);
  lines.push('', `top ${top} functions by self time (<- nearest Skald caller):`);
  for (const [name, { us, caller }] of [...byFunction].sort((a, b) => b[1].us - a[1].us).slice(0, top)) {
    lines.push(`  ${share(us)}  ${name}${caller && !name.includes(caller) ? `  <- ${caller}` : ''}`);
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
  console.log(summarise(readProfile(file), Number(process.argv[3] ?? 25)));
}
