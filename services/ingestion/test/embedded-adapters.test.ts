/**
 * The ingestion service on the real embedded adapters (SQLite bus journal, SQLite document store, memory
 * counters; an in-memory object store): identity events arrive over the bus, accepted logs leave as
 * framework events a subscriber validates, and the key read model survives a restart without replay.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCounters, createDocumentStore, createEventBus } from '@skald/adapters';
import { ApiKeyRotatedEvent, LogsBatchAcceptedEvent, ServerCreatedEvent, TOPICS, on, publishEvent, subscribeEvents } from '@skald/contracts';
import type { AcceptedLog } from '@skald/contracts';
import type { Counters, DocumentStore, EventBus, ObjectStore } from '@skald/ports';
import { createHttpApp } from '@skald/service-kit';
import type { ServiceDeps } from '@skald/service-kit';
import type { FastifyInstance } from 'fastify';
import { createIngestionService, hashApiKey } from '../src/index.ts';
import { MapObjectStore } from './support/fakes.ts';

const KEY = 'embedded-key-0123456789abcdef';

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('ingestion on the embedded adapters', () => {
  let dir: string;
  let bus: EventBus;
  let docs: DocumentStore;
  let counters: Counters;
  let objects: ObjectStore;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skald-ingestion-'));
    bus = await createEventBus({ kind: 'memory', file: join(dir, 'bus', 'journal.db') });
    await bus.ensureTopics([TOPICS.identity, TOPICS.logsIngested]);
    docs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'ingestion', 'documents.db') });
    counters = await createCounters({ kind: 'memory' });
    objects = new MapObjectStore(); // text logs only here; photos are covered in ingest-photos.test.ts
  });

  afterAll(async () => {
    await bus?.close();
    await docs?.close();
    await counters?.close();
    await objects?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function boot(): Promise<{ app: FastifyInstance; stop: () => Promise<void> }> {
    const app = createHttpApp({ logLevel: 'warn' });
    const deps = { bus, docs, counters, objects, log: app.log } as Partial<ServiceDeps> as ServiceDeps; // only these ports are used
    const service = await createIngestionService(deps);
    await app.register(async (scope) => service.routes(scope), { prefix: '/api' });
    await service.start();
    await app.ready();
    return {
      app,
      stop: async () => {
        await service.stop();
        await app.close();
      },
    };
  }

  it('accepts logs once the identity events arrive, publishes valid framework events, and keeps keys across a restart', async () => {
    const received: AcceptedLog[] = [];
    const consumer = await subscribeEvents(bus, {
      group: 'test-logs-consumer',
      handlers: [on(LogsBatchAcceptedEvent, async (data) => void received.push(...data.logs))],
    });

    const first = await boot();
    const post = (app: FastifyInstance, body: unknown) => app.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': KEY }, payload: body as object });
    expect((await post(first.app, { message: 'too early' })).statusCode).toBe(401);

    await publishEvent(bus, ServerCreatedEvent, 'srv-e', { serverId: 'srv-e', name: 'E', ownerId: 'u1', tier: 'starter', suspended: false, createdAt: new Date().toISOString() });
    await publishEvent(bus, ApiKeyRotatedEvent, 'srv-e', { serverId: 'srv-e', keyHash: hashApiKey(KEY), previousKeyHash: null });
    await waitUntil(async () => (await post(first.app, { message: 'hello' })).statusCode === 201);

    const batch = await post(first.app, [{ message: 'a', level: 'error' }, { message: 'b', metadata: { k: 1 } }]);
    expect(batch.statusCode).toBe(201);
    const ids = batch.json<{ ids: string[] }>().ids;
    await waitUntil(async () => ids.every((id) => received.some((log) => log.id === id)));
    expect(received.find((log) => log.id === ids[1])).toMatchObject({ message: 'b', metadata: { k: 1 }, level: 'info', logType: 'text' });
    await first.stop();

    // Restart: the directory is loaded from the document store; no identity event is redelivered.
    const second = await boot();
    const again = await post(second.app, { message: 'after restart' });
    expect(again.statusCode).toBe(201);
    await second.stop();
    await consumer.stop();
  });
});
