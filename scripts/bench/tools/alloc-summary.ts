/**
 * Summarises a V8 sampling heap profile (.heapprofile, from ab.ts's AB_ALLOC_PROF: a pinned child's
 * alloc-start / alloc-stop): bytes allocated by area (profile-summary.ts's areas) and the
 * top allocating functions with their nearest Skald caller, per unit of work when told how many units
 * the profiled phase served. Collected objects are included (the profile is taken with
 * includeObjectsCollectedBy{Major,Minor}GC), so this is the allocation rate the garbage collector works
 * through, not what stays.
 *
 *   node scripts/bench/tools/alloc-summary.ts <file.heapprofile> [units] [top=25]
 */
import { readFileSync } from 'node:fs';
import type { CallFrame } from '../harness/pinned/cpu-profile.ts';
import { areaOf, label } from './profile-summary.ts';

export interface HeapNode {
  readonly callFrame: CallFrame;
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}

export function summariseAllocations(head: HeapNode, units: number, top = 25): string {
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, skaldCaller: string): void => {
    const own = areaOf(node.callFrame).startsWith('skald:') ? label(node.callFrame) : skaldCaller;
    if (node.selfSize > 0) {
      total += node.selfSize;
      const area = areaOf(node.callFrame);
      byArea.set(area, (byArea.get(area) ?? 0) + node.selfSize);
      const key = own !== '' && own !== label(node.callFrame) ? `${label(node.callFrame)}  <- ${own}` : label(node.callFrame);
      byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, own);
  };
  walk(head, '');
  const per = (bytes: number): string => (units > 0 ? `${(bytes / units).toFixed(0).padStart(7)} B/unit` : '');
  const share = (bytes: number): string => `${((bytes / total) * 100).toFixed(1).padStart(5)}%`;
  const lines = [`allocated ${(total / 1048576).toFixed(1)} MiB${units > 0 ? ` over ${units} units: ${(total / units).toFixed(0)} B each` : ''}`, '', 'by area:'];
  for (const [area, bytes] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`  ${share(bytes)} ${per(bytes)}  ${area}`);
  lines.push('', `top ${top} allocating functions (<- nearest Skald caller):`);
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${share(bytes)} ${per(bytes)}  ${name}`);
  return lines.join('\n');
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: alloc-summary.ts <file.heapprofile> [units] [top]');
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
  console.log(summariseAllocations(head, Number(process.argv[3] ?? 0), Number(process.argv[4] ?? 25)));
}
