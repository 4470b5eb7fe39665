/**
 * The logs service catching up: a backlog of `logs.batch-accepted` events waits
 * on the journal bus (the logs consumer was down, or fell behind a burst) and the logs store consumer
 * drains it into the embedded log store, notices and counts marks included, as the service runs it
 * (startBatchConsumer: the events one read brought stored together, one transaction per part). The
 * baseline, alternating with it in the same run, is the same store step one event at a time (one
 * transaction, one notice publish and one offset commit per event), as the consumer did before.
 *
 * BENCH_CATCHUP_ROUNDS (default 3) alternations; each measurement drains 40,000 logs from 20 servers.
 * Run: `npm run bench -- logs-catch-up` or `node scripts/bench/benchmarks/logs-catch-up.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { eventMessage, LogsBatchAcceptedEvent, LogsBatchStoredEvent, on, subscribeEvents, TOPICS } from '@skald/contracts';
import type { LogsBatchAccepted, LogsBatchStored } from '@skald/contracts';
import { createDocumentStore, createLogStore, createObjectStore, MemoryEventBus } from '@skald/adapters';
import type { Subscription } from '@skald/ports';
import { createServerCounts } from '../../../services/logs/src/domain/server-counts.ts';
import type { ServerDirectory } from '../../../services/logs/src/domain/server-directory.ts';
import { storeAcceptedBatches } from '../../../services/logs/src/domain/store-batch.ts';
import type { StoreBatchDeps } from '../../../services/logs/src/domain/store-batch.ts';
import { startBatchConsumer } from '../../../services/logs/src/events/batch-consumer.ts';
import { acceptedData } from '../harness/accepted-event.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { describeSpread, spread } from '../harness/pinned/stats.ts';

const ROUNDS = Number(process.env['BENCH_CATCHUP_ROUNDS'] ?? 3);
const LOGS = 40_000;
const SERVERS = 20;
const SIZES = [5, 40] as const;

const serverOf = (index: number): string => `0195f2c4-0000-7000-8000-${String(index % SERVERS).padStart(12, '0')}`;
const accepted = (index: number, logs: number): LogsBatchAccepted => acceptedData(index, logs, serverOf(index));

/** Logs stored per second of wall time while draining the backlog, and the process's CPU per log. */
async function measure(together: boolean, logsPerEvent: number): Promise<{ rate: number; cpu: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-catch-up-bench-'));
  const bus = new MemoryEventBus({ kind: 'memory', file: join(dir, 'journal.db') });
  const logStore = await createLogStore({ kind: 'sqlite', file: join(dir, 'logs.db'), layout: 'rows' });
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'documents.db') });
  const objects = await createObjectStore({ kind: 'fs', root: join(dir, 'objects') });
  let consumer: Subscription | null = null;
  try {
    await bus.ensureTopics([TOPICS.logsIngested, TOPICS.logsStored]);
    const events = Math.ceil(LOGS / logsPerEvent);
    for (let i = 0; i < events; i += 100) {
      const chunk = Array.from({ length: Math.min(100, events - i) }, (_, j) => accepted(i + j, logsPerEvent));
      await bus.publish(chunk.map((data) => eventMessage(LogsBatchAcceptedEvent, data.serverId, data, { validate: false })));
    }
    const counts = await createServerCounts({ docs, logStore, bus });
    const deps: StoreBatchDeps & { counts: typeof counts } = {
      logStore,
      objects,
      // Every server on the biggest tier, as the read model would answer for paying servers.
      directory: { server: async () => ({ tier: 'legend' }) } as unknown as ServerDirectory,
      log: pino({ level: 'silent' }),
      notifyStored: async (notices: readonly LogsBatchStored[]) => {
        await bus.publish(notices.map((notice) => eventMessage(LogsBatchStoredEvent, notice.serverId, notice)));
      },
      counts,
    };
    const started = process.cpuUsage();
    const startedAt = performance.now();
    consumer = together
      ? await startBatchConsumer(bus, deps)
      : await subscribeEvents(bus, {
          group: 'logs-store',
          handlers: [
            on(LogsBatchAcceptedEvent, async (data, { envelope }) => {
              const stored = await storeAcceptedBatches(deps, [{ event: data, batchId: envelope.id }]);
              for (const serverId of stored.changedServers) await counts.mark(serverId);
            }),
          ],
        });
    for (;;) {
      const lag = (await bus.consumerLag()).find((entry) => entry.group === 'logs-store' && entry.topic === TOPICS.logsIngested);
      if (lag !== undefined && lag.lag === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const used = process.cpuUsage(started);
    let stored = 0;
    for (let s = 0; s < SERVERS; s++) stored += await logStore.count(serverOf(s));
    if (stored !== events * logsPerEvent) throw new Error(`stored ${stored} of ${events * logsPerEvent} logs`);
    return { rate: stored / seconds, cpu: (used.user + used.system) / stored };
  } finally {
    await consumer?.stop();
    await bus.close();
    await logStore.close();
    await docs.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const size of SIZES) {
    const together: { rate: number; cpu: number }[] = [];
    const alone: { rate: number; cpu: number }[] = [];
    await measure(true, size);
    for (let round = 0; round < ROUNDS; round++) {
      // The order flips every round, so a change of machine load falls on both alike.
      if (round % 2 === 0) {
        together.push(await measure(true, size));
        alone.push(await measure(false, size));
      } else {
        alone.push(await measure(false, size));
        together.push(await measure(true, size));
      }
    }
    const rate = spread(together.map((m) => m.rate));
    const baseRate = spread(alone.map((m) => m.rate));
    const cpu = spread(together.map((m) => m.cpu));
    const baseCpu = spread(alone.map((m) => m.cpu));
    const whole = (n: number) => Math.round(n).toLocaleString('en-US');
    const micro = (n: number) => n.toFixed(1);
    rows.push({
      name: `logs consumer catching up, ${size} logs/event`,
      value: Math.round(rate.median),
      unit: 'logs/s',
      baseline: `one event at a time: ${whole(baseRate.median)} logs/s (${describeSpread(baseRate, whole)}), ${micro(baseCpu.median)} µs CPU/log`,
      note: `${describeSpread(rate, whole)}; ${micro(cpu.median)} µs CPU/log (${describeSpread(cpu, micro)}); a backlog of ${LOGS.toLocaleString('en-US')} logs from ${SERVERS} servers drained into the embedded store, notices and counts marks included; load average ${loadavg()[0]!.toFixed(1)}`,
    });
  }
  return rows;
}

export default run;

if (import.meta.main) {
  const rows = await run();
  console.table(rows.map((r) => ({ metric: r.name, value: r.value, unit: r.unit, baseline: r.baseline ?? '', note: r.note ?? '' })));
}
