/**
 * The live counts facts (logs.server-counts-live, TOPICS.logCountsLive): every replica announces, every
 * few seconds, the figures of the servers whose logs it changed, so the staff area is seconds behind the
 * logs. Driven by hand here (publishChanged with a chosen time), then through the service's own timer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogsBatchAcceptedEvent, TOPICS, eventMessage } from '@skald/contracts';
import type { AcceptedLog, LogsServerCounts } from '@skald/contracts';
import type { EventBus, PublishInput } from '@skald/ports';
import { waitFor } from '@skald/testing';
import { createServerCounts } from '../src/domain/server-counts.ts';
import { createHarness, record, seedServer, storedIds } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const DAY = 86_400_000;
let h: Harness;

function liveFacts(serverId: string): LogsServerCounts[] {
  return h.published
    .filter((m) => m.topic === TOPICS.logCountsLive && m.headers['event-type'] === 'logs.server-counts-live.v1')
    .map((m) => (m.payload as { data: LogsServerCounts }).data)
    .filter((d) => d.serverId === serverId);
}

beforeAll(async () => {
  // The service's own live run every 50 ms; its minute job far away, so every fact seen here is a live one.
  h = await createHarness({ countsEveryMs: 3_600_000, liveCountsEveryMs: 50 });
});
afterAll(async () => h.close());

describe('publishChanged (by hand)', () => {
  it("announces each changed server once with its stored figures and countedAt, then nothing until a change", async () => {
    const counts = await createServerCounts({ docs: h.deps.docs, logStore: h.deps.logStore, bus: h.deps.bus });
    const now = Date.parse('2026-03-15T12:00:00.000Z');
    await h.deps.logStore.insertBatch([
      record('hand-a', { createdAt: now - 1000 }),
      record('hand-a', { createdAt: now - 2 * DAY }),
      record('hand-a', { createdAt: now - 3000, logType: 'photo', imageKey: 'photos/hand-a/1.webp', thumbKey: 'thumbs/hand-a/1.webp' }),
      record('hand-b', { createdAt: now - 1000 }),
    ]);
    await counts.mark('hand-a');
    await counts.mark('hand-b');
    await counts.mark('hand-a');
    expect(await counts.publishChanged(now)).toBe(2);
    await waitFor(() => liveFacts('hand-a').length === 1 && liveFacts('hand-b').length === 1, 'the two live facts');
    expect(liveFacts('hand-a')[0]).toEqual({
      serverId: 'hand-a',
      logs: 2,
      photoLogs: 1,
      days: [
        { date: '2026-03-13', logs: 1, photoLogs: 0 },
        { date: '2026-03-15', logs: 1, photoLogs: 1 },
      ],
      countedAt: '2026-03-15T12:00:00.000Z',
    });
    expect(liveFacts('hand-b')[0]).toMatchObject({ logs: 1, photoLogs: 0 });
    // Nothing changed since: nothing to announce (a busy server costs one fact per run, an idle one none).
    expect(await counts.publishChanged(now + 2000)).toBe(0);
    await counts.mark('hand-b');
    expect(await counts.publishChanged(now + 4000)).toBe(1);
    await waitFor(() => liveFacts('hand-b').length === 2, "hand-b's second fact");
    expect(liveFacts('hand-a')).toHaveLength(1);
  });

  it('keeps the servers of a failed publish for the next run', async () => {
    let refuse = true;
    const bus = new Proxy(h.deps.bus, {
      get(target, property) {
        if (property === 'publish') {
          return async (messages: readonly PublishInput[]) => {
            if (refuse) throw new Error('bus down');
            await target.publish(messages);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as EventBus;
    const counts = await createServerCounts({ docs: h.deps.docs, logStore: h.deps.logStore, bus });
    await h.deps.logStore.insertBatch([record('hand-c')]);
    await counts.mark('hand-c');
    await expect(counts.publishChanged(Date.now())).rejects.toThrow('bus down');
    refuse = false;
    expect(await counts.publishChanged(Date.now())).toBe(1);
    await waitFor(() => liveFacts('hand-c').length === 1, "hand-c's fact after the failure");
    expect(liveFacts('hand-c')[0]).toMatchObject({ logs: 1, photoLogs: 0 });
  });
});

describe("the service's live run", () => {
  it('announces a stored batch, and the figures after a cleanup', async () => {
    const S = 'srv-live';
    await seedServer(h, { serverId: S, ownerId: 'owner-live', tier: 'pro' });
    const now = Date.now();
    const log = (id: string, createdAt: number): AcceptedLog => ({
      id, createdAt, level: 'info', type: 'General', resource: 'core', message: id, metadata: null, logType: 'text', imageKey: null, thumbKey: null,
    });
    await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: [log('l1', now - 2000), log('l2', now - 1000)] })]);
    await waitFor(async () => (await storedIds(h, S)).length === 2, 'the stored batch');
    await waitFor(() => liveFacts(S).at(-1)?.logs === 2, 'the live fact of the stored batch');
    const today = new Date(now).toISOString().slice(0, 10);
    expect(liveFacts(S).at(-1)?.days).toEqual([{ date: today, logs: 2, photoLogs: 0 }]);
    // The history topic still gets its fact, from the minute job (not run here): none yet.
    expect(h.published.some((m) => m.topic === TOPICS.logCounts && (m.payload as { data: LogsServerCounts }).data.serverId === S)).toBe(false);

    h.clock.now = Date.now();
    const cleanup = await h.injectAs({ id: 'owner-live' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=0` });
    expect(cleanup.statusCode).toBe(200);
    await waitFor(() => liveFacts(S).at(-1)?.logs === 0, 'the live fact after the cleanup');
    expect(liveFacts(S).at(-1)).toMatchObject({ logs: 0, photoLogs: 0, days: [] });
  });
});
