/**
 * The ingestion service alone (no gateway, no logs consumer) on the embedded adapters: the SQLite bus
 * journal, SQLite document store and memory counters, served by the platform's createHttpApp. Isolates
 * the cost of the ingestion hot path (key lookup, validation, quota, durable publish) from the rest of
 * the all-in-one process; printed side by side with a bare Fastify endpoint measured in the same run.
 *
 * Run: `node scripts/bench/ingest-service.bench.ts` (BENCH_DURATION_S, default 10).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createCounters, createDocumentStore, createEventBus } from '@skald/adapters';
import { ApiKeyRotatedEvent, ServerCreatedEvent, TOPICS, hashApiKey, publishEvent } from '@skald/contracts';
import type { EventBus, ObjectStore } from '@skald/ports';
import { createHttpApp } from '@skald/service-kit';
import type { ServiceDeps } from '@skald/service-kit';
import { createIngestionService } from '@skald/ingestion-service';
import type { BenchRow } from './bench-row.ts';
import { bareFastifyLoad, postLoad } from './http-load.ts';

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

export async function run(): Promise<BenchRow[]> {
  const single = JSON.stringify({ message: 'player joined the server', level: 'info', type: 'Join', resource: 'spawn', metadata: { player: 'Ann', ping: 42 } });
  const batch = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ message: `bench log line ${i}`, level: 'info', type: 'Bench', resource: `res-${i % 10}`, metadata: { i } })));

  const bareResult = await bareFastifyLoad(single, 50);

  const dir = await mkdtemp(join(tmpdir(), 'skald-bench-ingestion-'));
  const journal = await createEventBus({ kind: 'memory', file: join(dir, 'bus', 'journal.db'), maxMessagesPerTopic: 1_000_000 });
  // BENCH_BUS=noop: identity events still flow, accepted batches are dropped (isolates the journal's cost).
  const bus: EventBus =
    process.env['BENCH_BUS'] === 'noop'
      ? { ...journal, ensureTopics: (t) => journal.ensureTopics(t), subscribe: (o) => journal.subscribe(o), close: () => journal.close(), publish: async (messages) => {
          const identity = messages.filter((m) => m.topic === TOPICS.identity);
          if (identity.length > 0) await journal.publish(identity);
        } }
      : journal;
  await bus.ensureTopics([TOPICS.identity, TOPICS.logsIngested]);
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'documents.db') });
  const counters = await createCounters({ kind: 'memory' });
  const app = createHttpApp({ logLevel: 'warn', logStream: new Writable({ write: (_c, _e, cb) => cb() }) });
  const deps = { bus, docs, counters, objects: noObjects, log: app.log } as Partial<ServiceDeps> as ServiceDeps; // only these ports are used
  const service = await createIngestionService(deps);
  await app.register(async (scope) => service.routes(scope), { prefix: '/api' });
  await service.start();
  // Legend tier so the hourly quota (1.5M) does not cut the measurement.
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
    await counters.reset(`quota:logs:bench:${Math.floor(Date.now() / 3_600_000) * 3_600_000}`);
    const batchResult = await postLoad(`${url}/api/logs`, batch, { 'x-api-key': KEY }, 8);
    const bareRps = Math.round(bareResult.requests.average);
    const baseline = `bare Fastify ${bareRps} req/s`;
    const busNote = process.env['BENCH_BUS'] === 'noop' ? 'BENCH_BUS=noop: batches not journaled' : 'SQLite bus journal';
    return [
      { name: 'bare Fastify POST', value: bareRps, unit: 'req/s' },
      { name: 'ingestion service single-log POST', value: Math.round(singleResult.requests.average), unit: 'req/s', baseline, note: `${busNote}; non-2xx ${singleResult.non2xx}` },
      { name: 'ingestion service single vs bare', value: Math.round((singleResult.requests.average / bareResult.requests.average) * 100), unit: '%', baseline },
      { name: 'ingestion service single-log p99', value: singleResult.latency.p99, unit: 'ms' },
      { name: 'ingestion service batch accepted (1000/request)', value: Math.round(batchResult.requests.average * 1000), unit: 'logs/s', note: `${busNote}; non-2xx ${batchResult.non2xx}` },
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
