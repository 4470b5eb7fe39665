import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '@skald/ports';
import { logStoreContract } from '@skald/ports/contract/log-store.contract.ts';
import { SqliteLogStore, createLogStore } from '../src/log-store/index.ts';
import { SCHEMA_VERSION } from '../src/log-store/sqlite-log-schema.ts';
import { ingestUntilKilled, integrityCheck } from './fixtures/crash-writer.ts';

logStoreContract('sqlite', async (options = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
  const adapter = await createLogStore({ kind: 'sqlite', file: join(dir, 'logs', 'logs.db'), layout: 'rows', ...options });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// The same contract with tiny delete chunks, so every delete path crosses chunk boundaries.
// Every row indexed before insertBatch returns: each search of 3+ characters reads the FTS index.
logStoreContract('sqlite (search index built eagerly)', async (options = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
  const adapter = new SqliteLogStore(join(dir, 'logs.db'), { searchIndex: 'eager', ...options });
  return {
    adapter,
    cleanup: async () => {
      await adapter.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

logStoreContract('sqlite (delete chunk size 3)', async (options = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
  const adapter = new SqliteLogStore(join(dir, 'logs.db'), { deleteChunkSize: 3, ...options });
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

  it('walks the neighbours of a log by a seek on the clustered key both ways, never a sort', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const store = new SqliteLogStore(join(dir, 'logs.db'));
      await store.insertBatch([...Array.from({ length: 200 }, (_, i) => textLog(i, 's1', i % 2 === 0 ? 'error' : 'info')), { ...textLog(500, 's1', 'info'), logType: 'photo', imageKey: 'i', thumbKey: 't' }]);
      for (const direction of ['older', 'newer'] as const) {
        const plan = store.explainNeighbours('s1', direction);
        expect(plan, direction).toContain(`USING PRIMARY KEY (server_key=? AND (created_at,id)${direction === 'older' ? '<' : '>'}(?,?))`);
        expect(plan, direction).not.toContain('TEMP B-TREE');
      }
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves no WAL behind at close, even while another connection keeps the file open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const file = join(dir, 'logs.db');
      const store = new SqliteLogStore(file, { walCheckpointer: null });
      // A reader elsewhere in the process: the store's close is then not the last one, which would delete the WAL.
      const other = new DatabaseSync(file);
      other.prepare('SELECT count(*) FROM sqlite_master').get();
      await store.insertBatch(Array.from({ length: 2000 }, (_, i) => ({ ...textLog(i, 's1', 'info'), message: `hello ${'x'.repeat(400)} ${i}` })));
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(500_000);
      await store.close();
      expect(statSync(`${file}-wal`).size).toBe(0);
      expect(Number(other.prepare('SELECT count(*) AS n FROM logs').get()?.['n'])).toBe(2000);
      other.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // timeout: SIGKILLs a writer during ingest, indexing and WAL resets, then reopens the store
  it('loses no acknowledged log and stays readable after a SIGKILL during ingest, indexing and WAL resets', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-crash-'));
    try {
      const file = join(dir, 'logs.db');
      let walPeak = 0;
      let resets = 0;
      let killAt = 0;
      const killed = await ingestUntilKilled(file, 'rows', (acked) => {
        const wal = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
        // A WAL that shrank was reset (truncated) by a checkpoint: kill a few batches after the second one.
        if (wal < walPeak / 2) resets += 1;
        walPeak = wal < walPeak / 2 ? wal : Math.max(walPeak, wal);
        if (resets >= 2 && killAt === 0) killAt = acked + 1_000;
        // The cap only bounds the disk a run can use (~400 B a log): resets come slower than logs when the
        // checkpointer gets little CPU on a loaded machine (one reset in 200,000 logs was seen), so it is far.
        return (killAt > 0 && acked >= killAt) || acked >= 1_500_000;
      });
      expect(killed.signal).toBe('SIGKILL');
      expect(resets, 'the WAL was reset during the run').toBeGreaterThanOrEqual(2);
      const ackedAtKill = killed.acked;
      const reopened = new SqliteLogStore(file, { searchIndex: 'eager' });
      const stored = await reopened.count('srv-crash');
      expect(stored).toBeGreaterThanOrEqual(ackedAtKill);
      // Every acknowledged id is there (the last page of them read back by keys), and searches answer.
      const last = await reopened.getByKeys('srv-crash', [{ id: `log-${String(ackedAtKill - 1).padStart(8, '0')}`, createdAt: 1_750_000_000_000 + ackedAtKill - 1 }]);
      expect(last).toHaveLength(1);
      reopened.indexPending();
      const found = await reopened.query({ serverId: 'srv-crash', search: 'player 42 joined', level: 'error', offset: 0, limit: 5 });
      expect(found.items.length).toBeGreaterThan(0);
      await reopened.close();
      expect(integrityCheck(file)).toBe('ok');
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

  it('caps the total of a search query at countCap while the page stays exact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const store = new SqliteLogStore(join(dir, 'logs.db'), { countCap: 25 });
      await store.insertBatch(Array.from({ length: 60 }, (_, i) => textLog(i, 's1', 'info')));
      const page = await store.query({ serverId: 's1', search: 'hello', offset: 0, limit: 10 });
      expect(page.items).toHaveLength(10);
      expect(page.items[0]?.id).toBe('id-s1-59');
      expect(page.total).toBe(25);
      expect(page.totalCapped).toBe(true);
      expect((await store.query({ serverId: 's1', search: 'hello 5', offset: 0, limit: 50 })).total).toBe(11);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('upgrades a file of the first layout (rowid table with seq) in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const file = join(dir, 'logs.db');
      // The first layout, as released before the clustered table: rows, rollups and server keys.
      const v1 = new DatabaseSync(file);
      v1.exec(`
        CREATE TABLE servers (key INTEGER PRIMARY KEY, server_id TEXT NOT NULL UNIQUE);
        CREATE TABLE logs (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, server_key INTEGER NOT NULL, created_at INTEGER NOT NULL,
          level TEXT NOT NULL COLLATE NOCASE, type TEXT NOT NULL COLLATE NOCASE, resource TEXT NOT NULL COLLATE NOCASE,
          message TEXT NOT NULL, metadata TEXT, log_type TEXT NOT NULL, image_key TEXT, thumb_key TEXT, expires_at INTEGER NOT NULL);
        CREATE UNIQUE INDEX logs_id ON logs (id);
        CREATE INDEX logs_server_time ON logs (server_key, created_at, id);
        CREATE INDEX logs_server_level ON logs (server_key, level, created_at);
        CREATE INDEX logs_server_type ON logs (server_key, type, created_at);
        CREATE TABLE rollup_day (server_key INTEGER NOT NULL, day INTEGER NOT NULL, log_type TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (server_key, day, log_type)) WITHOUT ROWID;
        CREATE TABLE rollup_dim (server_key INTEGER NOT NULL, dim INTEGER NOT NULL, value TEXT NOT NULL COLLATE NOCASE, log_type TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (server_key, dim, value, log_type)) WITHOUT ROWID;
        INSERT INTO servers VALUES (1, 's1');
        INSERT INTO logs VALUES (1, 'id-a', 1, ${T0}, 'info', 'General', 'core', 'hello a', '{"i":1}', 'text', NULL, NULL, ${T0 + 1000});
        INSERT INTO logs VALUES (2, 'id-b', 1, ${T0 + 5}, 'warn', 'General', 'core', 'hello b', NULL, 'photo', 'img', 'thumb', ${T0 + 1000});
        INSERT INTO rollup_day VALUES (1, ${T0 / 86_400_000}, 'text', 1), (1, ${T0 / 86_400_000}, 'photo', 1);
        INSERT INTO rollup_dim VALUES (1, 0, 'info', 'text', 1), (1, 0, 'warn', 'photo', 1), (1, 1, 'General', 'text', 1), (1, 1, 'General', 'photo', 1),
          (1, 2, 'core', 'text', 1), (1, 2, 'core', 'photo', 1);
      `);
      v1.close();
      const store = new SqliteLogStore(file);
      const page = await store.query({ serverId: 's1', offset: 0, limit: 10 });
      expect(page.items.map((r) => [r.id, r.metadata, r.logType, r.imageKey])).toEqual([
        ['id-b', null, 'photo', 'img'],
        ['id-a', { i: 1 }, 'text', null],
      ]);
      expect(page.total).toBe(2);
      expect((await store.query({ serverId: 's1', level: 'WARN', offset: 0, limit: 10 })).items.map((r) => r.id)).toEqual(['id-b']);
      expect(await store.insertBatch([{ ...textLog(0, 's1', 'info'), id: 'id-a', metadata: { i: 1 }, message: 'hello a' }])).toEqual({ inserted: 0 });
      expect(await store.insertBatch([textLog(9, 's1', 'info')])).toEqual({ inserted: 1 });
      expect(await store.count('s1')).toBe(3);
      expect((await store.deleteOldest('s1', 'photo', 0)).objectKeys.sort()).toEqual(['img', 'thumb']);
      await store.close();
      // Reopening does not migrate again and the old table and indexes are gone.
      const check = new DatabaseSync(file);
      const names = check.prepare("SELECT name FROM sqlite_schema WHERE tbl_name = 'logs' ORDER BY name").all().map((r) => r['name']);
      expect(names).toEqual(['logs', 'logs_fts_rowid', 'logs_server_level', 'logs_server_photo']);
      check.close();
      const reopened = new SqliteLogStore(file);
      expect(await reopened.count('s1')).toBe(2);
      // Migrated rollups start with min_expires 0: the sweep visits the day and deletes exactly the expired rows.
      expect((await reopened.deleteExpired(T0 + 1000)).deletedCount).toBe(1);
      expect(await reopened.count('s1')).toBe(1);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('upgrades a layout-4 file (the data folder before the arrival column) in place: old rows read as received when they happened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const file = join(dir, 'logs.db');
      const before = new SqliteLogStore(file, { searchIndex: 'eager' });
      const old = Array.from({ length: 30 }, (_, i) => ({ ...textLog(i, 's1', i % 3 === 0 ? 'error' : 'info'), message: `old sword ${i}` }));
      await before.insertBatch(old);
      await before.close();
      // Layout 4 exactly: this layout without the received_at column, user_version 4.
      const raw = new DatabaseSync(file);
      raw.exec('ALTER TABLE logs DROP COLUMN received_at; PRAGMA user_version = 4;');
      raw.close();

      const store = new SqliteLogStore(file, { searchIndex: 'eager' });
      const check = new DatabaseSync(file);
      expect(Number(check.prepare('PRAGMA user_version').get()?.['user_version'])).toBe(SCHEMA_VERSION);
      expect(check.prepare("SELECT count(*) AS n FROM pragma_table_info('logs') WHERE name = 'received_at'").get()?.['n']).toBe(1);
      // The migration wrote no row: every existing row reads NULL, i.e. received at its createdAt.
      expect(check.prepare('SELECT count(*) AS n FROM logs WHERE received_at IS NOT NULL').get()?.['n']).toBe(0);
      check.close();
      const page = await store.query({ serverId: 's1', offset: 0, limit: 50 });
      expect(page.items).toEqual([...old].reverse());
      expect(page.items.every((r) => !('receivedAt' in r))).toBe(true);
      const found = await store.query({ serverId: 's1', search: 'sword', level: 'error', offset: 0, limit: 3 });
      expect(found.items.map((r) => r.id)).toEqual([old[27]!.id, old[24]!.id, old[21]!.id]);
      expect(found.total).toBe(10);
      // New logs carry their arrival beside their own time, and sort among the old by their own time.
      const backdated = { ...textLog(1000, 's1', 'warn'), createdAt: T0 + 10, receivedAt: T0 + 5000 };
      expect(await store.insertBatch([backdated])).toEqual({ inserted: 1 });
      const around = await store.query({ serverId: 's1', from: T0 + 9, to: T0 + 11, offset: 0, limit: 5 });
      expect(around.items.map((r) => r.id)).toEqual([old[11]!.id, backdated.id, old[10]!.id, old[9]!.id]);
      expect(around.items.find((r) => r.id === backdated.id)).toEqual(backdated);
      expect(await store.count('s1')).toBe(31);
      await store.close();
      // Reopening migrates nothing again.
      const reopened = new SqliteLogStore(file);
      expect(await reopened.count('s1')).toBe(31);
      expect((await reopened.query({ serverId: 's1', level: 'warn', offset: 0, limit: 5 })).items).toEqual([backdated]);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('treats a record as stored when server, createdAt and id all match (the clustered key)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const store = new SqliteLogStore(join(dir, 'logs.db'));
      const first = textLog(1, 's1', 'info');
      expect(await store.insertBatch([first])).toEqual({ inserted: 1 });
      // A real redelivery repeats the triple, whatever else differs (e.g. expiry after a tier change).
      expect(await store.insertBatch([{ ...first, expiresAt: first.expiresAt + 5 }])).toEqual({ inserted: 0 });
      // Documented limit: the same id under another createdAt is another row (ingestion never does this).
      expect(await store.insertBatch([{ ...first, createdAt: first.createdAt + 1 }])).toEqual({ inserted: 1 });
      // A batch mixing stored and new rows in one 100-row chunk takes the per-row path and counts exactly.
      const mixed = Array.from({ length: 120 }, (_, i) => textLog(100 + i, 's1', i % 2 === 0 ? 'warn' : 'error'));
      expect(await store.insertBatch(mixed.slice(0, 30))).toEqual({ inserted: 30 });
      expect(await store.insertBatch([...mixed, mixed[70]!])).toEqual({ inserted: 90 });
      expect(await store.count('s1')).toBe(122);
      const stats = await store.stats('s1', { fromDay: '2025-03-10', toDay: '2025-03-10' });
      expect(stats.perLevel).toEqual({ info: { text: 2, photo: 0 }, warn: { text: 60, photo: 0 }, error: { text: 60, photo: 0 } });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('deleteExpired finds expired rows by the rollups and leaves unexpired rows of the same day', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-logs-'));
    try {
      const store = new SqliteLogStore(join(dir, 'logs.db'), { deleteChunkSize: 3 });
      // One day of one server, two retention periods interleaved (a tier change), several rows per millisecond.
      const logs = Array.from({ length: 20 }, (_, i) => ({ ...textLog(10 + Math.floor(i / 4), 's1', 'info'), id: `id-${i}`, expiresAt: T0 + (i % 2 === 0 ? 100 : 200) }));
      await store.insertBatch(logs);
      expect((await store.deleteExpired(T0 + 99)).deletedCount).toBe(0);
      expect((await store.deleteExpired(T0 + 100)).deletedCount).toBe(10);
      expect((await store.query({ serverId: 's1', offset: 0, limit: 50 })).items.map((r) => r.expiresAt)).toEqual(new Array(10).fill(T0 + 200));
      expect((await store.deleteExpired(T0 + 150)).deletedCount).toBe(0);
      // deleteBefore leaves the bound low (conservative); the sweep still deletes only what expired.
      await store.insertBatch([{ ...textLog(1, 's1', 'warn'), expiresAt: T0 + 50 }]);
      expect((await store.deleteBefore('s1', T0 + 2)).deletedCount).toBe(1);
      expect((await store.deleteExpired(T0 + 199)).deletedCount).toBe(0);
      const result = await store.deleteExpired(T0 + 200);
      expect(result.deletedCount).toBe(10);
      expect(await store.count('s1')).toBe(0);
      expect(await store.facets('s1')).toEqual({ levels: [], types: [], resources: [] });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
