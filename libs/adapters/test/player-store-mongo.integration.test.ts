import { playerStoreContract } from '@skald/ports/contract/player-store.contract.ts';
import { createPlayerStore } from '../src/player-store/index.ts';
import { describeWithMongo, freshMongoDatabase } from './document-store-mongo-fixture.ts';

await describeWithMongo('PlayerStore contract: mongo', (url) => {
  playerStoreContract('mongo', async () => {
    const db = freshMongoDatabase(url, 'skald_players_test_');
    const adapter = await createPlayerStore({ kind: 'mongo', url, database: db.database });
    return {
      adapter,
      cleanup: async () => {
        await adapter.close();
        await db.drop();
      },
    };
  });
});
