/**
 * Log store factory: SQLite (embedded, DATA_DIR/logs/logs.db) or MongoDB. Both keep rollups on write.
 * Design and measured figures: docs/DOCUMENT_STORE.md, section "Log store".
 */
import type { LogStore } from '@skald/ports';
import { SqliteLogStore } from './sqlite-log-store.ts';

export type LogStoreConfig =
  /**
   * layout: compressed blocks (BlockLogStore, docs/STORAGE.md; the product's default, LOG_LAYOUT) or rows with
   * a trigram index (SqliteLogStore). Named by every caller: a test or benchmark of one layout says which.
   */
  | { kind: 'sqlite'; file: string; countCap?: number; layout: 'rows' | 'blocks' }
  | { kind: 'mongo'; url: string; database: string; countCap?: number };

export async function createLogStore(config: LogStoreConfig): Promise<LogStore> {
  switch (config.kind) {
    case 'sqlite':
      if (config.layout === 'blocks') {
        const { BlockLogStore } = await import('./block-log-store.ts');
        return new BlockLogStore(config.file, config.countCap === undefined ? {} : { countCap: config.countCap });
      }
      return new SqliteLogStore(config.file, config.countCap === undefined ? {} : { countCap: config.countCap });
    case 'mongo': {
      const { MongoLogStore } = await import('./mongo-log-store.ts');
      const store = new MongoLogStore(config.url, config.database, config.countCap === undefined ? {} : { countCap: config.countCap });
      await store.ensureIndexes();
      return store;
    }
  }
}

export { SqliteLogStore } from './sqlite-log-store.ts';
export { BlockLogStore } from './block-log-store.ts';
// Type only: a value re-export loaded the MongoDB driver (~130 modules) in every process (idle RSS).
export type { MongoLogStore } from './mongo-log-store.ts';
