/**
 * The ingestion service under test: built by its real factory with the test kit (@skald/testing) over the
 * embedded adapters, on the service kit's HTTP app (the real redaction and error shape). Two doubles wrap
 * real adapters: the bus records the log batches the service published and can refuse, the counters can
 * fail. Servers and keys arrive as identity events through the service's own consumer, as from auth.
 * Log lines are captured so tests can assert what never appears in them.
 */
import { Writable } from 'node:stream';
import { isLogsBatchAccepted, QUOTA_WINDOW_MS, quotaKey, quotaWindowStart, TOPICS } from '@skald/contracts';
import type { LogsBatchAccepted } from '@skald/contracts';
import type { PublishInput } from '@skald/ports';
import { buildTestService, createTestDeps, waitFor } from '@skald/testing';
import type { SeedServer, TestService } from '@skald/testing';
import { createIngestionService } from '../../src/index.ts';
import { KeyDirectory } from '../../src/testing.ts';
import type { KeyOwner } from '../../src/testing.ts';
import { FailingCounters, RecordingBus } from './doubles.ts';

export interface Harness extends TestService {
  /** Records the `logs.batch-accepted` messages the service published; `failPublish` makes the bus refuse. */
  readonly bus: RecordingBus;
  readonly counters: FailingCounters;
  readonly logLines: string[];
  /** A server with its API key (auth's events), returned once the service accepts the key. */
  server(server: Omit<SeedServer, 'ownerId'> & { readonly apiKey: string }): Promise<void>;
  /** The status a key gets from POST /logs with a body that is refused before quota: 401, 403 or 400. */
  keyStatus(apiKey: string): Promise<number>;
  /** The server as the service's persisted read model holds it (what a second replica would load). */
  stored(serverId: string): Promise<KeyOwner | null>;
  /** The data of every published `logs.batch-accepted` message, validated. */
  batches(): LogsBatchAccepted[];
  /** Keys of every object in the object store. */
  objectKeys(): Promise<string[]>;
  readObject(key: string): Promise<{ readonly body: Buffer; readonly contentType: string } | null>;
  /** Logs counted against the server's quota this hour: the counter GET /server/usage reads (same key, peek). */
  quotaUsed(serverId: string): Promise<number>;
}

function batchOf(message: PublishInput): LogsBatchAccepted {
  const envelope = message.payload as { data: unknown };
  if (!isLogsBatchAccepted(envelope.data)) throw new Error('payload is not a valid logs.batch-accepted');
  return envelope.data;
}

/** A harness with one server whose key ingestion already accepts: how most route tests start. */
export async function harnessWithServer(server: Parameters<Harness['server']>[0]): Promise<Harness> {
  const h = await createHarness();
  await h.server(server);
  return h;
}

export async function createHarness(): Promise<Harness> {
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  const real = await createTestDeps({ service: 'ingestion', logStream });
  const bus = new RecordingBus(real.bus, TOPICS.logsIngested);
  const counters = new FailingCounters(real.counters);
  const deps = { ...real, bus, counters };
  const service = await buildTestService(createIngestionService, { deps, logStream, logLevel: 'debug' });

  const keyStatus = async (apiKey: string): Promise<number> =>
    (await service.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': apiKey }, payload: [] })).statusCode;

  return {
    ...service,
    bus,
    counters,
    logLines,
    async server(server) {
      await service.identity.server({ ...server, ownerId: `owner-of-${server.serverId}` });
      await waitFor(async () => (await keyStatus(server.apiKey)) !== 401, `the key of ${server.serverId}`);
    },
    keyStatus,
    async stored(serverId) {
      const replica = await KeyDirectory.open(real.docs);
      await replica.load();
      return replica.server(serverId);
    },
    batches: () => bus.published.map(batchOf),
    async objectKeys() {
      return (await real.objects.list('')).map((info) => info.key);
    },
    async readObject(key) {
      const stored = await real.objects.get(key);
      if (stored === null) return null;
      return { body: Buffer.concat(await stored.body.toArray()), contentType: stored.contentType };
    },
    async quotaUsed(serverId) {
      const key = quotaKey(serverId, quotaWindowStart(Date.now()));
      return (await real.counters.peek(key, Number.MAX_SAFE_INTEGER, QUOTA_WINDOW_MS)).used;
    },
    async close() {
      await service.close();
      await real.cleanup();
    },
  };
}
