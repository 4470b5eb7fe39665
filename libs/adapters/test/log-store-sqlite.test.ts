import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '@skald/ports';
import { logStoreContract } from '@skald/ports/contract/log-store.contract.ts';
import { SqliteLogStore, createLogStore } from '../src/log-store/index.ts';

logStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
  const adapter = await createLogStore({ kind: 'sqlite', file: join(dir, 'logs', 'logs.db') });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// The same contract with tiny delete chunks, so every delete path crosses chunk boundaries.
logStoreContract('sqlite (delete chunk size 3)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
  const adapter = new SqliteLogStore(join(dir, 'logs.db'), { deleteChunkSize: 3 });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const T0 = Date.UTC(2025, 2, 10);
function textLog(i: number, serverId: string, level: string): LogRecord {
  return {
    id: `id-${serverId}-${i}`,
    serverId,
    createdAt: T0 + i,
    level,
    type: 'General',
    resource: 'core',
    message: `hello ${i}`,
    metadata: { i },
    logType: 'text',
    imageKey: null,
    thumbKey: null,
    expiresAt: T0 + 1_000_000,
  };
}

describe('SQLite log store specifics', () => {
  it('serves each page shape from the narrowest index, without a full sort', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const store = new SqliteLogStore(join(dir, 'logs.db'));
      const logs = Array.from({ length: 400 }, (_, i) => textLog(i, 's1', i % 40 === 0 ? 'error' : 'info'));
      logs.push({ ...textLog(1000, 's1', 'info'), type: 'Rare' }, { ...textLog(1001, 's1', 'info'), logType: 'photo', imageKey: 'i', thumbKey: 't' });
      await store.insertBatch(logs);
      const base = { serverId: 's1', offset: 0, limit: 50 };
      const shapes = [
        { query: base, path: 'USING PRIMARY KEY (server_key=?)' },
        { query: { ...base, level: 'error' }, path: 'logs_server_level' },
        // type/resource have no index of their own: the clustered key, newest first, filters per row.
        { query: { ...base, type: 'rare', resource: 'core' }, path: 'USING PRIMARY KEY (server_key=?)' },
        { query: { ...base, level: 'error', type: 'rare' }, path: 'logs_server_level' },
        { query: { ...base, logType: 'photo' as const }, path: 'logs_server_photo' },
        // photo logs (1) are fewer than level=info ones (391): the photo index wins.
        { query: { ...base, logType: 'photo' as const, level: 'info' }, path: 'logs_server_photo' },
        { query: { ...base, logType: 'text' as const }, path: 'USING PRIMARY KEY (server_key=?)' },
        { query: { ...base, search: 'hello' }, path: 'USING PRIMARY KEY (server_key=?)' },
        { query: { ...base, type: 'General', from: T0, to: T0 + 10 }, path: 'USING PRIMARY KEY (server_key=? AND created_at>? AND created_at<?)' },
      ];
      for (const { query, path } of shapes) {
        const plan = store.explainQuery(query);
        expect(plan, JSON.stringify(query)).toContain(path);
        expect(plan, JSON.stringify(query)).not.toContain('TEMP B-TREE');
      }
      expect(store.explainQuery({ ...base, level: 'info', from: T0, to: T0 + 10 })).toMatch(/logs_server_level \(server_key=\? AND level=\? AND created_at>\? AND created_at<\?\)/);
      expect((await store.query({ ...base, level: 'error', type: 'rare' })).total).toBe(0);
      expect((await store.query({ ...base, type: 'RARE' })).items.map((r) => r.id)).toEqual(['id-s1-1000']);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps logs and rollups across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const file = join(dir, 'logs.db');
      const first = new SqliteLogStore(file);
      await first.insertBatch([textLog(1, 's1', 'info'), textLog(2, 's1', 'warn')]);
      await first.close();
      const second = new SqliteLogStore(file);
      expect(await second.count('s1')).toBe(2);
      expect((await second.query({ serverId: 's1', level: 'WARN', offset: 0, limit: 5 })).total).toBe(1);
      expect(await second.insertBatch([textLog(1, 's1', 'info')])).toEqual({ inserted: 0 });
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rolls back a batch that contains an invalid record, leaving rollups untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const store = new SqliteLogStore(join(dir, 'logs.db'));
      const bad = { ...textLog(2, 's1', 'info'), logType: 'video' } as unknown as LogRecord; // deliberately invalid input
      await expect(store.insertBatch([textLog(1, 's1', 'info'), bad])).rejects.toThrow();
      expect(await store.count('s1')).toBe(0);
      expect((await store.query({ serverId: 's1', offset: 0, limit: 5 })).items).toEqual([]);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('caps the total of a search query at searchCountCap while the page stays exact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const store = new SqliteLogStore(join(dir, 'logs.db'), { searchCountCap: 25 });
      await store.insertBatch(Array.from({ length: 60 }, (_, i) => textLog(i, 's1', 'info')));
      const page = await store.query({ serverId: 's1', search: 'hello', offset: 0, limit: 10 });
      expect(page.items).toHaveLength(10);
      expect(page.items[0]?.id).toBe('id-s1-59');
      expect(page.total).toBe(25);
      expect((await store.query({ serverId: 's1', search: 'hello 5', offset: 0, limit: 50 })).total).toBe(11);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
