/**
 * The live tails' bus feed (domain/tail/bus-feed.ts) over the real journal bus and SQLite log store: a
 * batch reaches a listener only once a `logs.batch-stored` notice says it is stored (whichever replica
 * stored it), a notice that comes before its batch waits for it, a notice whose batch was never seen is
 * served from the store, servers without listeners are ignored, and the observer runs only while
 * someone listens.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogsBatchAcceptedEvent, LogsBatchStoredEvent, eventMessage } from '@skald/contracts';
import type { AcceptedLog, LogsBatchStored } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import { createTestDeps, waitFor } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { createBusLiveFeed } from '../src/domain/tail/bus-feed.ts';
import type { BusLiveFeed } from '../src/domain/tail/bus-feed.ts';

const S = 'srv-1';
const OTHER = 'srv-2';
let deps: TestDeps;
let feed: BusLiveFeed;

let seq = 0;
function log(overrides: Partial<AcceptedLog> = {}): AcceptedLog {
  seq += 1;
  const createdAt = overrides.createdAt ?? Date.parse('2026-01-05T10:00:00.000Z') + seq;
  const hex = createdAt.toString(16).padStart(12, '0');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${seq.toString(16).padStart(3, '0')}-8000-000000000000`;
  return { id, createdAt, level: 'info', type: 'General', resource: 'core', message: `m${seq}`, metadata: null, logType: 'text', imageKey: null, thumbKey: null, ...overrides };
}

/** Publishes a batch as ingestion does; returns its batch id (the envelope id the notice names). */
async function accept(serverId: string, logs: AcceptedLog[]): Promise<string> {
  const message = eventMessage(LogsBatchAcceptedEvent, serverId, { serverId, logs });
  await deps.bus.publish([message]);
  return message.id!;
}

function noticeOf(serverId: string, batchId: string, logs: AcceptedLog[]): LogsBatchStored {
  const times = logs.map((l) => l.createdAt);
  return { serverId, batchId, count: logs.length, fromTime: Math.min(...times), toTime: Math.max(...times) };
}

/** Stores the logs (as some logs replica does) and publishes the notice. */
async function store(serverId: string, batchId: string, logs: AcceptedLog[]): Promise<void> {
  await deps.logStore.insertBatch(logs.map((l) => ({ ...l, serverId, expiresAt: l.createdAt + 86_400_000 })));
  await deps.bus.publish([eventMessage(LogsBatchStoredEvent, serverId, noticeOf(serverId, batchId, logs))]);
}

function listen(serverId: string): Promise<{ received: LogRecord[]; leave: () => void }> {
  const received: LogRecord[] = [];
  return feed.subscribe(serverId, (records) => void received.push(...records)).then((leave) => ({ received, leave }));
}

beforeEach(async () => {
  deps = await createTestDeps({ service: 'logs' });
  feed = createBusLiveFeed({ bus: deps.bus, logStore: deps.logStore, log: deps.log }, { graceMs: 50, lingerMs: 0 });
});

afterEach(async () => {
  await feed.close();
  await deps.cleanup();
});

