/**
 * Storing the accepted events of one bus read together (storeAcceptedBatches) on the real embedded log
 * store: one insert per part of at most MAX_LOGS_PER_TRANSACTION logs, each server's own retention and
 * photo limit, one publish of the notices of a part in acceptance order, and a redelivery that stores
 * nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tierOf } from '@skald/contracts';
import type { LogsBatchAccepted, LogsBatchStored, TierKey } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { DAY_MS } from '../src/domain/days.ts';
import { MAX_LOGS_PER_TRANSACTION, storeAcceptedBatches } from '../src/domain/store-batch.ts';
import type { AcceptedBatch, StoreBatchDeps } from '../src/domain/store-batch.ts';
import type { ServerDirectory } from '../src/domain/server-directory.ts';

const T0 = Date.parse('2026-11-01T12:00:00.000Z');
const TIERS: Record<string, TierKey> = { 'srv-free': 'free', 'srv-pro': 'pro' };

let deps: TestDeps;
const inserts: number[] = [];
const published: LogsBatchStored[][] = [];
let store: StoreBatchDeps;

type Log = LogsBatchAccepted['logs'][number];
function log(id: string, createdAt: number, logType: 'text' | 'photo' = 'text'): Log {
  return {
    id, createdAt, level: 'info', type: 'T', resource: 'res', message: `m ${id}`, metadata: null, logType,
    imageKey: logType === 'photo' ? `photos/${id}.webp` : null, thumbKey: logType === 'photo' ? `thumbs/${id}.webp` : null,
  };
}
function batch(batchId: string, serverId: string, logs: Log[]): AcceptedBatch {
  return { batchId, event: { serverId, logs } };
}
function texts(prefix: string, count: number, from: number): Log[] {
  return Array.from({ length: count }, (_, i) => log(`${prefix}-${String(i).padStart(4, '0')}`, from + i));
}

beforeAll(async () => {
  deps = await createTestDeps();
  // Only a server's tier is read while storing.
  const directory = {
    server: async (serverId: string) => (TIERS[serverId] ? { tier: TIERS[serverId] } : null),
  } as unknown as ServerDirectory;
  const logStore = deps.logStore;
  store = {
    // The real store, its inserts counted (one per transaction).
    logStore: new Proxy(logStore, {
      get(target, property) {
        if (property === 'insertBatch') {
          return (records: readonly LogRecord[]) => {
            inserts.push(records.length);
            return target.insertBatch(records);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }),
    objects: deps.objects,
    directory,
    log: deps.log,
    notifyStored: async (notices) => void published.push([...notices]),
  };
});
afterAll(async () => {
  await deps.cleanup();
});

describe('storeAcceptedBatches', () => {
  it('stores several servers\' events in one transaction, each with its tier\'s retention, and tells their tails in one publish', async () => {
    inserts.length = 0;
    published.length = 0;
    const batches = [
      batch('b1', 'srv-free', [log('f1', T0 + 5), log('f2', T0 + 1)]),
      batch('b2', 'srv-pro', [log('p1', T0 + 2), log('p2', T0 + 9, 'photo')]),
      batch('b3', 'srv-free', [log('f3', T0 + 7)]),
      batch('b4', 'srv-pro', [log('p3', T0 + 3, 'photo')]),
    ];
    const result = await storeAcceptedBatches(store, batches);
    expect(result.inserted).toBe(6);
    expect(result.photosEvicted).toBe(0);
    expect([...result.changedServers].sort()).toEqual(['srv-free', 'srv-pro']);
    expect(inserts, 'one insert').toEqual([6]);
    // A notice per event with text logs (b4 has none), counting its text logs and their time window, in order.
    expect(published).toEqual([[
      { serverId: 'srv-free', batchId: 'b1', count: 2, fromTime: T0 + 1, toTime: T0 + 5 },
      { serverId: 'srv-pro', batchId: 'b2', count: 1, fromTime: T0 + 2, toTime: T0 + 2 },
      { serverId: 'srv-free', batchId: 'b3', count: 1, fromTime: T0 + 7, toTime: T0 + 7 },
    ]]);
    const free = (await deps.logStore.query({ serverId: 'srv-free', offset: 0, limit: 10 })).items;
    const pro = (await deps.logStore.query({ serverId: 'srv-pro', offset: 0, limit: 10 })).items;
    expect(free.map((r) => r.id).sort()).toEqual(['f1', 'f2', 'f3']);
    expect(pro.map((r) => r.id).sort()).toEqual(['p1', 'p2', 'p3']);
    const expiry = (records: readonly LogRecord[], id: string) => {
      const found = records.find((r) => r.id === id)!;
      return found.expiresAt - found.createdAt;
    };
    expect(expiry(free, 'f1')).toBe(tierOf('free').retentionDays * DAY_MS);
    expect(expiry(pro, 'p2')).toBe(tierOf('pro').retentionDays * DAY_MS);

    // Delivered again (a crash before the bus committed): nothing stored twice, the notices sent again.
    const again = await storeAcceptedBatches(store, batches);
    expect(again.inserted).toBe(0);
    expect(again.changedServers).toEqual([]);
    expect(published[1]).toEqual(published[0]);
  });

  it('counts retention from the arrival: a log whose own time is 23 h earlier expires when one received with it does', async () => {
    const received = T0 + 50_000_000;
    const backdated: Log = { ...log('rt-backdated', received - 23 * 3_600_000), receivedAt: received };
    const ahead: Log = { ...log('rt-ahead', received + 4 * 60_000), receivedAt: received };
    // An event from before receivedAt existed: received at its createdAt.
    const plain = log('rt-plain', received);
    await storeAcceptedBatches(store, [batch('rt', 'srv-pro', [backdated, ahead, plain])]);
    const stored = (await deps.logStore.query({ serverId: 'srv-pro', search: 'm rt-', offset: 0, limit: 10 })).items;
    const retention = tierOf('pro').retentionDays * DAY_MS;
    expect(stored.map((r) => [r.id, r.createdAt, r.receivedAt, r.expiresAt])).toEqual([
      ['rt-ahead', received + 4 * 60_000, received, received + retention],
      ['rt-plain', received, undefined, received + retention],
      ['rt-backdated', received - 23 * 3_600_000, received, received + retention],
    ]);
    // The notice's window spans the logs' own times (what a tail's fallback read filters by).
    expect(published.at(-1)).toEqual([{ serverId: 'srv-pro', batchId: 'rt', count: 3, fromTime: received - 23 * 3_600_000, toTime: received + 4 * 60_000 }]);
  });

  it('splits a read into parts of at most MAX_LOGS_PER_TRANSACTION logs, a larger event alone, nothing lost', async () => {
    inserts.length = 0;
    published.length = 0;
    const third = Math.floor(MAX_LOGS_PER_TRANSACTION * 0.45);
    const batches = [
      batch('s1', 'srv-free', texts('s1', third, T0 + 1_000_000)),
      batch('s2', 'srv-free', texts('s2', third, T0 + 2_000_000)),
      batch('s3', 'srv-free', texts('s3', third, T0 + 3_000_000)),
      batch('big', 'srv-pro', texts('big', MAX_LOGS_PER_TRANSACTION + 10, T0 + 4_000_000)),
      batch('s4', 'srv-pro', texts('s4', 3, T0 + 5_000_000)),
    ];
    const result = await storeAcceptedBatches(store, batches);
    expect(inserts).toEqual([2 * third, third, MAX_LOGS_PER_TRANSACTION + 10, 3]);
    expect(result.inserted).toBe(3 * third + MAX_LOGS_PER_TRANSACTION + 13);
    expect(published.map((notices) => notices.map((notice) => notice.batchId))).toEqual([['s1', 's2'], ['s3'], ['big'], ['s4']]);
    expect(await deps.logStore.count('srv-free', 'text')).toBe(3 + 3 * third);
  });

  it('keeps each server\'s photo limit and deletes the evicted photos\' objects', async () => {
    const limit = tierOf('free').maxPhotoLogs;
    const photos = Array.from({ length: limit + 2 }, (_, i) => log(`ph-${String(i).padStart(2, '0')}`, T0 + 10_000 + i, 'photo'));
    for (const photo of photos) await deps.objects.put(photo.imageKey!, Buffer.from('x'), 'image/webp');
    const result = await storeAcceptedBatches(store, [
      batch('ph-a', 'srv-free', photos.slice(0, 5)),
      batch('ph-b', 'srv-free', photos.slice(5)),
    ]);
    expect(result.photosEvicted).toBe(2);
    expect(await deps.logStore.count('srv-free', 'photo')).toBe(limit);
    expect(await deps.objects.stat(photos[0]!.imageKey!)).toBeNull();
    expect(await deps.objects.stat(photos[2]!.imageKey!)).not.toBeNull();
  });
});
