/**
 * Idle memory of the all-in-one, measured as ingest.bench.ts measures it (compile cache warmed as the
 * image build does, started as deployed, one user and server provisioned, IDLE_SETTLE_MS settled, before any load),
 * with V8's heap by space beside the RSS, for one or several source trees started in turn, each
 * IDLE_STARTS times.
 *
 *   node scripts/bench/tools/idle-memory.ts [other-tree ...]   (IDLE_STARTS=2)
 */
import { fileURLToPath } from 'node:url';
import { asDeployed, IDLE_SETTLE_MS, skaldServerOf, warmAsDeployed } from '../harness/pinned/as-deployed.ts';
import type { RssSplit } from '../harness/pinned/child-rpc.ts';
import { PinnedChild, pinningPlan } from '../harness/pinned/pinned-child.ts';

interface Memory {
  readonly usage: NodeJS.MemoryUsage;
  readonly spaces: readonly { readonly space: string; readonly size: number; readonly used: number }[];
}

const here = fileURLToPath(new URL('../../..', import.meta.url));
const trees = [here, ...process.argv.slice(2)];
const starts = Number(process.env['IDLE_STARTS'] ?? 2);
const mib = (bytes: number) => (bytes / 1048576).toFixed(1);
const plan = pinningPlan();

for (const tree of trees) await warmAsDeployed(tree, plan.serverCpu);
for (let start = 1; start <= starts; start++) {
  for (const tree of trees) {
    const child = PinnedChild.start(tree, skaldServerOf(tree), plan.serverCpu, asDeployed());
    try {
      await child.call('provision');
      await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
      const rss = await child.call<RssSplit>('rss');
      console.log(`${tree}, start ${start}: RSS ${mib(rss.rss)} MiB (${mib(rss.anon)} anonymous, ${mib(rss.file)} file-backed)`);
      const memory = await child.call<Memory | null>('memory').catch(() => null);
      if (memory === null) continue;
      const { heapTotal, heapUsed, external } = memory.usage;
      const spaces = memory.spaces.filter((s) => s.size > 0).map((s) => `${s.space} ${mib(s.used)}/${mib(s.size)}`);
      console.log(`  V8 heap ${mib(heapUsed)} used of ${mib(heapTotal)} MiB, external ${mib(external)} MiB; used/committed: ${spaces.join(', ')}`);
    } finally {
      await child.close();
    }
  }
}
