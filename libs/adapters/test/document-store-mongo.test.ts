import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { documentStoreContract } from '@skald/ports/contract/document-store.contract.ts';
import { createDocumentStore } from '../src/document-store/index.ts';
import { mongoForTests } from './document-store-mongo-fixture.ts';

const mongo = await mongoForTests();

if (mongo === null) {
  console.log('skipped: no container runtime (MongoDB document store contract; set MONGO_URL to run it)');
  describe.skip('DocumentStore contract: mongo (skipped: no container runtime)', () => {
    it('needs MONGO_URL or a container runtime', () => undefined);
  });
} else {
  const url = mongo.url;
  documentStoreContract('mongo', async () => {
    // A fresh database per test keeps tests independent; it is dropped afterwards.
    const database = `skald_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const adapter = await createDocumentStore({ kind: 'mongo', url, database });
    return {
      adapter,
      cleanup: async () => {
        await adapter.close();
        const client = new MongoClient(url);
        await client.db(database).dropDatabase();
        await client.close();
      },
    };
  });
  describe('mongo container teardown', () => {
    it('stops the container after the suite', async () => {
      await mongo.stop();
    });
  });
}

// Runs without MongoDB: the filter handed to the driver is rebuilt from validated conditions only.
describe('MongoDB filter translation (no server needed)', () => {
  it('rebuilds every allowed operator as an explicit operator object', async () => {
    const { mongoFilter } = await import('../src/document-store/mongo-document-store.ts');
    const { validateFilter } = await import('../src/document-store/query-validation.ts');
    const filter = mongoFilter(validateFilter({ name: 'a', team: null, score: { $gt: 1, $lte: 9 }, tag: { $in: ['x', null] }, on: { $ne: true } }));
    expect(filter).toEqual({
      name: { $eq: 'a' },
      team: { $eq: null },
      score: { $gt: 1, $lte: 9 },
      tag: { $in: ['x', null] },
      on: { $ne: true },
    });
  });
});
