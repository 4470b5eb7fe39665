/**
 * What the staff area's fresh log counts cost the bus, with 1,000 servers logging: every
 * server's logs change all the time, so every run of the logs service's counts announces all of them.
 *
 *   - now: the live facts (logs.server-counts-live, every LIVE_COUNTS_EVERY_MS = 2 s per changed server,
 *     publishChanged) plus the history facts (logs.server-counts, once a minute, publishMarked);
 *   - baseline, measured in the same run: the history facts alone, once a minute (what staff had before:
 *     counts up to a minute old).
 *
 * One run of each kind is measured as the services run it: the logs service's domain code reading each
 * server's figures from an embedded log store's rollups and publishing them on the journal bus; the admin
 * service's observer laying the live facts over its in-memory copy of the servers (until it has them all),
 * and its overview consumer group writing the history facts to its read model (until its lag is 0). Figures
 * per second of wall time are the run's cost times the runs a second (1/2 and 1/60): events and bytes
 * published (the JSON of each message: envelope, key, headers), and CPU of this process (both services, the
 * bus) as a share of one core. Runs of the two kinds alternate BENCH_COUNTS_ROUNDS times (default 3).
 * Run: `npm run bench -- log-counts` or `node scripts/bench/benchmarks/log-counts.bench.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS } from '@skald/contracts';
import { createDocumentStore, MemoryEventBus, SqliteLogStore } from '@skald/adapters';
import type { EventBus, LogRecord, PublishInput } from '@skald/ports';
import { createOverview } from '../../../services/admin/src/domain/overview.ts';
import { createServerMirror } from '../../../services/admin/src/domain/server-mirror.ts';
import { startLiveCountsObserver } from '../../../services/admin/src/events/live-counts-observer.ts';
import { OVERVIEW_GROUP, startOverviewConsumer } from '../../../services/admin/src/events/overview-consumer.ts';
import { COUNTS_EVERY_MS, LIVE_COUNTS_EVERY_MS, createServerCounts } from '../../../services/logs/src/domain/server-counts.ts';
import type { BenchRow } from '../harness/bench-row.ts';
import { describeSpread, spread } from '../harness/pinned/stats.ts';

const ROUNDS = Number(process.env['BENCH_COUNTS_ROUNDS'] ?? 3);
const SERVERS = 1_000;
const LOGS_PER_SERVER = 30;
const DAY = 86_400_000;

const serverOf = (index: number): string => `0195f2c4-0000-7000-8000-${String(index).padStart(12, '0')}`;

/** Cost of one run: messages and bytes published, CPU (µs) and wall time (ms) until admin applied them. */
interface RunCost {
  readonly events: number;
  readonly bytes: number;
  readonly cpuUs: number;
  /** Of cpuUs, until the logs service's call returned (reading the figures, publishing them). */
  readonly publisherCpuUs: number;
  readonly wallMs: number;
}

