import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { sweepExpired } from '../src/domain/retention.ts';
import { MemoryLogStore } from './support/memory-log-store.ts';
import { MemoryObjectStore } from './support/memory-stores.ts';
import { record } from './support/harness.ts';

describe('retention sweep', () => {
  it('deletes logs whose expiresAt has passed, with their photo objects, and keeps the rest', async () => {
    const logStore = new MemoryLogStore();
    const objects = new MemoryObjectStore();
    await objects.put('photos/s/old.webp', Buffer.from('x'), 'image/webp');
    await objects.put('photos/s/new.webp', Buffer.from('x'), 'image/webp');
    await logStore.insertBatch([
      record('s', { id: 'old', expiresAt: 1000, logType: 'photo', imageKey: 'photos/s/old.webp', thumbKey: null }),
      record('s', { id: 'new', expiresAt: 5000, logType: 'photo', imageKey: 'photos/s/new.webp', thumbKey: null }),
      record('t', { id: 'other', expiresAt: 999 }),
    ]);
    expect(await sweepExpired({ logStore, objects, log: pino({ level: 'silent' }) }, 2000)).toBe(2);
    expect([...logStore.records.keys()]).toEqual(['new']);
    expect([...objects.objects.keys()]).toEqual(['photos/s/new.webp']);
  });
});
