import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { logStoreContract } from '@skald/ports/contract/log-store.contract.ts';
import { createLogStore } from '../src/log-store/index.ts';
import { ZSTD_BLOCKS } from '../src/log-store/mongo-log-store.ts';
import { describeWithMongo, freshMongoDatabase } from './document-store-mongo-fixture.ts';

await describeWithMongo('LogStore contract: mongo', (url) => {
  logStoreContract('mongo', async (options = {}) => {
    const db = freshMongoDatabase(url, 'skald_logs_test_');
    const adapter = await createLogStore({ kind: 'mongo', url, database: db.database, ...options });
    return {
      adapter,
      cleanup: async () => {
        await adapter.close();
        await db.drop();
      },
    };
  });

  describe('MongoDB log store specifics', () => {
    it('creates its collections with zstd-compressed blocks', async () => {
      const db = freshMongoDatabase(url, 'skald_logs_zstd_');
      const adapter = await createLogStore({ kind: 'mongo', url, database: db.database });
      const client = new MongoClient(url);
      try {
        const collections = await client.db(db.database).listCollections({}, { nameOnly: false }).toArray();
        for (const name of ['logs', 'log_rollup_days', 'log_rollup_dims']) {
          const found = collections.find((c) => c.name === name);
          const options = (found !== undefined && 'options' in found ? found.options : undefined) as { storageEngine?: { wiredTiger?: { configString?: string } } } | undefined;
          expect(options?.storageEngine?.wiredTiger?.configString, name).toBe(ZSTD_BLOCKS);
        }
      } finally {
        await client.close();
        await adapter.close();
        await db.drop();
      }
    });
  });
});
