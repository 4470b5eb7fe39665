/** The service's `logs.batch-accepted` consumer over the embedded journal bus and the SQLite log store. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogsBatchAcceptedEvent, TOPICS, eventMessage } from '@skald/contracts';
import type { AcceptedLog } from '@skald/contracts';
import { deadLetterTopic } from '@skald/ports';
import type { BusMessage } from '@skald/ports';
import { waitFor } from '@skald/testing';
import { createHarness, seedServer, storedIds } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-1';
let h: Harness;

function log(id: string, overrides: Partial<AcceptedLog> = {}): AcceptedLog {
  return { id, createdAt: 1_750_000_000_000, level: 'info', type: 'General', resource: 'unknown', message: `m ${id}`, metadata: null, logType: 'text', imageKey: null, thumbKey: null, ...overrides };
}

function photo(id: string, createdAt: number): AcceptedLog {
  return log(id, { createdAt, logType: 'photo', imageKey: `photos/${S}/${id}.webp`, thumbKey: `thumbs/${S}/${id}.webp` });
}

const stored = async (key: string) => (await h.deps.objects.stat(key)) !== null;

beforeEach(async () => {
  h = await createHarness();
  await seedServer(h, { serverId: S, ownerId: 'owner-1', tier: 'free' });
});

afterEach(async () => {
  await h.close();
});

describe('logs.batch-accepted consumer', () => {
  it('stores a batch with expiresAt from the tier retention, and a redelivered batch only once', async () => {
    const data = { serverId: S, logs: [log('a'), log('b')] };
    await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, S, data)]);
    // The same event published again under a new message id, as a redelivery after a crash would look.
    await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, S, data)]);
    await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [log('c')] })]);
    await waitFor(async () => (await storedIds(h, S)).length === 3, 'three stored logs');
    await new Promise((r) => setTimeout(r, 100));
    expect((await storedIds(h, S)).sort()).toEqual(['a', 'b', 'c']);
    const a = (await h.deps.logStore.query({ serverId: S, offset: 0, limit: 10 })).items.find((r) => r.id === 'a');
    expect(a?.expiresAt).toBe(1_750_000_000_000 + 7 * 86_400_000);
    expect(a?.serverId).toBe(S);
  });

  it('dead-letters a malformed message and keeps consuming the rest', async () => {
    const dead: BusMessage[] = [];
    const dlq = await h.deps.bus.subscribe({ group: 'test-dlq', topics: [deadLetterTopic(TOPICS.logsIngested)], handler: async (m) => void dead.push(m) });
    const good = eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [log('after')] });
    const malformed = eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [log('x')] });
    // Corrupt the data after the framework validated it, like a buggy or hostile producer would.
    const broken = { ...malformed, payload: { ...(malformed.payload as object), data: { serverId: S, logs: [{ id: 'x', level: 'shout' }] } } };
    await h.deps.bus.publish([broken, { topic: TOPICS.logsIngested, key: S, payload: 'not an envelope' }, good]);
    await waitFor(async () => (await storedIds(h, S)).length === 1, 'the good message stored');
    expect(await storedIds(h, S)).toEqual(['after']);
    await waitFor(() => dead.length === 2, 'two dead letters');
    expect(dead.every((m) => m.headers['x-original-topic'] === TOPICS.logsIngested)).toBe(true);
    expect(dead[0]!.headers['x-dead-letter-reason']).toMatch(/level|logs/);
    await dlq.stop();
  });

  it("keeps only the tier's maxPhotoLogs newest photo logs and deletes the evicted objects", async () => {
    const base = 1_750_000_000_000;
    const photos = Array.from({ length: 12 }, (_, i) => photo(`p${String(i).padStart(2, '0')}`, base + i));
    for (const p of photos) {
      await h.deps.objects.put(p.imageKey!, Buffer.from('img'), 'image/webp');
      await h.deps.objects.put(p.thumbKey!, Buffer.from('thumb'), 'image/webp');
    }
    await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: photos.slice(0, 6) })]);
    await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [...photos.slice(6), log('text-1')] })]);
    // Eviction and the object deletes follow the insert inside one delivery: wait for the delivery to finish.
    await waitFor(async () => (await storedIds(h, S)).includes('text-1') && (await h.deps.objects.list('')).length <= 20, 'the second batch stored and evicted');
    expect(await h.deps.logStore.count(S, 'photo')).toBe(10);
    const ids = await storedIds(h, S);
    expect(ids).not.toContain('p00');
    expect(ids).not.toContain('p01');
    expect(ids).toContain('p02');
    expect(await stored(`photos/${S}/p00.webp`)).toBe(false);
    expect(await stored(`thumbs/${S}/p01.webp`)).toBe(false);
    expect(await stored(`photos/${S}/p02.webp`)).toBe(true);
    expect(await h.deps.objects.list('')).toHaveLength(20);
  });
});
