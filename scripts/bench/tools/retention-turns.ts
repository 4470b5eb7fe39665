/**
 * The retention sweep of a log store in this process, with the event loop's long turns recorded: what a sweep
 * holds the store's thread for, without HTTP (retention.bench.ts measures the requests). Fills a block store
 * (or a row store: TURNS_LAYOUT=rows) with two days of FiveM lines (TURNS_HOURLY an hour, default 100,000),
 * the older expired, as retention.bench.ts does; then inserts a log every 10 ms (the consumer's single-log
 * batches) while deleteExpired runs, and prints the sweep's time, the longest turns, and the inserts' latencies.
 * Run: `node scripts/bench/tools/retention-turns.ts` (add --cpu-prof for a profile).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogStore } from '@skald/ports';
import { BlockLogStore } from '../../../libs/adapters/src/log-store/block-log-store.ts';
import { SqliteLogStore } from '../../../libs/adapters/src/log-store/sqlite-log-store.ts';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { fivemBatch } from '../harness/fivem-logs.ts';
import { LongTurnRecorder } from '../harness/pinned/loop-turns.ts';
import { machineLoad, percentile } from '../harness/samples.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const HOURLY = Number(process.env['TURNS_HOURLY'] ?? 100_000);
const LAYOUT = process.env['TURNS_LAYOUT'] === 'rows' ? 'rows' : 'blocks';

const dir = await mkdtemp(join(tmpdir(), 'skald-retention-turns-'));
const file = join(dir, 'logs.db');
const store: LogStore = LAYOUT === 'blocks' ? new BlockLogStore(file) : new SqliteLogStore(file);
try {
  const started = Date.now();
  const dayRows = HOURLY * 24;
  const t = performance.now();
  for (const t0 of [started - 61 * DAY - 2 * HOUR, started - 60 * DAY + 2 * HOUR]) {
    for (let start = 0; start < dayRows; start += 1000) {
      await store.insertBatch(fivemBatch('srv', start, Math.min(1000, dayRows - start), dayRows, t0, 1));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const blocks = store instanceof BlockLogStore ? store : null;
  if (blocks) {
    await blocks.sealDue();
    await blocks.partsBuilt();
    await blocks.sealDue();
    console.log(`filled ${2 * dayRows} logs in ${((performance.now() - t) / 1000).toFixed(0)} s: ${JSON.stringify(blocks.layout())} (${machineLoad()})`);
  } else {
    const rows = store as SqliteLogStore;
    while (rows.indexPending(1) > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    console.log(`filled ${2 * dayRows} logs in ${((performance.now() - t) / 1000).toFixed(0)} s, indexed (${machineLoad()})`);
  }

  // The loop's long turns (wall and the loop thread's CPU), and a CPU profile of the sweep when TURNS_PROFILE names a file prefix.
  const recorder = new LongTurnRecorder(10);
  const profilePrefix = process.env['TURNS_PROFILE'];
  const session = profilePrefix ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  recorder.start();
  const inserts: number[] = [];
  let n = 0;
  let inserting = true;
  const insertLoop = (async () => {
    while (inserting) {
      const at = performance.now();
      await store.insertBatch(fivemBatch('srv', n++, 1, 1, Date.now(), 0).map((r) => ({ ...r, expiresAt: Date.now() + 365 * DAY })));
      inserts.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const sweepStart = performance.now();
  const result = await store.deleteExpired(Date.now());
  const sweepMs = performance.now() - sweepStart;
  inserting = false;
  await insertLoop;
  const recorded = recorder.stop();
  if (session && profilePrefix) {
    await writeFile(`${profilePrefix}.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile));
    await writeFile(`${profilePrefix}.turns.json`, JSON.stringify(recorded));
    session.disconnect();
  }
  const turns = [...recorded.long].sort((a, b) => b.endUs - b.startUs - (a.endUs - a.startUs));
  inserts.sort((a, b) => a - b);
  console.log(`${LAYOUT}: sweep ${sweepMs.toFixed(0)} ms, ${result.deletedCount} deleted (${machineLoad()})`);
  const show = (t: { startUs: number; endUs: number; cpuUs: number }): string => `${((t.endUs - t.startUs) / 1000).toFixed(1)} (CPU ${(t.cpuUs / 1000).toFixed(1)})`;
  console.log(`turns of 10 ms or more: ${turns.length}, longest wall (loop thread CPU) ${turns.slice(0, 10).map(show).join(', ')} ms`);
  console.log(`inserts during the sweep: ${inserts.length}, p50 ${percentile(inserts, 50).toFixed(1)} ms, p99 ${percentile(inserts, 99).toFixed(1)} ms, max ${inserts.at(-1)?.toFixed(1)} ms`);
  if (blocks) console.log(`after: ${JSON.stringify(blocks.layout())}`);
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
