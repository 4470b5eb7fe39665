import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logStoreContract } from '@skald/ports/contract/log-store.contract.ts';
import { BlockLogStore } from '../src/log-store/index.ts';
import type { BlockLogStoreOptions } from '../src/log-store/block-log-store.ts';

function blockStore(options: BlockLogStoreOptions) {
  return async (fixtureOptions: { countCap?: number } = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const adapter = new BlockLogStore(join(dir, 'logs.db'), { walCheckpointer: null, ...options, ...fixtureOptions });
    return {
      adapter,
      cleanup: async () => {
        await adapter.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

// Every log in the tail (blocks of 4,096 rows are never filled here).
logStoreContract('sqlite blocks (tail only)', blockStore({}));
// Blocks of 2 rows sealed before insertBatch returns: nearly every log is in a block, read, rewritten and dropped by every path.
logStoreContract('sqlite blocks (blocks of 2)', blockStore({ blockRows: 2, sealEagerly: true }));
