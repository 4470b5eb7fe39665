/**
 * The all-in-one's journal bus alone: CPU per log to publish `logs.batch-accepted`-shaped events
 * durably and hand each to two consumer groups (as the logs store and webhooks groups take them), no
 * store behind. Measured with the payloads shared in-process (the default for the accepted-logs topic:
 * one deep-frozen copy for both groups) and, alternating in the same run, with sharing off (each group
 * reads and parses the row, as before), at 1, 20, 50 and 1000 logs per message: a single-log request, two
 * coalesced groups of single logs, a batch request.
 *
 * BENCH_BUS_ROUNDS (default 4) alternations; each measurement publishes about 40,000 logs.
 * Run: `npm run bench -- event-bus` or `node scripts/bench/benchmarks/event-bus.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS } from '@skald/contracts';
import { MemoryEventBus } from '../../../libs/adapters/src/event-bus/index.ts';
import { acceptedData, eventTime } from '../harness/accepted-event.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { describeSpread, spread } from '../harness/pinned/stats.ts';

const ROUNDS = Number(process.env['BENCH_BUS_ROUNDS'] ?? 4);
const LOGS_PER_MEASUREMENT = 40_000;
const SIZES = [1, 20, 50, 1000] as const;
const TOPIC = TOPICS.logsIngested;

function event(index: number, logs: number): unknown {
  return {
    type: 'logs.batch-accepted',
    version: 1,
    id: `event-${index}`,
    occurredAt: new Date(eventTime(index)).toISOString(),
    data: acceptedData(index, logs, '0195f2c4-0000-7000-8000-000000000001'),
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** CPU microseconds per log for publishing `messages` events and both groups taking each. */
async function measure(shared: boolean, logsPerMessage: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bus-bench-'));
  const bus = new MemoryEventBus({ kind: 'memory', file: join(dir, 'journal.db'), sharedPayloadTopics: shared ? [TOPIC] : [] });
  try {
    await bus.ensureTopics([TOPIC]);
    let taken = 0;
    for (const group of ['logs-store', 'webhooks-delivery']) {
      await bus.subscribe({ group, topics: [TOPIC], handler: async () => void taken++ });
    }
    const messages = Math.ceil(LOGS_PER_MEASUREMENT / logsPerMessage);
    // Built before the clock starts: the request's parsing is not the bus's cost.
    const payloads = Array.from({ length: messages }, (_, i) => event(i, logsPerMessage));
    const started = process.cpuUsage();
    for (let i = 0; i < messages; i++) {
      await bus.publish([{ topic: TOPIC, key: 'server', payload: payloads[i] }]);
      // Consumers keep up as they do under load: a few messages in flight at most.
      if (i % 4 === 3) while (taken < (i + 1) * 2) await nextTurn();
    }
    while (taken < messages * 2) await nextTurn();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / (messages * logsPerMessage);
  } finally {
    await bus.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const size of SIZES) {
    const sharedCpu: number[] = [];
    const parsedCpu: number[] = [];
    await measure(true, size);
    await measure(false, size);
    for (let round = 0; round < ROUNDS; round++) {
      // The order flips every round, so a change of machine load falls on both alike.
      if (round % 2 === 0) {
        sharedCpu.push(await measure(true, size));
        parsedCpu.push(await measure(false, size));
      } else {
        parsedCpu.push(await measure(false, size));
        sharedCpu.push(await measure(true, size));
      }
    }
    const shared = spread(sharedCpu);
    const parsed = spread(parsedCpu);
    const format = (n: number) => n.toFixed(2);
    rows.push({
      name: `journal bus, ${size} log${size === 1 ? '' : 's'}/message, 2 groups, shared copy`,
      value: Number(shared.median.toFixed(2)),
      unit: 'µs CPU/log',
      baseline: `each group parsing the row: ${format(parsed.median)} µs (${describeSpread(parsed, format)})`,
      note: `${describeSpread(shared, format)}; publish (stringify, COMMIT) + both groups' delivery and offset commit; load average ${loadavg()[0]!.toFixed(1)}`,
    });
  }
  return rows;
}

export default run;

if (import.meta.main) {
  const rows = await run();
  console.table(rows.map((r) => ({ metric: r.name, value: r.value, unit: r.unit, baseline: r.baseline ?? '', note: r.note ?? '' })));
}