/** The bus, counting what is published on the counts topics. */
function counting(bus: EventBus, sink: { events: number; bytes: number; live: number }): EventBus {
  const publish = async (messages: readonly PublishInput[]): Promise<void> => {
    for (const message of messages) {
      if (message.topic !== TOPICS.logCounts && message.topic !== TOPICS.logCountsLive) continue;
      sink.events += 1;
      if (message.topic === TOPICS.logCountsLive) sink.live += 1;
      sink.bytes += Buffer.byteLength(JSON.stringify(message.payload)) + Buffer.byteLength(message.key) + Buffer.byteLength(JSON.stringify(message.headers ?? {}));
    }
    await bus.publish(messages);
  };
  return new Proxy(bus, {
    get(target, property) {
      if (property === 'publish') return publish;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'skald-log-counts-bench-'));
  const bus = new MemoryEventBus({ kind: 'memory', file: join(dir, 'journal.db') });
  // Search indexing at insert, so no indexer thread is still at work on the set-up's logs while runs are measured.
  const logStore = new SqliteLogStore(join(dir, 'logs.db'), { searchIndex: 'eager' });
  const logsDocs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'logs-documents.db') });
  const adminDocs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'admin-documents.db') });
  await bus.ensureTopics([TOPICS.identity, TOPICS.logCounts, TOPICS.logCountsLive, TOPICS.backups]);
  const now = Date.now();
  // Each server's logs over the last days (the facts carry the 7-day series), text and photo.
  for (let s = 0; s < SERVERS; s++) {
    const records: LogRecord[] = Array.from({ length: LOGS_PER_SERVER }, (_, i) => ({
      id: `${serverOf(s)}-${i}`,
      serverId: serverOf(s),
      createdAt: now - (i % 7) * DAY - i * 1000,
      level: 'info',
      type: 'General',
      resource: 'core',
      message: `log ${i}`,
      metadata: null,
      logType: i % 10 === 0 ? 'photo' : 'text',
      imageKey: i % 10 === 0 ? `photos/${s}/${i}.webp` : null,
      thumbKey: i % 10 === 0 ? `thumbs/${s}/${i}.webp` : null,
      expiresAt: now + 30 * DAY,
    }));
    await logStore.insertBatch(records);
  }
  const sink = { events: 0, bytes: 0, live: 0 };
  const counts = await createServerCounts({ docs: logsDocs, logStore, bus: counting(bus, sink) });
  const overview = await createOverview(adminDocs);
  for (let s = 0; s < SERVERS; s++) await overview.setServer(serverOf(s), { known: true, name: `Server ${s}`, createdAt: new Date(now).toISOString() });
  const mirror = createServerMirror(overview, { refreshMs: 1000, overlapMs: 5000 });
  await mirror.knownServers();
  let observed = 0;
  const observer = await startLiveCountsObserver(
    bus,
    { applyLiveCounts: (fact) => ((observed += 1), mirror.applyLiveCounts(fact)) },
    (error) => {
      throw error;
    },
  );
  const consumer = await startOverviewConsumer(bus, overview);
  return {
    counts,
    sink,
    /** Waits until admin has every fact published so far: the live ones in memory, the history in its store. */
    async applied(): Promise<void> {
      for (;;) {
        const lags = (await bus.consumerLag()).filter((entry) => entry.group === OVERVIEW_GROUP);
        if (observed === sink.live && lags.length > 0 && lags.every((entry) => entry.lag === 0)) return;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
    async close() {
      await observer.stop();
      await consumer.stop();
      await bus.close();
      await logStore.close();
      await logsDocs.close();
      await adminDocs.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Bench = Awaited<ReturnType<typeof setUp>>;

/** Marks every server (not measured: the same in both designs), then measures one run of `kind`. */
async function measure(bench: Bench, kind: 'live' | 'history'): Promise<RunCost> {
  for (let s = 0; s < SERVERS; s++) await bench.counts.mark(serverOf(s));
  if (kind === 'history') await bench.counts.publishChanged(Date.now()); // the live set drained, unmeasured
  const before = { events: bench.sink.events, bytes: bench.sink.bytes };
  const cpu = process.cpuUsage();
  const started = performance.now();
  const announced = kind === 'live' ? await bench.counts.publishChanged(Date.now()) : await bench.counts.publishMarked(Date.now());
  const published = process.cpuUsage(cpu);
  await bench.applied();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (announced !== SERVERS) throw new Error(`${kind}: announced ${announced} of ${SERVERS} servers`);
  const cost = { events: bench.sink.events - before.events, bytes: bench.sink.bytes - before.bytes, cpuUs: used.user + used.system, publisherCpuUs: published.user + published.system, wallMs };
  if (kind === 'live') await bench.counts.publishMarked(Date.now()); // the durable marks cleared, unmeasured
  else await bench.counts.publishChanged(Date.now());
  await bench.applied();
  return cost;
}

export async function run(): Promise<BenchRow[]> {
  const bench = await setUp();
  try {
    const live: RunCost[] = [];
    const history: RunCost[] = [];
    await measure(bench, 'live');
    await measure(bench, 'history');
    for (let round = 0; round < ROUNDS; round++) {
      // The order flips every round, so a change of machine load falls on both alike.
      const order: ('live' | 'history')[] = round % 2 === 0 ? ['live', 'history'] : ['history', 'live'];
      for (const kind of order) (kind === 'live' ? live : history).push(await measure(bench, kind));
    }
    const liveRuns = 1000 / LIVE_COUNTS_EVERY_MS;
    const historyRuns = 1000 / COUNTS_EVERY_MS;
    const median = (runs: readonly RunCost[], pick: (c: RunCost) => number) => spread(runs.map(pick)).median;
    const eventsNow = median(live, (c) => c.events) * liveRuns + median(history, (c) => c.events) * historyRuns;
    const eventsBefore = median(history, (c) => c.events) * historyRuns;
    const bytesNow = median(live, (c) => c.bytes) * liveRuns + median(history, (c) => c.bytes) * historyRuns;
    const bytesBefore = median(history, (c) => c.bytes) * historyRuns;
    // CPU: µs per run times runs a second, over 1e6 µs a second = share of one core.
    const cpuNow = spread(live.map((c, i) => (c.cpuUs * liveRuns + history[i]!.cpuUs * historyRuns) / 1e6));
    const cpuBefore = spread(history.map((c) => (c.cpuUs * historyRuns) / 1e6));
    const publisherNow = spread(live.map((c, i) => (c.publisherCpuUs * liveRuns + history[i]!.publisherCpuUs * historyRuns) / 1e6));
    const perFact = spread(live.map((c) => c.cpuUs / c.events));
    const publisherPerFact = spread(live.map((c) => c.publisherCpuUs / c.events));
    const liveWall = spread(live.map((c) => c.wallMs));
    const historyWall = spread(history.map((c) => c.wallMs));
    const bytesPerFact = median(live, (c) => c.bytes / c.events);
    const pct = (n: number) => `${(n * 100).toFixed(2)}%`;
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB/s`;
    const ms = (n: number) => `${Math.round(n)} ms`;
    const context = `${SERVERS.toLocaleString('en-US')} servers all logging; load average ${loadavg()[0]!.toFixed(1)}`;
    return [
      {
        name: 'counts facts published, 1,000 servers logging',
        value: Math.round(eventsNow * 10) / 10,
        unit: 'events/s',
        baseline: `history facts alone (once a minute, counts up to a minute old): ${eventsBefore.toFixed(1)} events/s`,
        note: `${SERVERS.toLocaleString('en-US')} live facts every ${LIVE_COUNTS_EVERY_MS / 1000} s + ${SERVERS.toLocaleString('en-US')} history facts a minute; ${context}`,
      },
      {
        name: 'counts bytes published, 1,000 servers logging',
        value: Math.round(bytesNow / 1024),
        unit: 'KiB/s',
        baseline: `history facts alone: ${kb(bytesBefore)}`,
        note: `${Math.round(bytesPerFact)} B a fact (7-day series); the live topic is a stream the bus trims, the history topic keeps ${kb(bytesBefore)} (${((bytesBefore * 86_400) / 1024 / 1024).toFixed(0)} MiB a day) in both`,
      },
      {
        name: 'counts CPU, 1,000 servers logging (logs publisher, bus, admin)',
        value: Math.round(cpuNow.median * 10_000) / 100,
        unit: '% of a core',
        baseline: `history facts alone: ${pct(cpuBefore.median)} (${describeSpread(cpuBefore, pct)})`,
        note: `${describeSpread(cpuNow, pct)}, of which the logs service ${pct(publisherNow.median)}; a live fact ${Math.round(perFact.median)} µs of CPU (logs ${Math.round(publisherPerFact.median)}, bus and admin the rest); one live run of ${SERVERS.toLocaleString('en-US')} servers until admin applied it: ${describeSpread(liveWall, ms)} wall (history run: median ${ms(historyWall.median)}); ${context}`,
      },
    ];
  } finally {
    await bench.close();
  }
}

export default run;

if (import.meta.main) {
  const rows = await run();
  console.table(rows.map((r) => ({ metric: r.name, value: r.value, unit: r.unit, baseline: r.baseline ?? '', note: r.note ?? '' })));
}
