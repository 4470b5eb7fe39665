import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { sweepExpired } from '../src/domain/retention.ts';
import { record } from './support/harness.ts';

let deps: TestDeps;

beforeEach(async () => {
  deps = await createTestDeps({ service: 'logs' });
});

afterEach(async () => {
  await deps.cleanup();
});

const idsOf = async (serverId: string) => (await deps.logStore.query({ serverId, offset: 0, limit: 100 })).items.map((r) => r.id);

describe('retention sweep', () => {
  it('deletes logs whose expiresAt has passed, with their photo objects, and keeps the rest', async () => {
    const { logStore, objects, log } = deps;
    await objects.put('photos/s/old.webp', Buffer.from('x'), 'image/webp');
    await objects.put('photos/s/new.webp', Buffer.from('x'), 'image/webp');
    await logStore.insertBatch([
      record('s', { id: 'old', expiresAt: 1000, logType: 'photo', imageKey: 'photos/s/old.webp', thumbKey: null }),
      record('s', { id: 'new', expiresAt: 5000, logType: 'photo', imageKey: 'photos/s/new.webp', thumbKey: null }),
      record('t', { id: 'other', expiresAt: 999 }),
    ]);
    expect(await sweepExpired({ logStore, objects, log, players: { store: deps.playerStore!, catchUp: async () => undefined } }, 2000)).toBe(2);
    expect([...(await idsOf('s')), ...(await idsOf('t'))]).toEqual(['new']);
    expect((await objects.list('')).map((o) => o.key)).toEqual(['photos/s/new.webp']);
  });
});
