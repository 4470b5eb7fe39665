/**
 * Builds the ingestion service on the platform's createHttpApp (the real redaction and error shape),
 * mounted under /api as the gateway does, with fakes for bus/objects/docs and the memory Counters
 * adapter. Log lines are captured so tests can assert what never appears in them.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createCounters } from '@skald/adapters';
import { TOPICS } from '@skald/contracts';
import type { Counters } from '@skald/ports';
import { createHttpApp } from '@skald/service-kit';
import type { ServiceDeps, ServiceModule } from '@skald/service-kit';
import { createIngestionService, hashApiKey } from '../../src/index.ts';
import { MapDocumentStore, MapObjectStore, RecordingBus } from './fakes.ts';

export interface Harness {
  readonly app: FastifyInstance;
  readonly service: ServiceModule;
  readonly bus: RecordingBus;
  readonly objects: MapObjectStore;
  readonly docs: MapDocumentStore;
  readonly counters: Counters;
  readonly logLines: string[];
  /** Publishes identity events through the bus as the auth service would. */
  identity(type: string, data: Record<string, unknown>, serverId: string): Promise<void>;
  /** Creates a server with an API key (server.created + apikey.rotated). */
  createServer(serverId: string, apiKey: string, options?: { tier?: string; suspended?: boolean }): Promise<void>;
  close(): Promise<void>;
}

let seq = 0;

export async function createHarness(overrides: { docs?: MapDocumentStore; counters?: Counters } = {}): Promise<Harness> {
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = createHttpApp({ logStream, logLevel: 'debug' });
  const bus = new RecordingBus();
  const objects = new MapObjectStore();
  const docs = overrides.docs ?? new MapDocumentStore();
  const counters = overrides.counters ?? (await createCounters({ kind: 'memory' }));
  const deps = {
    bus,
    docs,
    objects,
    counters,
    log: app.log,
    publicUrl: 'http://localhost',
    dataDir: '/nonexistent',
    secretsKey: '',
  } as Partial<ServiceDeps> as ServiceDeps; // the service uses only the ports above
  const service = await createIngestionService(deps);
  await app.register(async (scope) => service.routes(scope), { prefix: '/api' });
  await service.start();
  await app.ready();

  async function identity(type: string, data: Record<string, unknown>, serverId: string): Promise<void> {
    const [name, version] = [type.replace(/\.v\d+$/, ''), Number(/\.v(\d+)$/.exec(type)?.[1] ?? 1)];
    seq += 1;
    await bus.deliver({
      id: `identity-${seq}`,
      topic: TOPICS.identity,
      key: serverId,
      headers: { 'event-type': type },
      payload: { type: name, version, id: `identity-${seq}`, occurredAt: new Date().toISOString(), data },
    });
  }

  return {
    app,
    service,
    bus,
    objects,
    docs,
    counters,
    logLines,
    identity,
    async createServer(serverId, apiKey, options = {}) {
      await identity(
        'server.created.v1',
        { serverId, name: serverId, ownerId: 'owner-1', tier: options.tier ?? 'free', suspended: options.suspended ?? false, createdAt: new Date().toISOString() },
        serverId,
      );
      await identity('apikey.rotated.v1', { serverId, keyHash: hashApiKey(apiKey), previousKeyHash: null }, serverId);
    },
    async close() {
      await service.stop();
      await app.close();
    },
  };
}
