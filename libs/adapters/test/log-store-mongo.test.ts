import { logStoreContract } from '@skald/ports/contract/log-store.contract.ts';
import { createLogStore } from '../src/log-store/index.ts';
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
});
