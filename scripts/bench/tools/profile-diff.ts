/**
 * The self time two sets of V8 .cpuprofile files spend per function, side by side, and the difference:
 * where one kind of run (e.g. with alert rules) spends more than another (without), per unit of work.
 *
 *   node scripts/bench/tools/profile-diff.ts <units a run> <top> <a1,a2,...> <b1,b2,...>
 *
 * `units a run` divides each set's totals by (files × units): µs per batch when a run handled that many.
 * Idle time and the profiler's own inspector calls are left out.
 */
import { readProfile } from '../harness/pinned/cpu-profile.ts';
import { areaOf, label } from './profile-summary.ts';

/** Self µs per function label over `files`. */
function selfTimes(files: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of files) {
    const profile = readProfile(file);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === '(idle)' || frame.url.startsWith('node:inspector')) return;
      const key = frame.url === '' ? `${label(frame)}` : `${label(frame)} [${areaOf(frame)}]`;
      out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
    });
  }
  return out;
}

const [units, top, a, b] = process.argv.slice(2);
if (units === undefined || top === undefined || a === undefined || b === undefined) throw new Error('usage: profile-diff.ts <units a run> <top> <a files> <b files>');
const filesA = a.split(',');
const filesB = b.split(',');
const timesA = selfTimes(filesA);
const timesB = selfTimes(filesB);
const perA = (us: number) => us / (filesA.length * Number(units));
const perB = (us: number) => us / (filesB.length * Number(units));
const total = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);
console.log(`total: a ${perA(total(timesA)).toFixed(2)} µs, b ${perB(total(timesB)).toFixed(2)} µs a unit, difference ${(perA(total(timesA)) - perB(total(timesB))).toFixed(2)}`);
const rows = [...new Set([...timesA.keys(), ...timesB.keys()])].map((key) => ({ key, a: perA(timesA.get(key) ?? 0), b: perB(timesB.get(key) ?? 0) }));
rows.sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b));
for (const row of rows.slice(0, Number(top))) console.log(`${(row.a - row.b).toFixed(2).padStart(8)}  a ${row.a.toFixed(2).padStart(8)}  b ${row.b.toFixed(2).padStart(8)}  ${row.key}`);