describe('bus live feed', () => {
  it('holds an observed batch until its stored notice, then sends its text logs in order', async () => {
    const { received } = await listen(S);
    const unstored = [log({ message: 'not stored yet' })];
    const unstoredId = await accept(S, unstored);
    const batch = [log({ message: 'one' }), log({ message: 'photo', logType: 'photo', imageKey: 'photos/s/p.webp', thumbKey: 'thumbs/s/p.webp' }), log({ message: 'two' })];
    const batchId = await accept(S, batch);
    await store(S, batchId, batch);
    await waitFor(() => received.length >= 2, 'the stored batch');
    // The batch accepted first was observed first: had it been sent without its notice, it would be here.
    expect(received.map((r) => r.message)).toEqual(['one', 'two']);
    await store(S, unstoredId, unstored);
    await waitFor(() => received.length >= 3, 'the batch once stored');
    expect(received.map((r) => r.message)).toEqual(['one', 'two', 'not stored yet']);
    expect(received[2]).toMatchObject({ id: unstored[0]!.id, serverId: S, logType: 'text' });
  });

  it('keeps acceptance order when a later batch is stored first (a faster replica)', async () => {
    await feed.close();
    // A hold far longer than the test: only the earlier batch's notice can release the later one.
    feed = createBusLiveFeed({ bus: deps.bus, logStore: deps.logStore, log: deps.log }, { graceMs: 50, holdMs: 60_000, lingerMs: 0 });
    const { received } = await listen(S);
    const first = [log({ message: 'accepted first' })];
    const second = [log({ message: 'accepted second' })];
    const firstId = await accept(S, first);
    const secondId = await accept(S, second);
    await store(S, secondId, second);
    await store(S, firstId, first);
    await waitFor(() => received.length >= 2, 'both batches');
    expect(received.map((r) => r.message)).toEqual(['accepted first', 'accepted second']);
  });

  it('serves a notice whose batch it never observed from the store (a batch accepted before it started)', async () => {
    const early = [log({ message: 'accepted before the feed started' }), log({ message: 'same batch' })];
    const batchId = await accept(S, early);
    const { received } = await listen(S);
    // Another server's log in the same time window must not leak into this server's tail.
    await deps.logStore.insertBatch([{ ...log({ createdAt: early[0]!.createdAt }), serverId: OTHER, expiresAt: Date.now() + 86_400_000 }]);
    await store(S, batchId, early);
    await waitFor(() => received.length >= 2, 'the batch read from the store');
    expect(received.map((r) => r.message)).toEqual(['accepted before the feed started', 'same batch']);
    expect(received.every((r) => r.serverId === S)).toBe(true);
  });

  it('serves an unobserved batch whose logs’ own times span a day from the store, without the logs received long before it', async () => {
    const now = Date.now();
    const HOUR = 3_600_000;
    const idAt = (ms: number, n: number): string => {
      const hex = ms.toString(16).padStart(12, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${n.toString(16).padStart(3, '0')}-8000-000000000000`;
    };
    // Received an hour before the batch; its own time lies inside the batch's window.
    const neighbour = log({ id: idAt(now - HOUR, 1), createdAt: now - 10 * HOUR, message: 'received an hour before' });
    await deps.logStore.insertBatch([{ ...neighbour, serverId: S, expiresAt: now + 86_400_000 }]);
    const batch = [
      log({ id: idAt(now, 2), createdAt: now - 20 * HOUR, receivedAt: now, message: 'sent a day late' }),
      log({ id: idAt(now, 3), createdAt: now, message: 'on time' }),
    ];
    // Accepted before the feed started (never observed); ingestion's batch ids are UUIDv7s of its clock.
    const message = eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: batch }, { id: idAt(now, 4) });
    await deps.bus.publish([message]);
    const { received } = await listen(S);
    await store(S, message.id!, batch);
    await waitFor(() => received.length >= 2, 'the batch read from the store');
    // One read, one delivery: had the neighbour been read, it would be here beside them.
    expect(received.map((r) => r.message)).toEqual(['sent a day late', 'on time']);
    expect(received[0]!.receivedAt).toBe(now);
  });

  it('sends each log once when its notice is observed before its batch', async () => {
    await feed.close();
    // A grace far longer than the test: only the batch's arrival can release the notice.
    feed = createBusLiveFeed({ bus: deps.bus, logStore: deps.logStore, log: deps.log }, { graceMs: 60_000, lingerMs: 0 });
    const { received } = await listen(S);
    const batch = [log({ message: 'notice first' })];
    const message = eventMessage(LogsBatchAcceptedEvent, S, { serverId: S, logs: batch });
    await deps.logStore.insertBatch(batch.map((l) => ({ ...l, serverId: S, expiresAt: l.createdAt + 86_400_000 })));
    await deps.bus.publish([eventMessage(LogsBatchStoredEvent, S, noticeOf(S, message.id!, batch))]);
    await deps.bus.publish([message]);
    await waitFor(() => received.length >= 1, 'the batch after its notice');
    const later = [log({ message: 'later' })];
    await store(S, await accept(S, later), later);
    await waitFor(() => received.length >= 2, 'a later batch');
    expect(received.map((r) => r.message)).toEqual(['notice first', 'later']);
  });

  it('stops an observer that finished starting after close(), and starts afresh on the next subscribe', async () => {
    const pending = feed.subscribe(S, () => undefined);
    await feed.close();
    await expect(pending).rejects.toThrow('closed while it started');
    expect(feed.observing()).toBe(false);
    const again = await listen(S);
    expect(feed.observing()).toBe(true);
    const batch = [log({ message: 'after close and reopen' })];
    await store(S, await accept(S, batch), batch);
    await waitFor(() => again.received.length >= 1, 'a batch through the new observer');
    expect(again.received.map((r) => r.message)).toEqual(['after close and reopen']);
  });

  it('ignores servers nobody listens to, and observes only while someone listens', async () => {
    expect(feed.observing()).toBe(false);
    const first = await listen(S);
    expect(feed.observing()).toBe(true);
    const other = [log({ message: 'other server' })];
    await store(OTHER, await accept(OTHER, other), other);
    const mine = [log({ message: 'mine' })];
    await store(S, await accept(S, mine), mine);
    await waitFor(() => first.received.length >= 1, 'this server');
    expect(first.received.map((r) => r.message)).toEqual(['mine']);
    first.leave();
    // lingerMs 0: the observer stops once the last listener left.
    await waitFor(() => !feed.observing(), 'the observer to stop');
    const again = await listen(S);
    expect(feed.observing()).toBe(true);
    const next = [log({ message: 'after a restart of the observer' })];
    await store(S, await accept(S, next), next);
    await waitFor(() => again.received.length >= 1, 'the restarted observer');
    expect(again.received.map((r) => r.message)).toEqual(['after a restart of the observer']);
  });
});
