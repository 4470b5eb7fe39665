/**
 * The per-server count cap of numbered slots under a unique index (saved searches, cases), over the real
 * embedded document store: racing inserts never pass the cap, a freed slot is taken again, a lowered cap
 * leaves no place, a refusal from what is held wins, and an error other than a taken slot is thrown.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BaseDocument, Collection } from '@skald/ports';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { insertInFreeSlot } from '../src/domain/bounded-slots.ts';

interface PlaceDocument extends BaseDocument {
  readonly serverId: string;
  readonly slot: number;
  readonly name: string;
}

let deps: TestDeps;
let places: Collection<PlaceDocument>;

beforeEach(async () => {
  deps = await createTestDeps({ service: 'logs' });
  places = await deps.docs.collection<PlaceDocument>('places', [{ fields: ['serverId', 'slot'], unique: true }]);
});

afterEach(async () => {
  await deps.cleanup();
});

function take(serverId: string, name: string, max: number) {
  return insertInFreeSlot({
    max,
    held: () => places.find({ serverId }),
    refuse: (held) => (held.some((doc) => doc.name === name) ? 'name taken' : null),
    insert: async (slot) => {
      const doc: PlaceDocument = { _id: `${serverId}-${name}`, serverId, slot, name };
      await places.insertOne(doc);
      return doc;
    },
  });
}

describe('insertInFreeSlot', () => {
  it('lets racing inserts take at most max places, each its own slot, per server', async () => {
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => take('s1', name, 3)));
    const inserted = results.filter((r): r is PlaceDocument => r !== null && typeof r === 'object');
    expect(inserted).toHaveLength(3);
    expect(results.filter((r) => r === null)).toHaveLength(2);
    expect(inserted.map((doc) => doc.slot).sort()).toEqual([0, 1, 2]);
    expect(await take('s2', 'a', 3)).toMatchObject({ serverId: 's2', slot: 0 });
  });

  it('gives the lowest free slot again once a place is freed', async () => {
    for (const name of ['a', 'b', 'c']) await take('s1', name, 3);
    await places.deleteOne({ _id: 's1-b' });
    expect(await take('s1', 'd', 3)).toMatchObject({ slot: 1 });
    expect(await take('s1', 'e', 3)).toBeNull();
  });

  it('leaves no place when the server holds more than a lowered max, even with a free slot below it', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await take('s1', name, 4);
    await places.deleteOne({ _id: 's1-a' });
    expect(await take('s1', 'e', 2)).toBeNull();
  });

  it('answers the refusal of what is held before looking for a slot', async () => {
    await take('s1', 'a', 1);
    expect(await take('s1', 'a', 1)).toBe('name taken');
  });

  it('throws an insert error that is not a taken slot', async () => {
    const failing = insertInFreeSlot({
      max: 2,
      held: async () => [],
      insert: () => Promise.reject(new Error('disk full')),
    });
    await expect(failing).rejects.toThrow('disk full');
  });
});
