/**
 * Contract suite of the DocumentStore port. Every adapter's test file calls it:
 *   documentStoreContract('sqlite', async () => ({ adapter, cleanup }));
 * It pins the query subset (docs/DOCUMENT_STORE.md) so SQLite and MongoDB answer identically.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateKeyError, InvalidQueryError } from '../src/index.ts';
import type { Collection, DocumentStore, Filter, Update } from '../src/index.ts';

export interface DocumentStoreFixture {
  readonly adapter: DocumentStore;
  readonly cleanup: () => Promise<void>;
}

interface Player {
  readonly _id: string;
  name: string;
  score?: number;
  team?: string | null;
  active?: boolean;
  tags?: string[];
  profile?: { readonly country: string };
}

const PLAYERS: Player[] = [
  { _id: 'p1', name: 'alice', score: 10, team: 'red', active: true },
  { _id: 'p2', name: 'bob', score: 20, team: 'blue', active: false },
  { _id: 'p3', name: 'carol', score: 30, team: null, active: true },
  { _id: 'p4', name: 'dave', score: 5, active: true },
  { _id: 'p5', name: 'eve', team: 'red', active: false, tags: ['x'], profile: { country: 'NL' } },
];

const ids = (docs: readonly { _id: string }[]): string[] => docs.map((d) => d._id).sort();

export function documentStoreContract(name: string, makeAdapter: () => Promise<DocumentStoreFixture>): void {
  describe(`DocumentStore contract: ${name}`, () => {
    let fixture: DocumentStoreFixture;
    let players: Collection<Player>;
    let run = 0;

    beforeEach(async () => {
      fixture = await makeAdapter();
      run += 1;
      players = await fixture.adapter.collection<Player>(`players${run}`, [{ fields: ['name'], unique: true }, { fields: ['team', 'score'] }]);
      for (const p of PLAYERS) await players.insertOne({ ...p });
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    describe('insert and read', () => {
      it('round-trips documents including nested values, arrays and null', async () => {
        expect(await players.findOne({ _id: 'p5' })).toEqual(PLAYERS[4]);
        expect(await players.findOne({ _id: 'p3' })).toEqual(PLAYERS[2]);
        expect(await players.findOne({ _id: 'nope' })).toBeNull();
      });

      it('refuses a second document with the same _id', async () => {
        await expect(players.insertOne({ _id: 'p1', name: 'zed' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await players.count({})).toBe(5);
      });

      it('refuses a unique-index violation and keeps the original', async () => {
        await expect(players.insertOne({ _id: 'p9', name: 'alice' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await players.findOne({ name: 'alice' }))?._id).toBe('p1');
      });

      it('allows many documents without the uniquely indexed field', async () => {
        const loose = await fixture.adapter.collection<{ _id: string; email?: string }>(`loose${run}`, [{ fields: ['email'], unique: true }]);
        await loose.insertOne({ _id: 'a' });
        await loose.insertOne({ _id: 'b' });
        await loose.insertOne({ _id: 'c', email: 'x@example.com' });
        await expect(loose.insertOne({ _id: 'd', email: 'x@example.com' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await loose.count({})).toBe(3);
      });

      it('reopening a collection with the same indexes keeps its data', async () => {
        const again = await fixture.adapter.collection<Player>(`players${run}`, [{ fields: ['name'], unique: true }, { fields: ['team', 'score'] }]);
        expect(await again.count({})).toBe(5);
      });

      it('does not mutate the inserted object', async () => {
        const doc: Player = { _id: 'p6', name: 'frank' };
        await players.insertOne(doc);
        expect(Object.keys(doc)).toEqual(['_id', 'name']);
      });
    });

    describe('filters', () => {
      const cases: Array<[string, Filter, string[]]> = [
        ['equality on a string', { team: 'red' }, ['p1', 'p5']],
        ['equality on a number', { score: 20 }, ['p2']],
        ['equality on a boolean', { active: true }, ['p1', 'p3', 'p4']],
        ['equality on false', { active: false }, ['p2', 'p5']],
        ['null matches null and missing', { team: null }, ['p3', 'p4']],
        ['number does not match boolean', { active: 1 }, []],
        ['string does not match number', { score: '10' }, []],
        ['several fields are ANDed', { team: 'red', active: true }, ['p1']],
        ['$ne on a value includes missing fields', { team: { $ne: 'red' } }, ['p2', 'p3', 'p4']],
        ['$ne null means present and not null', { team: { $ne: null } }, ['p1', 'p2', 'p5']],
        ['$ne on a boolean', { active: { $ne: true } }, ['p2', 'p5']],
        ['$in on strings', { name: { $in: ['alice', 'eve', 'zed'] } }, ['p1', 'p5']],
        ['$in with null', { team: { $in: ['blue', null] } }, ['p2', 'p3', 'p4']],
        ['$in on numbers', { score: { $in: [5, 30] } }, ['p3', 'p4']],
        ['empty $in matches nothing', { name: { $in: [] } }, []],
        ['$gt', { score: { $gt: 10 } }, ['p2', 'p3']],
        ['$gte', { score: { $gte: 10 } }, ['p1', 'p2', 'p3']],
        ['$lt', { score: { $lt: 10 } }, ['p4']],
        ['$lte', { score: { $lte: 10 } }, ['p1', 'p4']],
        ['range with two operators', { score: { $gt: 5, $lt: 30 } }, ['p1', 'p2']],
        ['$gt on strings compares strings only', { name: { $gt: 'carol' } }, ['p4', 'p5']],
        ['numeric comparison ignores strings', { name: { $gt: 0 } }, []],
        ['_id equality', { _id: 'p2' }, ['p2']],
        ['_id $in', { _id: { $in: ['p2', 'p4'] } }, ['p2', 'p4']],
        ['empty filter matches all', {}, ['p1', 'p2', 'p3', 'p4', 'p5']],
      ];
      for (const [label, filter, expected] of cases) {
        it(label, async () => {
          expect(ids(await players.find(filter))).toEqual(expected);
          expect(await players.count(filter)).toBe(expected.length);
        });
      }
    });

    describe('sort, skip and limit', () => {
      it('sorts ascending and descending', async () => {
        expect((await players.find({ score: { $gte: 0 } }, { sort: { score: 1 } })).map((p) => p._id)).toEqual(['p4', 'p1', 'p2', 'p3']);
        expect((await players.find({ score: { $gte: 0 } }, { sort: { score: -1 } })).map((p) => p._id)).toEqual(['p3', 'p2', 'p1', 'p4']);
      });

      it('applies sort keys in order', async () => {
        const sorted = await players.find({ active: { $in: [true, false] } }, { sort: { active: 1, name: -1 } });
        expect(sorted.map((p) => p._id)).toEqual(['p5', 'p2', 'p4', 'p3', 'p1']);
      });

      it('pages with skip and limit', async () => {
        const page = await players.find({}, { sort: { name: 1 }, skip: 1, limit: 2 });
        expect(page.map((p) => p.name)).toEqual(['bob', 'carol']);
        expect(await players.find({}, { sort: { name: 1 }, skip: 10 })).toEqual([]);
        expect((await players.find({}, { sort: { name: 1 }, limit: 1 })).map((p) => p.name)).toEqual(['alice']);
      });
    });

    describe('updates', () => {
      it('$set, $unset and $inc in one update', async () => {
        const result = await players.updateOne({ _id: 'p1' }, { $set: { team: 'green', tags: ['a', 'b'] }, $unset: ['active'], $inc: { score: 5 } });
        expect(result.matched).toBe(1);
        expect(await players.findOne({ _id: 'p1' })).toEqual({ _id: 'p1', name: 'alice', score: 15, team: 'green', tags: ['a', 'b'] });
      });

      it('$set stores nested objects that can be read back', async () => {
        await players.updateOne({ _id: 'p2' }, { $set: { profile: { country: 'DE' } } });
        expect((await players.findOne({ _id: 'p2' }))?.profile).toEqual({ country: 'DE' });
      });

      it('$inc creates a missing field', async () => {
        await players.updateOne({ _id: 'p5' }, { $inc: { score: 3 } });
        expect((await players.findOne({ _id: 'p5' }))?.score).toBe(3);
      });

      it('updateOne changes only the first match and reports zero when none match', async () => {
        expect((await players.updateOne({ team: 'red' }, { $set: { team: 'pink' } })).matched).toBe(1);
        expect(await players.count({ team: 'pink' })).toBe(1);
        expect(await players.count({ team: 'red' })).toBe(1);
        expect((await players.updateOne({ team: 'none' }, { $set: { team: 'x' } })).matched).toBe(0);
      });

      it('updateMany changes every match', async () => {
        expect((await players.updateMany({ active: true }, { $inc: { score: 1 } })).matched).toBe(3);
        expect(ids(await players.find({ score: { $in: [11, 31, 6] } }))).toEqual(['p1', 'p3', 'p4']);
      });

      it('an update that violates a unique index throws DuplicateKeyError', async () => {
        await expect(players.updateOne({ _id: 'p2' }, { $set: { name: 'alice' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await players.findOne({ _id: 'p2' }))?.name).toBe('bob');
      });

      it('upsert inserts the filter equality fields with $set and $inc when nothing matches', async () => {
        const result = await players.updateOne({ _id: 'p7', name: 'gina' }, { $set: { team: 'blue' }, $inc: { score: 2 } }, { upsert: true });
        expect(result.matched).toBe(0);
        expect(await players.findOne({ _id: 'p7' })).toEqual({ _id: 'p7', name: 'gina', team: 'blue', score: 2 });
      });

      it('upsert updates an existing match instead of inserting', async () => {
        const result = await players.updateOne({ _id: 'p1' }, { $set: { team: 'blue' } }, { upsert: true });
        expect(result.matched).toBe(1);
        expect(await players.count({})).toBe(5);
        expect((await players.findOne({ _id: 'p1' }))?.team).toBe('blue');
      });

      it('upsert without _id in the filter generates a string _id', async () => {
        await players.updateOne({ name: 'hank' }, { $set: { score: 1 } }, { upsert: true });
        const hank = await players.findOne({ name: 'hank' });
        expect(typeof hank?._id).toBe('string');
        expect(hank?.score).toBe(1);
      });

      it('$inc is atomic under concurrent calls', async () => {
        const counters = await fixture.adapter.collection<{ _id: string; n: number }>(`counters${run}`);
        await counters.insertOne({ _id: 'c', n: 0 });
        await Promise.all(Array.from({ length: 50 }, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } })));
        expect((await counters.findOne({ _id: 'c' }))?.n).toBe(50);
      });

      it('concurrent upserts on one key create one document', async () => {
        const counters = await fixture.adapter.collection<{ _id: string; n: number }>(`upserts${run}`);
        await Promise.all(Array.from({ length: 20 }, () => counters.updateOne({ _id: 'k' }, { $inc: { n: 1 } }, { upsert: true })));
        expect(await counters.count({})).toBe(1);
        expect((await counters.findOne({ _id: 'k' }))?.n).toBe(20);
      });
    });

    describe('findOneAndUpdate', () => {
      it('returns the document after the update', async () => {
        const after = await players.findOneAndUpdate({ name: 'bob' }, { $inc: { score: 1 }, $set: { active: true } });
        expect(after).toEqual({ _id: 'p2', name: 'bob', score: 21, team: 'blue', active: true });
      });

      it('returns null and changes nothing when nothing matches', async () => {
        expect(await players.findOneAndUpdate({ name: 'nobody' }, { $set: { score: 0 } })).toBeNull();
        expect(await players.count({ score: 0 })).toBe(0);
      });

      it('hands out each matching document once under concurrency (claim pattern)', async () => {
        const jobs = await fixture.adapter.collection<{ _id: string; state: string; owner?: string }>(`jobs${run}`);
        for (let i = 0; i < 5; i++) await jobs.insertOne({ _id: `j${i}`, state: 'ready' });
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, worker) => jobs.findOneAndUpdate({ state: 'ready' }, { $set: { state: 'taken', owner: `w${worker}` } })),
        );
        const claimed = claims.filter((c) => c !== null).map((c) => c._id);
        expect(claimed.sort()).toEqual(['j0', 'j1', 'j2', 'j3', 'j4']);
        expect(await jobs.count({ state: 'ready' })).toBe(0);
      });
    });

    describe('updateAllOrNone', () => {
      interface Holder {
        readonly _id: string;
        holder: string;
      }

      it('applies every update across collections and answers true', async () => {
        const holders = await fixture.adapter.collection<Holder>(`holders${run}`);
        await holders.insertOne({ _id: 'h1', holder: 'alice' });
        const applied = await fixture.adapter.updateAllOrNone([
          { collection: `players${run}`, filter: { _id: 'p1', team: 'red' }, update: { $set: { team: 'blue' } } },
          { collection: `players${run}`, filter: { _id: 'p2' }, update: { $inc: { score: 1 } } },
          { collection: `holders${run}`, filter: { _id: 'h1' }, update: { $set: { holder: 'bob' } } },
        ]);
        expect(applied).toBe(true);
        expect((await players.findOne({ _id: 'p1' }))?.team).toBe('blue');
        expect((await players.findOne({ _id: 'p2' }))?.score).toBe(21);
        expect((await holders.findOne({ _id: 'h1' }))?.holder).toBe('bob');
      });

      it('changes nothing and answers false when one filter matches nothing, the earlier updates included', async () => {
        const applied = await fixture.adapter.updateAllOrNone([
          { collection: `players${run}`, filter: { _id: 'p1' }, update: { $set: { team: 'blue' } } },
          { collection: `players${run}`, filter: { _id: 'p2', team: 'red' }, update: { $set: { team: 'green' } } },
        ]);
        expect(applied).toBe(false);
        expect(await players.findOne({ _id: 'p1' })).toEqual(PLAYERS[0]);
        expect(await players.findOne({ _id: 'p2' })).toEqual(PLAYERS[1]);
      });

      it('answers false for a collection that was never opened', async () => {
        const applied = await fixture.adapter.updateAllOrNone([
          { collection: `players${run}`, filter: { _id: 'p1' }, update: { $set: { team: 'blue' } } },
          { collection: `unopened${run}`, filter: { _id: 'x' }, update: { $set: { a: 1 } } },
        ]);
        expect(applied).toBe(false);
        expect((await players.findOne({ _id: 'p1' }))?.team).toBe('red');
      });

      it('lets a later filter see the earlier updates', async () => {
        const applied = await fixture.adapter.updateAllOrNone([
          { collection: `players${run}`, filter: { _id: 'p4', score: 5 }, update: { $set: { score: 6 } } },
          { collection: `players${run}`, filter: { _id: 'p4', score: 6 }, update: { $set: { team: 'six' } } },
        ]);
        expect(applied).toBe(true);
        expect(await players.findOne({ _id: 'p4' })).toEqual({ ...PLAYERS[3], score: 6, team: 'six' });
      });

      it('throws DuplicateKeyError on a unique violation and changes nothing', async () => {
        await expect(
          fixture.adapter.updateAllOrNone([
            { collection: `players${run}`, filter: { _id: 'p1' }, update: { $set: { team: 'blue' } } },
            { collection: `players${run}`, filter: { _id: 'p2' }, update: { $set: { name: 'carol' } } },
          ]),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await players.findOne({ _id: 'p1' })).toEqual(PLAYERS[0]);
        expect(await players.findOne({ _id: 'p2' })).toEqual(PLAYERS[1]);
      });

      it('refuses a bad query or collection name before changing anything', async () => {
        await expect(
          fixture.adapter.updateAllOrNone([
            { collection: `players${run}`, filter: { _id: 'p1' }, update: { $set: { team: 'blue' } } },
            { collection: `players${run}`, filter: { $where: '1' } as Filter, update: { $set: { team: 'x' } } },
          ]),
        ).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(fixture.adapter.updateAllOrNone([{ collection: 'bad name; drop', filter: { _id: 'p1' }, update: { $set: { a: 1 } } }])).rejects.toBeInstanceOf(
          InvalidQueryError,
        );
        expect(await players.findOne({ _id: 'p1' })).toEqual(PLAYERS[0]);
      });

      it('answers true for no updates', async () => {
        expect(await fixture.adapter.updateAllOrNone([])).toBe(true);
      });

      it('of concurrent swaps guarding the same holder, applies exactly one whole', async () => {
        // Each call moves the red team's captaincy from alice (p1) to another player: both guard p1 still
        // being captain, so whichever applies first makes the other's first filter miss.
        await players.updateOne({ _id: 'p1' }, { $set: { tags: ['captain'], score: 100 } });
        const swapTo = (id: string) =>
          fixture.adapter.updateAllOrNone([
            { collection: `players${run}`, filter: { _id: 'p1', score: 100 }, update: { $set: { score: 0 } } },
            { collection: `players${run}`, filter: { _id: id }, update: { $set: { score: 100 } } },
          ]);
        const results = await Promise.all([swapTo('p3'), swapTo('p4'), swapTo('p5')]);
        expect(results.filter((r) => r)).toHaveLength(1);
        const winners = await players.find({ score: 100 });
        expect(winners).toHaveLength(1);
        expect(['p3', 'p4', 'p5']).toContain(winners[0]?._id);
        expect((await players.findOne({ _id: 'p1' }))?.score).toBe(0);
      });
    });

    describe('deletes', () => {
      it('deleteOne removes one match and returns 1', async () => {
        expect(await players.deleteOne({ team: 'red' })).toBe(1);
        expect(await players.count({ team: 'red' })).toBe(1);
        expect(await players.deleteOne({ team: 'none' })).toBe(0);
      });

      it('deleteMany removes every match and returns the count', async () => {
        expect(await players.deleteMany({ active: true })).toBe(3);
        expect(ids(await players.find({}))).toEqual(['p2', 'p5']);
      });

      it('a deleted unique value can be reused', async () => {
        await players.deleteOne({ name: 'alice' });
        await players.insertOne({ _id: 'p8', name: 'alice' });
        expect((await players.findOne({ name: 'alice' }))?._id).toBe('p8');
      });
    });

    describe('injection guard and validation', () => {
      const badFilters: Array<[string, unknown]> = [
        ['$where at top level', { $where: 'sleep(1000)' }],
        ['$or at top level', { $or: [{ name: 'alice' }] }],
        ['$regex operator', { name: { $regex: '.*' } }],
        ['$exists operator', { name: { $exists: true } }],
        ['$expr operator', { name: { $expr: { $eq: [1, 1] } } }],
        ['$gt with an object value', { score: { $gt: {} } }],
        ['$ne with an object value', { name: { $ne: { $gt: '' } } }],
        ['$gt with a boolean', { score: { $gt: true } }],
        ['nested object as a value', { profile: { country: 'NL' } }],
        ['array as a value', { tags: ['x'] }],
        ['dotted field name', { 'profile.country': 'NL' }],
        ['$-prefixed field name', { $name: 'alice' }],
        ['$in with a non-array', { name: { $in: 'alice' } }],
        ['$in containing an object', { name: { $in: [{ $gt: '' }] } }],
        ['empty operator object', { name: {} }],
        ['non-finite number', { score: Number.NaN }],
        ['quote in a field name', { "name')--": 'x' }],
      ];
      for (const [label, filter] of badFilters) {
        it(`refuses ${label}`, async () => {
          await expect(players.find(filter as Filter)).rejects.toBeInstanceOf(InvalidQueryError);
          await expect(players.count(filter as Filter)).rejects.toBeInstanceOf(InvalidQueryError);
          await expect(players.deleteMany(filter as Filter)).rejects.toBeInstanceOf(InvalidQueryError);
        });
      }

      it('accepts $ne: null (it is part of the subset) and matches only present values', async () => {
        expect(ids(await players.find({ name: { $ne: null } }))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
      });

      const badUpdates: Array<[string, unknown]> = [
        ['a replacement document', { name: 'x' }],
        ['an unknown operator', { $rename: { name: 'n' } }],
        ['a dotted $set path', { $set: { 'profile.country': 'DE' } }],
        ['a $-prefixed $set field', { $set: { $where: 'x' } }],
        ['a nested $-key inside a $set value', { $set: { profile: { $gt: 1 } } }],
        ['changing _id', { $set: { _id: 'other' } }],
        ['a non-numeric $inc', { $inc: { score: '1' } }],
        ['one field in two operators', { $set: { score: 1 }, $inc: { score: 1 } }],
        ['an empty update', {}],
      ];
      for (const [label, update] of badUpdates) {
        it(`refuses an update with ${label}`, async () => {
          await expect(players.updateOne({ _id: 'p1' }, update as Update)).rejects.toBeInstanceOf(InvalidQueryError);
          await expect(players.updateMany({}, update as Update)).rejects.toBeInstanceOf(InvalidQueryError);
          await expect(players.findOneAndUpdate({ _id: 'p1' }, update as Update)).rejects.toBeInstanceOf(InvalidQueryError);
        });
      }

      it('left the data untouched after refused updates', async () => {
        await expect(players.updateMany({}, { $set: { 'a.b': 1 } })).rejects.toBeInstanceOf(InvalidQueryError);
        expect(await players.findOne({ _id: 'p1' })).toEqual(PLAYERS[0]);
      });

      it('refuses dotted sort keys, bad directions and bad paging', async () => {
        await expect(players.find({}, { sort: { 'a.b': 1 } })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(players.find({}, { sort: { name: 2 as 1 } })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(players.find({}, { skip: -1 })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(players.find({}, { limit: 1.5 })).rejects.toBeInstanceOf(InvalidQueryError);
      });

      it('refuses documents with $-prefixed or dotted keys and bad collection or index names', async () => {
        await expect(players.insertOne({ _id: 'x', name: 'x', $where: 1 } as Player)).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(players.insertOne({ _id: 'y', name: 'y', 'a.b': 1 } as Player)).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(fixture.adapter.collection('bad name; drop')).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(fixture.adapter.collection(`ok${run}`, [{ fields: ['a.b'] }])).rejects.toBeInstanceOf(InvalidQueryError);
      });

      it('treats SQL/JS metacharacters in values as plain data', async () => {
        const nasty = `x' OR 1=1; DROP TABLE players; --`;
        await players.insertOne({ _id: 'p9', name: nasty });
        expect(ids(await players.find({ name: nasty }))).toEqual(['p9']);
        expect(await players.count({ name: "' OR '1'='1" })).toBe(0);
        expect(await players.count({})).toBe(6);
      });
    });
  });
}
