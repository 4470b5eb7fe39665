/**
 * Player store factory: SQLite (embedded, DATA_DIR/logs/players.db) or MongoDB (the logs database).
 * Design: docs/PLAYERS.md.
 */
import type { PlayerStore } from '@skald/ports';
import { SqlitePlayerStore } from './sqlite-player-store.ts';

/** `logFile`: the embedded log store's file beside it, which the queue's keys are read back from (SqlitePlayerStoreOptions). */
export type PlayerStoreConfig = { kind: 'sqlite'; file: string; logFile?: string } | { kind: 'mongo'; url: string; database: string };

export async function createPlayerStore(config: PlayerStoreConfig): Promise<PlayerStore> {
  switch (config.kind) {
    case 'sqlite':
      return new SqlitePlayerStore(config.file, config.logFile === undefined ? {} : { logFile: config.logFile });
    case 'mongo': {
      const { MongoPlayerStore } = await import('./mongo-player-store.ts');
      const store = new MongoPlayerStore(config.url, config.database);
      await store.ensureIndexes();
      return store;
    }
  }
}

export { SqlitePlayerStore } from './sqlite-player-store.ts';
// Type only: a value re-export would load the MongoDB driver in every process.
export type { MongoPlayerStore } from './mongo-player-store.ts';
