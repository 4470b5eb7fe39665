import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playerStoreContract } from '@skald/ports/contract/player-store.contract.ts';
import { SqlitePlayerStore, createPlayerStore } from '../src/player-store/index.ts';

playerStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-players-'));
  const adapter = await createPlayerStore({ kind: 'sqlite', file: join(dir, 'logs', 'players.db') });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// Deletions over many players run in chunks of one transaction each: chunks of 1 cross every boundary.
playerStoreContract('sqlite (maintenance chunk 1)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-players-'));
  const adapter = new SqlitePlayerStore(join(dir, 'players.db'), { maintenanceChunk: 1 });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
