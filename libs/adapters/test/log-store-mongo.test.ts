import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { logStoreContract } from '@skald/ports/contract/log-store.contract.ts';
import { createLogStore } from '../src/log-store/index.ts';
import { mongoForTests } from './document-store-mongo-fixture.ts';

const mongo = await mongoForTests();

if (mongo === null) {
  console.log('skipped: no container runtime (MongoDB log store contract; set MONGO_URL to run it)');
  describe.skip('LogStore contract: mongo (skipped: no container runtime)', () => {
    it('needs MONGO_URL or a container runtime', () => undefined);
  });
} else {
  const url = mongo.url;
  logStoreContract('mongo', async () => {
    const database = `skald_logs_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const adapter = await createLogStore({ kind: 'mongo', url, database });
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
