/**
 * The all-in-one under test as it is deployed: its environment, and the compile cache left as
 * the Docker image's build leaves it.
 */
import { tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_FLAGS } from '../../../node-flags.mjs';
import { warmCompileCache } from '../../../warm-compile-cache.ts';
import { PinnedChild } from './pinned-child.ts';

/**
 * glibc's arenas capped as every deployment sets them (docs/INGESTION.md, "Photo memory"), and Node's
 * compile cache on, in the directory gateway/src/main.ts uses by default.
 */
export const AS_DEPLOYED: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache'),
  // BENCH_SKALD_NODE_OPTIONS: Node/V8 options for the all-in-one only (e.g. --max-semi-space-size=2).
  ...(process.env['BENCH_SKALD_NODE_OPTIONS'] ? { NODE_OPTIONS: process.env['BENCH_SKALD_NODE_OPTIONS'] } : {}),
};

/**
 * PinnedChild.start's options for an all-in-one started as deployed: AS_DEPLOYED (plus `env`), and the V8 flags
 * of every Skald process on its command line, as the image's CMD passes them (scripts/node-flags.mjs).
 */
export function asDeployed(env: Readonly<Record<string, string>> = {}): { env: Record<string, string>; execArgv: readonly string[] } {
  return { env: { ...AS_DEPLOYED, ...env }, execArgv: NODE_FLAGS };
}

/**
 * How long the provisioned process is left idle before its RSS is read: past V8's own memory reducer,
 * which shrinks the heap ~8 s after the allocations stop. At 3 s (the settle of the earlier passes) the
 * reading depended on whether the idle trim ran after provisioning or just before its end (then blocked
 * for a minute, leaving an 8 MiB young generation to V8): 109.9-122.4 MiB over 12 starts, 109.0-111.8
 * at 10 s over 17 (twice 116.3: malloc's second arena; docs/DECISIONS.md, "Performance").
 */
export const IDLE_SETTLE_MS = 10_000;

/**
 * Warms the compile cache of AS_DEPLOYED for `tree` as the image build does (scripts/warm-compile-cache.ts,
 * same directory and environment as the measured start), so that a change since the last run does not
 * make the measured start a cold one (Node's TypeScript stripper loaded, ~10 MiB). The harness's own
 * modules (skald-server.ts and what it imports from scripts/bench), which no image holds, are added by one
 * start of the harness that is not measured.
 */
export async function warmAsDeployed(tree: string, cpu: number | null): Promise<void> {
  await warmCompileCache({ root: tree, env: { ...process.env, ...AS_DEPLOYED } });
  await PinnedChild.start('all-in-one (compile cache warm-up)', skaldServerOf(tree), cpu, asDeployed()).close();
}

/**
 * The all-in-one under test in a source tree: scripts/bench/harness/pinned/skald-server.ts, or, in a tree of a
 * commit from before the bench folder was split (the A side of tools/ab.ts, tools/idle-memory.ts), the old place.
 */
export function skaldServerOf(tree: string): string {
  const current = join(tree, 'scripts/bench/harness/pinned/skald-server.ts');
  return existsSync(current) ? current : join(tree, 'scripts/bench/pinned/skald-server.ts');
}
