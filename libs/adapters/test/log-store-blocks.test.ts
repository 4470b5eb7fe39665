import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { LogQuery, LogRecord, LogStore } from '@skald/ports';
import { logStoreContract } from '@skald/ports/contract/log-store.contract.ts';
import { BlockLogStore, SqliteLogStore, createLogStore } from '../src/log-store/index.ts';
import { generatedLogs } from './fixtures/generated-logs.ts';
import { TokenDictionary } from '../src/log-store/block-token-dictionary.ts';
import type { BlockLogStoreOptions } from '../src/log-store/block-log-store.ts';
import { BLOCK_SCHEMA_VERSION } from '../src/log-store/block-store-schema.ts';
import { encodePartDictionary } from '../src/log-store/block-part-dictionary.ts';

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

// Every log in the tail (blocks of 4,096 rows are never filled here), and left there at close: sealing the tails
// at close would start seal workers after each test's assertions, two thirds of this suite's CPU for nothing it
// checks (the seal at close has tests of its own in log-store-blocks-sealing.test.ts).
logStoreContract('sqlite blocks (tail only)', blockStore({ closeSealMs: 0 }));
// Blocks of 2 rows sealed before insertBatch returns: nearly every log is in a block, read, rewritten and dropped by every path.
// Sealed on the store's thread: a seal worker computes the very same block (log-store-blocks-sealing.test.ts), and a
// worker's round trip per 2-row block made these runs 2.5 times the CPU.
logStoreContract('sqlite blocks (blocks of 2)', blockStore({ blockRows: 2, sealEagerly: true, sealThreads: 0 }));
// The same with each block's text in groups of one row, compressed with the stream's dictionary.
logStoreContract('sqlite blocks (blocks of 2, text in groups of 1)', blockStore({ blockRows: 2, textGroupRows: 1, sealEagerly: true, sealThreads: 0 }));

// The stores below seal on the test's thread (sealThreads: 0): a seal worker computes the very same block
// (log-store-blocks-sealing.test.ts), and starting two per store, each compiling its modules, was most of this
// file's CPU. The test of sealing on age keeps the workers.
function storeOnThread(file: string, options: BlockLogStoreOptions = {}): BlockLogStore {
  return new BlockLogStore(file, { walCheckpointer: null, sealThreads: 0, ...options });
}

