import { describe, expect, it } from 'vitest';
import { documentStoreContract } from '@skald/ports/contract/document-store.contract.ts';
import { createDocumentStore } from '../src/document-store/index.ts';
import { describeWithMongo, freshMongoDatabase } from './document-store-mongo-fixture.ts';

await describeWithMongo('DocumentStore contract: mongo', (url) => {
  documentStoreContract('mongo', async () => {
    const db = freshMongoDatabase(url, 'skald_test_');
    const adapter = await createDocumentStore({ kind: 'mongo', url, database: db.database });
    return {
      adapter,
      cleanup: async () => {
        await adapter.close();
        await db.drop();
      },
    };
  });
});

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
