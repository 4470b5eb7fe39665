/**
 * The ingestion service alone (no gateway, no logs consumer) on the embedded adapters: the SQLite bus
 * journal, SQLite document store and memory counters, served by the platform's createHttpApp. Isolates
 * the cost of the ingestion hot path (key lookup, validation, quota, durable publish) from the rest of
 * the all-in-one process; printed side by side with a bare Fastify endpoint measured in the same run.
 * Figures count accepted work only: requests answered 2xx, and for batches the logs the bus journaled
 * (the service's durable acceptance; there is no logs consumer here). The quota is checked on every
 * request but can never run out (unlimited-quota.ts), and any non-2xx answer is reported as a miss.
 *
 * Run: `node scripts/bench/benchmarks/ingest-service.bench.ts` (BENCH_DURATION_S, default 10).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createCounters, createDocumentStore, createEventBus } from '@skald/adapters';
import { ApiKeyRotatedEvent, ServerCreatedEvent, TOPICS, hashApiKey, publishEvent } from '@skald/contracts';
import type { EventBus, ObjectStore, PublishInput } from '@skald/ports';
import { createHttpApp } from '@skald/service-kit';
import type { ServiceDeps } from '@skald/service-kit';
import { createIngestionService } from '@skald/ingestion-service';
import type { BenchRow } from '../harness/bench-row.ts';
import { bareFastifyLoad, okPerSecond, postLoad } from '../harness/http-load.ts';
import { unlimitedQuota } from '../harness/unlimited-quota.ts';

const KEY = 'bench-service-key-0123456789abcdef';

/** Text logs only: no object is ever written. */
const noObjects: ObjectStore = {
  put: () => Promise.reject(new Error('unused')),
  get: async () => null,
  stat: async () => null,
  delete: async () => undefined,
  list: async () => [],
  close: async () => undefined,
};

/** Logs carried by a `logs.batch-accepted` message (its envelope's data.logs). */
function logsIn(message: PublishInput): number {
  const data = (message.payload as { data?: { logs?: unknown } } | null)?.data;
  return Array.isArray(data?.logs) ? data.logs.length : 0;
}

/**
 * The journal, counting the logs of every batch it durably accepted. BENCH_BUS=noop: identity events
 * still flow, accepted batches are counted and dropped (isolates the journal's cost).
 */
function countingBus(journal: EventBus, dropBatches: boolean): EventBus & { readonly journaledLogs: () => number } {
  let journaled = 0;
  return {
    ensureTopics: (topics) => journal.ensureTopics(topics),
    subscribe: (options) => journal.subscribe(options),
    observe: (options) => journal.observe(options),
    close: () => journal.close(),
    async publish(messages) {
      const batches = messages.filter((m) => m.topic === TOPICS.logsIngested);
      await journal.publish(dropBatches ? messages.filter((m) => m.topic !== TOPICS.logsIngested) : messages);
      for (const message of batches) journaled += logsIn(message);
    },
    journaledLogs: () => journaled,
  };
}

export async function run(): Promise<BenchRow[]> {
  const single = JSON.stringify({ message: 'player joined the server', level: 'info', type: 'Join', resource: 'spawn', metadata: { player: 'Ann', ping: 42 } });
  const batch = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ message: `bench log line ${i}`, level: 'info', type: 'Bench', resource: `res-${i % 10}`, metadata: { i } })));

  const bareResult = await bareFastifyLoad(single, 50);

  const dir = await mkdtemp(join(tmpdir(), 'skald-bench-ingestion-'));
  const journal = await createEventBus({ kind: 'memory', file: join(dir, 'bus', 'journal.db'), maxMessagesPerTopic: 1_000_000 });
  const noopBus = process.env['BENCH_BUS'] === 'noop';
  const bus = countingBus(journal, noopBus);
  await bus.ensureTopics([TOPICS.identity, TOPICS.logsIngested]);
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'documents.db') });
  const counters = unlimitedQuota(await createCounters({ kind: 'memory' }));
  const app = createHttpApp({ logLevel: 'warn', logStream: new Writable({ write: (_c, _e, cb) => cb() }) });
  const deps = { bus, docs, counters, objects: noObjects, log: app.log } as Partial<ServiceDeps> as ServiceDeps; // only these ports are used
  const service = await createIngestionService(deps);
  await app.register(async (scope) => service.routes(scope), { prefix: '/api' });
  await service.start();
  // The legend tier: the largest quota, which unlimitedQuota keeps from ever running out.
  await publishEvent(bus, ServerCreatedEvent, 'bench', { serverId: 'bench', name: 'Bench', ownerId: 'u', tier: 'legend', suspended: false, createdAt: new Date().toISOString() });
  await publishEvent(bus, ApiKeyRotatedEvent, 'bench', { serverId: 'bench', keyHash: hashApiKey(KEY), previousKeyHash: null });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 0; i < 200; i++) {
    const probe = await app.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': KEY }, payload: { message: 'probe' } });
    if (probe.statusCode === 201) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  try {
    const singleResult = await postLoad(`${url}/api/logs`, single, { 'x-api-key': KEY }, 50);
    // Journaled logs are read around the batch phase only, when autocannon resolves: requests still in
    // flight then are not counted, neither as answers nor as logs.
    const journaledBefore = bus.journaledLogs();
    const batchResult = await postLoad(`${url}/api/logs`, batch, { 'x-api-key': KEY }, 8);
    const journaled = bus.journaledLogs() - journaledBefore;
    const bareRps = Math.round(okPerSecond(bareResult));
    const singleRps = okPerSecond(singleResult);
    const baseline = `bare Fastify ${bareRps} req/s`;
    const busNote = noopBus ? 'BENCH_BUS=noop: batches counted, not journaled' : 'SQLite bus journal';
    return [
      { name: 'bare Fastify POST', value: bareRps, unit: 'req/s' },
      { name: 'ingestion service single-log POST (2xx)', value: Math.round(singleRps), unit: 'req/s', baseline, note: busNote },
      { name: 'ingestion service single vs bare', value: Math.round((singleRps / okPerSecond(bareResult)) * 100), unit: '%', baseline },
      { name: 'ingestion service single-log p99', value: singleResult.latency.p99, unit: 'ms' },
      {
        name: 'ingestion service batch journaled (1000/request)',
        value: Math.round(journaled / batchResult.duration),
        unit: 'logs/s',
        note: `${busNote}; ${batchResult['2xx'].toLocaleString('en-US')} requests answered 201, ${journaled.toLocaleString('en-US')} logs journaled in ${batchResult.duration} s`,
      },
      { name: 'ingestion service non-2xx answers (single + batch)', value: singleResult.non2xx + batchResult.non2xx, unit: 'count', target: '0', pass: singleResult.non2xx + batchResult.non2xx === 0 },
    ];
  } finally {
    await service.stop();
    await app.close();
    await bus.close();
    await docs.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export default run;

if (import.meta.main) console.table(await run());