describe('block log store: layout and migration', () => {
  const T0 = Date.UTC(2025, 4, 1);

  async function answers(store: LogStore): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const query of [{}, { search: 'vercetti' }, { search: 'killed by', level: 'warn' }, { type: 'chat', offset: 40 }, { logType: 'photo' as const }, { search: 'a' }]) {
      out.push(await store.query({ serverId: 'srv', offset: 0, limit: 60, ...query }));
    }
    out.push(await store.stats('srv', { fromDay: '2025-05-01', toDay: '2025-05-31' }), await store.facets('srv'));
    return out;
  }

  it('keeps each log in the tail or in one block: full blocks sealed, the rest in the tail, all of it sealed on demand', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const store = storeOnThread(join(dir, 'logs.db'), { blockRows: 100, sealEagerly: true });
    try {
      const logs = generatedLogs('srv', 1000, T0, 1);
      await store.insertBatch(logs);
      const sealed = store.layout();
      expect(sealed.blocks).toBeGreaterThan(3);
      expect(sealed.blockRows % 100).toBe(0);
      expect(sealed.tailRows + sealed.blockRows).toBe(1000);
      await store.sealAll();
      expect(store.layout()).toMatchObject({ tailRows: 0, blockRows: 1000 });
      expect((await store.query({ serverId: 'srv', offset: 0, limit: 1000 })).items).toHaveLength(1000);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('seals a stream whose oldest row has waited long enough, full or not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const store = new BlockLogStore(join(dir, 'logs.db'), { walCheckpointer: null, sealAfterMs: 0, sealCheckMs: 5 });
    try {
      await store.insertBatch(generatedLogs('srv', 50, T0, 2));
      // The first seal starts the seal thread: seconds on a loaded machine.
      await vi.waitFor(() => expect(store.layout()).toMatchObject({ tailRows: 0, blockRows: 50 }), { timeout: 20_000 });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rewrites a block of more rows than a slice without its expired rows: the others kept whole, the block rewritten once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const store = storeOnThread(join(dir, 'logs.db'), { blockRows: 2000, sealEagerly: true });
    try {
      // One stream, so one block of 2,000 rows; expiry in row order, as retention meets a busy stream's block.
      const logs = generatedLogs('srv', 2000, T0, 7).map((r, i) => ({ ...r, level: 'info', expiresAt: T0 + 1_000_000 + i }));
      await store.insertBatch(logs);
      expect(store.layout()).toMatchObject({ blocks: 1, blockRows: 2000, tailRows: 0 });
      const now = T0 + 1_000_000 + 1300;
      expect((await store.deleteExpired(now)).deletedCount).toBe(1301);
      expect(store.layout()).toMatchObject({ blocks: 1, blockRows: 699, tailRows: 0 });
      const kept = logs.filter((r) => r.expiresAt > now);
      const byId = (a: LogRecord, b: LogRecord): number => a.id.localeCompare(b.id);
      const page = await store.query({ serverId: 'srv', offset: 0, limit: 2000 });
      expect(page.total).toBe(699);
      expect([...page.items].sort(byId)).toEqual([...kept].sort(byId));
      expect(await store.count('srv')).toBe(699);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrates a row-store file in place on open: readable throughout, the same answers, every log in blocks at the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const file = join(dir, 'logs', 'logs.db');
    const logs = generatedLogs('srv', 3000, T0, 3);
    const rows = new SqliteLogStore(file, { searchIndex: 'eager', walCheckpointer: null, countCap: 10_000 });
    for (let i = 0; i < logs.length; i += 500) await rows.insertBatch(logs.slice(i, i + 500));
    const expected = await answers(rows);
    await rows.close();
    const store = await createLogStore({ kind: 'sqlite', file, layout: 'blocks' });
    expect(store).toBeInstanceOf(BlockLogStore);
    const blocks = store as BlockLogStore;
    try {
      expect(blocks.layout()).toMatchObject({ rowTableRows: 3000, blocks: 0 });
      expect(await answers(blocks)).toEqual(expected);
      await blocks.migrated();
      expect(blocks.layout()).toMatchObject({ rowTableRows: 0, blockRows: 3000, tailRows: 0 });
      expect(await answers(blocks)).toEqual(expected);
      expect(await blocks.insertBatch(logs.slice(0, 10))).toEqual({ inserted: 0 });
    } finally {
      await blocks.close();
    }
    const db = new DatabaseSync(file);
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r['name']);
      expect(tables).not.toContain('logs');
      expect(tables).not.toContain('logs_fts');
      expect(db.prepare('PRAGMA integrity_check').get()?.['integrity_check']).toBe('ok');
    } finally {
      db.close();
    }
    const reopened = new BlockLogStore(file, { walCheckpointer: null });
    try {
      expect(await answers(reopened)).toEqual(expected);
    } finally {
      await reopened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the same while a migration is half done', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const file = join(dir, 'logs.db');
    const logs = generatedLogs('srv', 2000, T0, 4);
    const rows = new SqliteLogStore(file, { searchIndex: 'off', walCheckpointer: null, countCap: 10_000 });
    await rows.insertBatch(logs);
    const expected = await answers(rows);
    await rows.close();
    const store = storeOnThread(file, { blockRows: 50 });
    try {
      await vi.waitFor(() => {
        const layout = store.layout();
        expect(layout.blocks).toBeGreaterThan(0);
        expect(layout.rowTableRows).toBeGreaterThan(0);
      }, { interval: 0 });
      expect(await answers(store)).toEqual(expected);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('merges parts into higher tiers and asks them before the block dictionaries: a needle no log holds reads only the blocks in no part', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const file = join(dir, 'logs.db');
    // The tails stay unsealed at close: a block sealed then would be in no part until the reopened store builds one.
    const store = storeOnThread(file, { blockRows: 25, partFanout: 2, sealEagerly: true, closeSealMs: 0 });
    await store.insertBatch(generatedLogs('srv', 1500, T0, 5));
    const layout = store.layout();
    await store.close();
    // Fanout 2: tier-0 parts of 2 blocks, tier 1 of 4, tier 2 of 8; the info stream (half the logs) has 30 blocks.
    expect(layout.parts[2]).toBeGreaterThan(2);
    expect(layout.blocks).toBeGreaterThan(50);
    const reopened = storeOnThread(file, { blockRows: 25, partFanout: 2 });
    const decode = vi.spyOn(TokenDictionary, 'decode');
    try {
      expect(await reopened.query({ serverId: 'srv', search: 'nothing matches', offset: 0, limit: 50 })).toEqual({ items: [], total: 0, totalCapped: false });
      // At most one block per stream (4) is in no part; every other block is ruled out by its part.
      expect(decode.mock.calls.length).toBeLessThanOrEqual(4);
      decode.mockClear();
      const page = await reopened.query({ serverId: 'srv', search: 'vercetti', offset: 0, limit: 50 });
      expect(page.total).toBeGreaterThan(0);
      expect(decode.mock.calls.length).toBeGreaterThan(0);
    } finally {
      decode.mockRestore();
      await reopened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Generated logs with a type in 1 of 97 and a resource in 1 of 131: one row or none in each block of 50, in many blocks. */
  function withRareValues(count: number, seed: number): LogRecord[] {
    return generatedLogs('srv', count, T0, seed).map((r, n) => ({
      ...r,
      ...(n % 97 === 5 ? { type: n % 2 === 0 ? 'Refund' : 'REFUND' } : {}),
      ...(n % 131 === 9 ? { resource: 'anticheat-x' } : {}),
    }));
  }

  const RARE_QUERIES: Omit<LogQuery, 'serverId'>[] = [
    { type: 'Refund', offset: 0, limit: 10 },
    { type: 'refund', offset: 25, limit: 10 },
    { type: 'Refund', search: 'player', offset: 0, limit: 50 },
    { type: 'Refund', search: 'ZOË', offset: 0, limit: 50 },
    { type: 'Refund', level: 'warn', offset: 0, limit: 50 },
    { type: 'Refund', logType: 'photo', offset: 0, limit: 50 },
    { resource: 'anticheat-x', offset: 5, limit: 20 },
    { resource: 'ANTICHEAT-X', type: 'Chat', offset: 0, limit: 50 },
  ];

  async function rareAnswers(store: LogStore): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const query of RARE_QUERIES) {
      const page = await store.query({ serverId: 'srv', ...query });
      out.push({ query, items: page.items, total: page.total, capped: page.totalCapped });
    }
    const scanned: LogRecord[] = [];
    for await (const page of store.scan({ serverId: 'srv', type: 'refund' }, 7)) scanned.push(...page);
    out.push(scanned.map((r) => r.id));
    const edges = (span: { first: number; last: number }): number[] => Array.from({ length: 11 }, (_, i) => span.first + Math.ceil(((span.last + 1 - span.first) * i) / 10));
    out.push(await store.histogram({ serverId: 'srv', resource: 'anticheat-x' }, edges));
    return out;
  }

  /** Decodes of block parts other than rare rows (columns, keys, text, dictionaries) during `work`. */
  async function blockDecodesDuring(store: BlockLogStore, work: () => Promise<unknown>): Promise<{ blocks: number; rareRows: number }> {
    const before = store.decodes();
    await work();
    const after = store.decodes();
    return { blocks: after.columns + after.keys + after.text + after.dictionaries - (before.columns + before.keys + before.text + before.dictionaries), rareRows: after.rareRows - before.rareRows };
  }

  it('answers a type or resource rare in each of many blocks from their rare rows, decoding no block, through every delete', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const logs = withRareValues(6000, 7);
    const rows = new SqliteLogStore(join(dir, 'rows.db'), { searchIndex: 'off', walCheckpointer: null, countCap: 10_000 });
    const file = join(dir, 'blocks.db');
    const writer = storeOnThread(file, { blockRows: 50, sealEagerly: true });
    for (let i = 0; i < logs.length; i += 500) {
      await rows.insertBatch(logs.slice(i, i + 500));
      await writer.insertBatch(logs.slice(i, i + 500));
    }
    await writer.sealAll();
    await writer.close();
    const store = storeOnThread(file, { blockRows: 50 });
    try {
      const expected = await rareAnswers(rows);
      // Spread: the type is in over 50 blocks, one or two rows in each.
      expect((expected[0] as { total: number }).total).toBeGreaterThan(55);
      const read = await blockDecodesDuring(store, async () => expect(await rareAnswers(store)).toEqual(expected));
      expect(read).toMatchObject({ blocks: 0 });
      expect(read.rareRows).toBeGreaterThan(50);

      const refunds = logs.filter((r) => r.type.toLowerCase() === 'refund');
      const steps: [string, (s: LogStore) => Promise<{ deletedCount: number; objectKeys: string[] }>][] = [
        ['deleteByKeys of rare rows and others', (s) => s.deleteByKeys('srv', [refunds[3]!, refunds[20]!, logs[100]!, logs[4000]!].map((r) => ({ createdAt: r.createdAt, id: r.id })))],
        ['deleteBefore, through a block holding a rare row', (s) => s.deleteBefore('srv', refunds[10]!.createdAt)],
        ['deleteExpired, rows of a few days', (s) => s.deleteExpired(refunds[15]!.createdAt + 2 * 86_400_000)],
        ['deleteOldest photos', (s) => s.deleteOldest('srv', 'photo', 30)],
      ];
      for (const [name, step] of steps) {
        const want = await step(rows);
        const got = await step(store);
        expect(got.deletedCount, name).toBe(want.deletedCount);
        expect(got.deletedCount, name).toBeGreaterThan(0);
        const after = await rareAnswers(rows);
        // Blocks rewritten without some rows get their own rare rows: still no block decoded.
        expect(await blockDecodesDuring(store, async () => expect(await rareAnswers(store), name).toEqual(after)), name).toMatchObject({ blocks: 0 });
      }
    } finally {
      await store.close();
      await rows.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds the rare rows of a blocks file that has none on open, answering the same before and after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const file = join(dir, 'logs.db');
    const store = storeOnThread(file, { blockRows: 40, sealEagerly: true });
    await store.insertBatch(withRareValues(3000, 8));
    await store.sealAll();
    const expected = await rareAnswers(store);
    await store.close();
    // The layout before rare rows: no table, user_version 101.
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE rare_rows; PRAGMA user_version = 101');
    db.close();
    const reopened = storeOnThread(file, { blockRows: 40 });
    try {
      expect(await rareAnswers(reopened)).toEqual(expected);
      await reopened.rareRowsBuilt();
      const layout = reopened.layout();
      const raw = new DatabaseSync(file, { readOnly: true });
      try {
        expect(Number(raw.prepare('SELECT count(*) AS n FROM rare_rows').get()?.['n'])).toBe(layout.blocks);
        expect(Number(raw.prepare('PRAGMA user_version').get()?.['user_version'])).toBe(BLOCK_SCHEMA_VERSION);
      } finally {
        raw.close();
      }
      await reopened.close();
      const rebuilt = storeOnThread(file, { blockRows: 40 });
      try {
        expect(await blockDecodesDuring(rebuilt, async () => expect(await rareAnswers(rebuilt)).toEqual(expected))).toMatchObject({ blocks: 0 });
      } finally {
        await rebuilt.close();
      }
    } finally {
      await reopened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a page past a rare word\'s matches from its total, reading no block for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    // A word in 15 rows of 3,000, each in a block of its own.
    const logs = generatedLogs('srv', 3000, T0, 8).map((r, n) => (n % 211 === 17 ? { ...r, message: `${r.message} qzxwordy` } : r));
    const rows = new SqliteLogStore(join(dir, 'rows.db'), { searchIndex: 'off', walCheckpointer: null, countCap: 10_000 });
    const file = join(dir, 'blocks.db');
    const writer = storeOnThread(file, { blockRows: 50, partFanout: 2, sealEagerly: true });
    await rows.insertBatch(logs);
    await writer.insertBatch(logs);
    await writer.sealAll();
    await writer.close();
    const store = storeOnThread(file, { blockRows: 50, partFanout: 2 });
    try {
      await store.partsBuilt();
      // The pages past the matches first, while no block is cached.
      const pages: Omit<LogQuery, 'serverId'>[] = [
        { offset: 15, limit: 50 },
        { offset: 100, limit: 50 },
        { offset: 40, limit: 50, level: 'warn' },
        { offset: 0, limit: 50 },
        { offset: 5, limit: 5 },
        { offset: 10, limit: 50 },
        { offset: 2, limit: 50, level: 'warn' },
      ];
      for (const page of pages) {
        const query = { serverId: 'srv', search: 'QZXWORDY', ...page };
        const want = await rows.query(query);
        const before = store.decodes();
        expect(await store.query(query), JSON.stringify(page)).toEqual(want);
        const after = store.decodes();
        const walked = after.keys + after.columns + after.text - (before.keys + before.columns + before.text);
        if (page.offset >= want.total) expect(walked, JSON.stringify(page)).toBe(0);
        // The word's rows in each block are listed in its part: no block dictionary is read for them. (A block
        // in no part yet, at most one a stream with a fanout of 2, reads its own.)
        expect(after.dictionaries - before.dictionaries, JSON.stringify(page)).toBeLessThanOrEqual(store.layout().parts.length + 1);
      }
    } finally {
      await store.close();
      await rows.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rebuilds on open the parts of a file whose parts have the entries of an earlier layout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const file = join(dir, 'logs.db');
    const store = storeOnThread(file, { blockRows: 40, partFanout: 2, sealEagerly: true });
    await store.insertBatch(generatedLogs('srv', 2000, T0, 9));
    await store.sealAll();
    const expected = await answers(store);
    await store.close();
    // Layout 102: entries this version reads otherwise. Here each part says no block holds any word, which
    // would answer nothing were the parts kept.
    const db = new DatabaseSync(file);
    for (const row of db.prepare('SELECT part_id, ids FROM parts').all()) {
      const ids = JSON.parse(String(row['ids'])) as number[];
      db.prepare('UPDATE parts SET words = ? WHERE part_id = ?').run(encodePartDictionary(ids.map(() => [])), row['part_id'] as number);
    }
    db.exec('PRAGMA user_version = 102');
    db.close();
    const reopened = storeOnThread(file, { blockRows: 40, partFanout: 2 });
    try {
      expect(await answers(reopened)).toEqual(expected);
      await reopened.partsBuilt();
      expect(reopened.layout().parts[0]! + reopened.layout().parts[1]!).toBeGreaterThan(2);
      expect(await answers(reopened)).toEqual(expected);
    } finally {
      await reopened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the directory from its index alone, which a file of layout 103 gets on open, keeping its parts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const file = join(dir, 'logs.db');
    const store = storeOnThread(file, { blockRows: 40, partFanout: 2, sealEagerly: true });
    await store.insertBatch(generatedLogs('srv', 1000, T0, 10));
    await store.sealAll();
    const expected = await answers(store);
    const parts = store.layout().parts;
    await store.close();
    // Layout 103: the narrower index on (server_key, max_at) only.
    const db = new DatabaseSync(file);
    db.exec('DROP INDEX blocks_directory; CREATE INDEX blocks_server ON blocks (server_key, max_at); PRAGMA user_version = 103');
    db.close();
    const reopened = storeOnThread(file, { blockRows: 40, partFanout: 2 });
    try {
      expect(reopened.layout().parts).toEqual(parts);
      expect(await answers(reopened)).toEqual(expected);
    } finally {
      await reopened.close();
    }
    const raw = new DatabaseSync(file, { readOnly: true });
    try {
      const indexes = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'blocks' AND sql IS NOT NULL").all().map((r) => r['name']);
      expect(indexes.sort()).toEqual(['blocks_directory', 'blocks_expires']);
      const plan = raw
        .prepare('EXPLAIN QUERY PLAN SELECT block_id, stream, min_at, max_at, n, photos, min_expires, max_expires, dims FROM blocks WHERE server_key = ? ORDER BY max_at DESC, block_id DESC')
        .all(1)
        .map((r) => String(r['detail']));
      expect(plan.join('; ')).toContain('COVERING INDEX blocks_directory');
    } finally {
      raw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds the parts of a blocks file that has none on open, answering the same before and after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const file = join(dir, 'logs.db');
    const store = storeOnThread(file, { blockRows: 40, sealEagerly: true });
    await store.insertBatch(generatedLogs('srv', 2000, T0, 6));
    const expected = await answers(store);
    await store.close();
    // The layout before parts: no table, user_version 100.
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE parts; PRAGMA user_version = 100');
    db.close();
    const reopened = storeOnThread(file, { blockRows: 40 });
    try {
      expect(reopened.layout().parts).toEqual([0, 0, 0]);
      expect(await answers(reopened)).toEqual(expected);
      await reopened.partsBuilt();
      const parts = reopened.layout().parts;
      expect(parts[0]! + parts[1]!).toBeGreaterThan(2);
      expect(await answers(reopened)).toEqual(expected);
    } finally {
      await reopened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('block log store: reads by key beside rewrites', () => {
  it('answers every asked log whole while deletes rewrite the blocks holding them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    const store = storeOnThread(join(dir, 'logs.db'), { blockRows: 50, sealEagerly: true });
    try {
      const logs = generatedLogs('srv', 500, Date.UTC(2025, 4, 1), 7);
      await store.insertBatch(logs);
      await store.sealAll();
      const byKey = (r: LogRecord): string => `${r.createdAt}:${r.id}`;
      const expected = new Map((await store.query({ serverId: 'srv', offset: 0, limit: 500 })).items.map((r) => [byKey(r), r]));
      // Every tenth log asked for; its neighbour deleted meanwhile, which rewrites the block both are in.
      const asked = logs.filter((_, i) => i % 10 === 0);
      const deleted = logs.filter((_, i) => i % 10 === 1);
      const [found] = await Promise.all([
        store.getByKeys('srv', asked.map((r) => ({ createdAt: r.createdAt, id: r.id }))),
        store.deleteByKeys('srv', deleted.map((r) => ({ createdAt: r.createdAt, id: r.id }))),
      ]);
      expect(found.map(byKey).sort()).toEqual(asked.map(byKey).sort());
      for (const r of found) expect(r).toEqual(expected.get(byKey(r)));
      const again = await store.getByKeys('srv', asked.map((r) => ({ createdAt: r.createdAt, id: r.id })));
      expect(again.map(byKey).sort()).toEqual(asked.map(byKey).sort());
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
