import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { LogsBatchAcceptedEvent, TOPICS, eventMessage } from '@skald/contracts';
import type { AcceptedLog } from '@skald/contracts';
import { deadLetterTopic } from '@skald/ports';
import type { BusMessage, EventBus, Subscription } from '@skald/ports';
import { createEventBus } from '@skald/adapters';
import { startBatchConsumer } from '../src/domain/batch-consumer.ts';
import { MemoryLogStore } from './support/memory-log-store.ts';
import { MemoryObjectStore } from './support/memory-stores.ts';
import { FakeDirectory } from './support/harness.ts';
import { waitFor } from './support/wait.ts';

const S = 'srv-1';
let dir: string;
let bus: EventBus;
let consumer: Subscription;
let logStore: MemoryLogStore;
let objects: MemoryObjectStore;
let directory: FakeDirectory;

function log(id: string, overrides: Partial<AcceptedLog> = {}): AcceptedLog {
  return { id, createdAt: 1_750_000_000_000, level: 'info', type: 'General', resource: 'unknown', message: `m ${id}`, metadata: null, logType: 'text', imageKey: null, thumbKey: null, ...overrides };
}

function photo(id: string, createdAt: number): AcceptedLog {
  return log(id, { createdAt, logType: 'photo', imageKey: `photos/${S}/${id}.webp`, thumbKey: `thumbs/${S}/${id}.webp` });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'logs-consumer-'));
  bus = await createEventBus({ kind: 'memory', file: join(dir, 'journal.db') });
  await bus.ensureTopics([TOPICS.logsIngested]);
  logStore = new MemoryLogStore();
  objects = new MemoryObjectStore();
  directory = new FakeDirectory();
  directory.addServer(S, 'free');
  consumer = await startBatchConsumer(bus, { logStore, objects, directory, log: pino({ level: 'silent' }) }, { retryDelayMs: 10 });
});

afterEach(async () => {
  await consumer.stop();
  await bus.close();
  await rm(dir, { recursive: true, force: true });
});

describe('logs.batch-accepted consumer', () => {
  it('stores a batch with expiresAt from the tier retention, and a redelivered batch only once', async () => {
    const data = { serverId: S, logs: [log('a'), log('b')] };
    await bus.publish([eventMessage(LogsBatchAcceptedEvent, S, data)]);
    // The same event published again under a new message id, as a redelivery after a crash would look.
    await bus.publish([eventMessage(LogsBatchAcceptedEvent, S, data)]);
    await bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [log('c')] })]);
    await waitFor(() => logStore.records.size, (n) => n === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect([...logStore.records.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(logStore.records.get('a')!.expiresAt).toBe(1_750_000_000_000 + 7 * 86_400_000);
    expect(logStore.records.get('a')!.serverId).toBe(S);
  });

  it('dead-letters a malformed message and keeps consuming the rest', async () => {
    const dead: BusMessage[] = [];
    const dlq = await bus.subscribe({ group: 'test-dlq', topics: [deadLetterTopic(TOPICS.logsIngested)], handler: async (m) => void dead.push(m) });
    const good = eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [log('after')] });
    const malformed = eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [log('x')] });
    // Corrupt the data after the framework validated it, like a buggy or hostile producer would.
    const broken = { ...malformed, payload: { ...(malformed.payload as object), data: { serverId: S, logs: [{ id: 'x', level: 'shout' }] } } };
    await bus.publish([broken, { topic: TOPICS.logsIngested, key: S, payload: 'not an envelope' }, good]);
    await waitFor(() => logStore.records.size, (n) => n === 1);
    expect(logStore.records.has('after')).toBe(true);
    await waitFor(() => dead.length, (n) => n === 2);
    expect(dead.every((m) => m.headers['x-original-topic'] === TOPICS.logsIngested)).toBe(true);
    expect(dead[0]!.headers['x-dead-letter-reason']).toMatch(/level|logs/);
    await dlq.stop();
  });

  it("keeps only the tier's maxPhotoLogs newest photo logs and deletes the evicted objects", async () => {
    const base = 1_750_000_000_000;
    const photos = Array.from({ length: 12 }, (_, i) => photo(`p${String(i).padStart(2, '0')}`, base + i));
    for (const p of photos) {
      await objects.put(p.imageKey!, Buffer.from('img'), 'image/webp');
      await objects.put(p.thumbKey!, Buffer.from('thumb'), 'image/webp');
    }
    await bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: photos.slice(0, 6) })]);
    await bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [...photos.slice(6), log('text-1')] })]);
    await waitFor(() => logStore.records.has('text-1'), Boolean);
    expect(await logStore.count(S, 'photo')).toBe(10);
    expect(logStore.records.has('p00')).toBe(false);
    expect(logStore.records.has('p01')).toBe(false);
    expect(logStore.records.has('p02')).toBe(true);
    expect(objects.objects.has(`photos/${S}/p00.webp`)).toBe(false);
    expect(objects.objects.has(`thumbs/${S}/p01.webp`)).toBe(false);
    expect(objects.objects.has(`photos/${S}/p02.webp`)).toBe(true);
    expect(objects.objects.size).toBe(20);
  });
});
