/** The logs routes on the embedded log store (SQLite): filters, search, day bounds, paging, stats, cleanup, photo limit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityReadModel } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';
import { waitFor } from '@skald/testing';
import { storeAcceptedBatches } from '../src/domain/store-batch.ts';
import type { LogsBatchAccepted } from '@skald/contracts';
import { createHarness, getAs, NOW, record, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-sql';
let h: Harness;
let directory: IdentityReadModel;

const get = (url: string) => getAs(h, url, 'u');
const ids = async (q: string) => (await get(`/logs/my/combined?serverId=${S}&${q}`)).json().map((l: { id: string }) => l.id);
/** The consumer's store step, called directly (its result is asserted) with the service's adapters. */
const storeBatch = (logs: LogsBatchAccepted['logs']) =>
  storeAcceptedBatches({ logStore: h.deps.logStore, objects: h.deps.objects, directory, log: h.deps.log, notifyStored: async () => undefined }, [{ event: { serverId: S, logs }, batchId: 'batch-1' }]);

beforeAll(async () => {
  h = await createHarness();
  // A second identity read model over the same bus, started before the server is published so it sees it too.
  directory = await createIdentityReadModel({ bus: h.deps.bus, docs: h.deps.docs, group: 'test.store-batch.identity', collectionPrefix: 'test_identity_' });
  await directory.start();
  await seedServer(h, { serverId: S, ownerId: 'u', tier: 'free' });
  await waitFor(async () => (await directory.server(S)) !== null, 'the server in the test read model');
  const day = (iso: string) => Date.parse(iso);
  await h.deps.logStore.insertBatch([
    record(S, { id: 'a', createdAt: day('2025-08-18T00:00:00.000Z'), level: 'error', type: 'Combat', resource: 'ArenaRes', metadata: { weapon: 'Crossbow' } }),
    record(S, { id: 'b', createdAt: day('2025-08-18T23:59:59.999Z'), level: 'warn', message: 'Player JOINED the game' }),
    record(S, { id: 'c', createdAt: day('2025-08-17T23:59:59.999Z'), level: 'error' }),
    record(S, { id: 'd', createdAt: day('2025-08-20T10:00:00.000Z'), logType: 'photo', imageKey: 'photos/srv-sql/d.webp', thumbKey: 'thumbs/srv-sql/d.webp' }),
    record('other', { id: 'z', createdAt: day('2025-08-20T10:00:00.000Z'), level: 'error' }),
  ]);
});

afterAll(async () => {
  await directory.stop();
  await h.close();
});

describe('logs routes on the SQLite log store', () => {
  it('filters case-insensitively, searches message and metadata, bounds whole UTC days, newest first', async () => {
    expect(await ids('')).toEqual(['d', 'b', 'a', 'c']);
    expect(await ids('level=ERROR')).toEqual(['a', 'c']);
    expect(await ids('type=combat&resource=arenares')).toEqual(['a']);
    expect(await ids('search=crossbow')).toEqual(['a']);
    expect(await ids('search=joined')).toEqual(['b']);
    expect(await ids('dateFrom=2025-08-18&dateTo=2025-08-18')).toEqual(['b', 'a']);
    const page = await get(`/logs/my/combined?serverId=${S}&page=2&pageSize=2`);
    expect(page.headers['x-total-count']).toBe('4');
    expect(page.json().map((l: { id: string }) => l.id)).toEqual(['a', 'c']);
  });

  it('answers stats from the rollups', async () => {
    const body = (await get(`/logs/stats?serverId=${S}`)).json();
    expect(body.totals).toEqual({ all: 4, text: 3, photo: 1 });
    expect(body.currentWeekTotal).toBe(4);
    expect(body.last7Days.find((d: { date: string }) => d.date === '2025-08-18')).toEqual({ date: '2025-08-18', text: 2, photo: 0 });
    expect(body.perLevel.find((l: { name: string }) => l.name === 'error')).toEqual({ name: 'error', text: 2, photo: 0 });
    expect(body.recentPhotos.map((p: { id: string }) => p.id)).toEqual(['d']);
    expect(body.trend).toBe(100);
  });

  it('keeps maxPhotoLogs photo logs after a batch and deletes the evicted objects', async () => {
    const logs = Array.from({ length: 11 }, (_, i) => ({
      id: `ph${String(i).padStart(2, '0')}`, createdAt: NOW + i, level: 'info' as const, type: 'Shot', resource: 'cam', message: 'photo',
      metadata: null, logType: 'photo' as const, imageKey: `photos/${S}/ph${i}.webp`, thumbKey: `thumbs/${S}/ph${i}.webp`,
    }));
    for (const l of logs) await h.deps.objects.put(l.imageKey, Buffer.from('x'), 'image/webp');
    const result = await storeBatch(logs);
    expect(result.inserted).toBe(11);
    expect(result.photosEvicted).toBe(2); // 'd' and the oldest new one
    expect(await h.deps.logStore.count(S, 'photo')).toBe(10);
    expect(await h.deps.objects.stat(`photos/${S}/ph0.webp`)).toBeNull();
    expect(await h.deps.objects.stat(`photos/${S}/ph1.webp`)).not.toBeNull();
    const again = await storeBatch(logs.slice(5));
    expect(again.inserted).toBe(0);
  });

  it('cleanup deletes by age on the real store', async () => {
    h.clock.now = NOW + 60_000; // after the photo logs above
    const res = await h.injectAs({ id: 'u' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=0` });
    expect(res.json().deletedCount).toBe(13);
    expect(await h.deps.logStore.count(S)).toBe(0);
    expect(await h.deps.logStore.count('other')).toBe(1);
  });
});
