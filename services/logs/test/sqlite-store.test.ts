/** The logs routes on the real embedded log store (SQLite): filters, search, day bounds, paging, stats, cleanup, photo limit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createLogStore } from '@skald/adapters';
import type { LogStore } from '@skald/ports';
import { storeAcceptedBatch } from '../src/domain/store-batch.ts';
import { createHarness, NOW, record } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-sql';
let dir: string;
let h: Harness<LogStore>;

const get = (url: string) => h.app.inject({ method: 'GET', url, headers: { 'x-test-user': 'u' } });
const ids = async (q: string) => (await get(`/logs/my/combined?serverId=${S}&${q}`)).json().map((l: { id: string }) => l.id);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'logs-sqlite-'));
  h = await createHarness(await createLogStore({ kind: 'sqlite', file: join(dir, 'logs.db') }));
  h.directory.addServer(S, 'free');
  h.directory.grant(S, 'u', 'owner');
  const day = (iso: string) => Date.parse(iso);
  await h.logStore.insertBatch([
    record(S, { id: 'a', createdAt: day('2025-08-18T00:00:00.000Z'), level: 'error', type: 'Combat', resource: 'ArenaRes', metadata: { weapon: 'Crossbow' } }),
    record(S, { id: 'b', createdAt: day('2025-08-18T23:59:59.999Z'), level: 'warn', message: 'Player JOINED the game' }),
    record(S, { id: 'c', createdAt: day('2025-08-17T23:59:59.999Z'), level: 'error' }),
    record(S, { id: 'd', createdAt: day('2025-08-20T10:00:00.000Z'), logType: 'photo', imageKey: 'photos/srv-sql/d.webp', thumbKey: 'thumbs/srv-sql/d.webp' }),
    record('other', { id: 'z', createdAt: day('2025-08-20T10:00:00.000Z'), level: 'error' }),
  ]);
});

afterAll(async () => {
  await h.logStore.close();
  await rm(dir, { recursive: true, force: true });
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
    for (const l of logs) await h.objects.put(l.imageKey, Buffer.from('x'), 'image/webp');
    const result = await storeAcceptedBatch({ logStore: h.logStore, objects: h.objects, directory: h.directory, log: pino({ level: 'silent' }) }, { serverId: S, logs });
    expect(result.inserted).toBe(11);
    expect(result.photosEvicted).toBe(2); // 'd' and the oldest new one
    expect(await h.logStore.count(S, 'photo')).toBe(10);
    expect(h.objects.objects.has(`photos/${S}/ph0.webp`)).toBe(false);
    expect(h.objects.objects.has(`photos/${S}/ph1.webp`)).toBe(true);
    const again = await storeAcceptedBatch({ logStore: h.logStore, objects: h.objects, directory: h.directory, log: pino({ level: 'silent' }) }, { serverId: S, logs: logs.slice(5) });
    expect(again.inserted).toBe(0);
  });

  it('cleanup deletes by age on the real store', async () => {
    h.now = NOW + 60_000; // after the photo logs above
    const res = await h.app.inject({ method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=0`, headers: { 'x-test-user': 'u' } });
    expect(res.json().deletedCount).toBe(13);
    expect(await h.logStore.count(S)).toBe(0);
    expect(await h.logStore.count('other')).toBe(1);
  });
});
