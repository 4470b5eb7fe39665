/**
 * The SQLite log store's search index (sqlite-log-search.ts) against the store without it: the same
 * random logs, inserts out of time order, deletes, and the indexer stopped at random points, must give
 * the same pages and totals for every search, whatever part of the rows the index covers. Plus the
 * migration of a layout-2 file (indexed in the background) and servers whose key has no room in a rowid.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogQuery, LogRecord } from '@skald/ports';
import { seededInt } from '@skald/ports/contract/seeded-random.ts';
import { LOG_LEVELS } from '@skald/contracts';
import { SqliteLogStore } from '../src/log-store/index.ts';
import { levelCode } from '../src/log-store/sqlite-log-search.ts';
import { SCHEMA_VERSION } from '../src/log-store/sqlite-log-schema.ts';

const T0 = Date.UTC(2026, 0, 5);
const DAY = 86_400_000;
/** ASCII case variants only: beyond ASCII the index folds case and a scan does not (see the last test). */
const WORDS = ['player', 'joined', 'Sword', 'arena', 'LOBBY', 'killed', 'élan', '100%', 'a_b', 'quote"d'];
let dir: string;

/** Polls until `check` holds (the background indexer runs between other work). */
async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let seq = 0;
function randomLog(rand: (n: number) => number, serverId: string, createdAt: number): LogRecord {
  seq += 1;
  const word = () => WORDS[rand(WORDS.length)]!;
  return {
    id: `id-${String(seq).padStart(6, '0')}`,
    serverId,
    createdAt,
    // The five standard levels in several spellings (indexed with a level code) and others (no code).
    level: ['info', 'warn', 'ERROR', 'Fatal', 'debug', 'notice', 'érror'][rand(7)]!,
    type: ['Join', 'Combat', 'chat'][rand(3)]!,
    resource: ['core', 'arena-res'][rand(2)]!,
    message: `${word()} ${word()} #${rand(50)}`,
    metadata: rand(2) === 0 ? null : { who: word(), n: rand(10) },
    logType: rand(10) === 0 ? 'photo' : 'text',
    imageKey: null,
    thumbKey: null,
    expiresAt: createdAt + 3 * DAY,
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skald-search-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite log store search index', () => {
  it.each([
    ['the default count cap', undefined, 4],
    // Around the cap: exact below, capped above, for every path (FTS-only counts, counts through the rows, scans).
    ['a count cap of 9', 9, 4],
    ['a count cap of 30', 30, 4],
    // The indexing worker takes every chunk with rows (search-index-worker.ts): it indexes on its own
    // connection while this thread searches, inserts, deletes and indexes too (indexPending).
    ['the indexing worker beside the store thread', undefined, 0],
  ])('answers every search exactly as the store without an index, indexed in part or in full (%s)', async (_label, countCap, indexWorkerChunkMs) => {
    const rand = seededInt(17);
    const caps = countCap === undefined ? {} : { countCap };
    const reference = new SqliteLogStore(join(dir, 'reference.db'), { searchIndex: 'off', ...caps });
    const indexed = new SqliteLogStore(join(dir, 'indexed.db'), { searchIndex: 'background', indexChunkSize: 7, indexWorkerChunkMs, ...caps });
    const both = async (records: LogRecord[]) => {
      expect(await indexed.insertBatch(records)).toEqual(await reference.insertBatch(records));
    };
    // Also the level text (indexed next to its code) and the code's own characters (a search holding them scans).
    const searches = ['player', 'SWORD', 'élan', '100%', 'a_b', 'quote"d', '"who":"arena"', 'joined #1', 'ERROR', 'nothing here', 'rror', 'fatal', '\x1fc\x1f', 'r\x1fc'];
    const compare = async (label: string) => {
      for (const search of searches) {
        const queries: LogQuery[] = [
          { serverId: 's1', search, offset: 0, limit: 10 },
          { serverId: 's1', search, offset: 7, limit: 5 },
          { serverId: 's1', search, offset: 0, limit: 0 },
          { serverId: 's1', search, level: 'error', offset: 0, limit: 20 },
          // Levels with a code in the index (any ASCII case), without one, and one nobody has.
          { serverId: 's1', search, level: 'INFO', offset: 2, limit: 6 },
          { serverId: 's1', search, level: 'fatal', logType: 'text', offset: 0, limit: 8 },
          { serverId: 's1', search, level: 'Debug', logType: 'photo', offset: 0, limit: 8 },
          { serverId: 's1', search, level: 'notice', offset: 0, limit: 8 },
          { serverId: 's1', search, level: 'érror', offset: 0, limit: 8 },
          { serverId: 's1', search, level: 'ÉRROR', offset: 0, limit: 8 },
          { serverId: 's1', search, level: 'err', offset: 0, limit: 8 },
          // The log type (the /logs screen always sends text), with and without other filters.
          { serverId: 's1', search, logType: 'text', offset: 1, limit: 9 },
          { serverId: 's1', search, logType: 'photo', offset: 0, limit: 9 },
          { serverId: 's1', search, logType: 'text', level: 'warn', from: T0 + 20_000, offset: 0, limit: 9 },
          { serverId: 's1', search, logType: 'text', type: 'COMBAT', offset: 3, limit: 4 },
          // A common type or resource with a search: narrowed in the index by its text, equality checked on the row.
          { serverId: 's1', search, type: 'join', offset: 0, limit: 7 },
          { serverId: 's1', search, type: 'joi', offset: 0, limit: 7 },
          { serverId: 's1', search, resource: 'CORE', level: 'info', logType: 'text', offset: 0, limit: 7 },
          { serverId: 's1', search, from: T0 + 30_000, to: T0 + DAY, offset: 0, limit: 15 },
          { serverId: 's2', search, offset: 0, limit: 50 },
          { serverId: 's1', search, type: 'anticheat', offset: 0, limit: 10 },
        ];
        for (const query of queries) {
          const want = await reference.query(query);
          const got = await indexed.query(query);
          expect({ ids: got.items.map((r) => r.id), total: got.total }, `${label}: ${JSON.stringify(query)}`).toEqual({ ids: want.items.map((r) => r.id), total: want.total });
        }
      }
      for (const query of [
        { serverId: 's1', type: 'ANTICHEAT', offset: 0, limit: 10 },
        { serverId: 's1', type: 'ANTICHEAT', level: 'warn', logType: 'text', offset: 0, limit: 10 },
        { serverId: 's1', type: 'anticheat', logType: 'photo', offset: 0, limit: 10 },
        { serverId: 's1', type: 'AntiCheatX', offset: 1, limit: 3 },
        { serverId: 's1', resource: 'rare-res', level: 'info', offset: 0, limit: 10 },
        { serverId: 's1', resource: 'rare-res', type: 'anticheat', from: T0 + 20_000, offset: 0, limit: 10 },
      ] satisfies LogQuery[]) {
        const want = await reference.query(query);
        const got = await indexed.query(query);
        expect({ ids: got.items.map((r) => r.id), total: got.total }, `${label}: ${JSON.stringify(query)}`).toEqual({ ids: want.items.map((r) => r.id), total: want.total });
      }
    };
    // In time order, with batches sharing a millisecond.
    for (let b = 0; b < 6; b++) await both(Array.from({ length: 40 }, (_, i) => randomLog(rand, b % 3 === 0 ? 's2' : 's1', T0 + b * 10_000 + Math.floor(i / 8))));
    // Rare values (under 1% of the server's logs: found through the index); 'AntiCheatX' must not pass for 'AntiCheat'.
    const rare = (createdAt: number, type: string, resource: string): LogRecord => ({ ...randomLog(rand, 's1', createdAt), type, resource });
    await both([rare(T0 + 12_000, 'AntiCheat', 'rare-res'), rare(T0 + 31_000, 'AntiCheatX', 'core')]);
    // A message holding what a level code looks like must not pass for the level, nor the level for it.
    await both([{ ...randomLog(rand, 's1', T0 + 13_000), level: 'error', message: 'err\x1fc\x1f' }]);
    // From here the worker indexes on its own thread, at the same time as every comparison below.
    if (indexWorkerChunkMs === 0) await waitFor(() => indexed.indexWorkerRunning, 'the indexing worker');
    await compare('nothing indexed');
    indexed.indexPending(100);
    await compare('partly indexed');
    indexed.indexPending();
    await compare('all indexed');
    // Late rows: older createdAt than rows already indexed (a consumer catching up), then indexed.
    await both(Array.from({ length: 30 }, (_, i) => randomLog(rand, 's1', T0 + 5_000 + i * 300)));
    await both([rare(T0 + 9_000, 'AntiCheat', 'rare-res')]);
    await compare('late rows not indexed');
    indexed.indexPending();
    await compare('late rows indexed after newer ones');
    // Deletes take the index entries with the rows.
    expect(await indexed.deleteBefore('s1', T0 + 15_000)).toEqual(await reference.deleteBefore('s1', T0 + 15_000));
    expect(await indexed.deleteOldest('s1', 'text', 60)).toEqual(await reference.deleteOldest('s1', 'text', 60));
    await compare('after deletes');
    await both(Array.from({ length: 20 }, (_, i) => randomLog(rand, 's1', T0 + 100_000 + i)));
    indexed.indexPending(9);
    await compare('after deletes, new rows partly indexed');
    // The worker case did run on the worker (it lives on a minute after its last rows).
    expect(indexed.indexWorkerRunning).toBe(indexWorkerChunkMs === 0);
    await reference.close();
    await indexed.close();
  });

  it('reads the index for the newest page without reading every match', async () => {
    const store = new SqliteLogStore(join(dir, 'logs.db'), { searchIndex: 'eager' });
    await store.insertBatch(Array.from({ length: 3000 }, (_, i) => ({ ...randomLog(seededInt(i), 's1', T0 + i), message: `needle ${i}` })));
    const page = await store.query({ serverId: 's1', search: 'needle', offset: 0, limit: 5 });
    expect(page.items.map((r) => r.message)).toEqual(['needle 2999', 'needle 2998', 'needle 2997', 'needle 2996', 'needle 2995']);
    expect(page).toMatchObject({ total: 3000, totalCapped: false });
    await store.close();
  });

  it('indexes the rows of a layout-2 file in the background after opening it, answering searches meanwhile', async () => {
    const file = join(dir, 'logs.db');
    const v2 = new SqliteLogStore(file, { searchIndex: 'off' });
    const rand = seededInt(5);
    await v2.insertBatch(Array.from({ length: 500 }, (_, i) => randomLog(rand, 's1', T0 + i)));
    const before = await v2.query({ serverId: 's1', search: 'sword', offset: 0, limit: 20 });
    await v2.close();
    // Back to layout 2: no search index objects, no column (nor the arrival column of layout 5), user_version 2.
    const raw = new DatabaseSync(file);
    raw.exec('DROP TABLE logs_fts; DROP INDEX logs_fts_rowid; DROP TABLE search_progress; DROP TABLE search_late; ALTER TABLE logs DROP COLUMN fts_rowid; ALTER TABLE logs DROP COLUMN received_at; PRAGMA user_version = 2;');
    raw.close();
    const store = new SqliteLogStore(file, { indexChunkSize: 50 });
    expect((await store.query({ serverId: 's1', search: 'sword', offset: 0, limit: 20 })).items).toEqual(before.items);
    const check = new DatabaseSync(file);
    const unindexed = () => Number(check.prepare('SELECT count(*) AS n FROM logs WHERE fts_rowid IS NULL').get()?.['n']);
    await waitFor(() => unindexed() === 0, 'the background indexer');
    expect(Number(check.prepare('PRAGMA user_version').get()?.['user_version'])).toBe(SCHEMA_VERSION);
    check.close();
    expect(await store.query({ serverId: 's1', search: 'sword', offset: 0, limit: 20 })).toEqual(before);
    await store.close();
  });

  it('rebuilds the index of a layout-3 file in the background (level codes), exact meanwhile, never joining an old rowid', async () => {
    const file = join(dir, 'logs.db');
    const rand = seededInt(11);
    const reference = new SqliteLogStore(join(dir, 'reference.db'), { searchIndex: 'off' });
    const v3 = new SqliteLogStore(file, { searchIndex: 'eager' });
    const first = Array.from({ length: 400 }, (_, i) => randomLog(rand, 's1', T0 + i * 10));
    await v3.insertBatch(first);
    await reference.insertBatch(first);
    await v3.close();
    // Back to layout 3: index entries without codes (level text only), as a layout-3 indexer wrote them.
    const raw = new DatabaseSync(file);
    const oldMax = raw.prepare('SELECT max(fts_rowid) AS m FROM logs').get()?.['m'];
    raw.exec("INSERT INTO logs_fts (logs_fts) VALUES ('delete-all')");
    const put = raw.prepare('INSERT INTO logs_fts (rowid, message, type, level, resource, metadata) VALUES (?, ?, ?, ?, ?, ?)');
    for (const row of raw.prepare('SELECT fts_rowid, message, type, level, resource, metadata FROM logs').all()) {
      put.run(row['fts_rowid'] ?? 0, row['message'] ?? '', row['type'] ?? '', row['level'] ?? '', row['resource'] ?? '', row['metadata'] ?? '');
    }
    raw.exec('ALTER TABLE logs DROP COLUMN received_at; PRAGMA user_version = 3');
    raw.close();
    const store = new SqliteLogStore(file, { searchIndex: 'background', indexChunkSize: 30 });
    const queries: LogQuery[] = [
      { serverId: 's1', search: 'sword', level: 'error', offset: 0, limit: 20 },
      { serverId: 's1', search: 'player', logType: 'text', level: 'info', offset: 3, limit: 10 },
      { serverId: 's1', search: 'arena', offset: 0, limit: 30 },
    ];
    const compare = async (label: string) => {
      for (const query of queries) {
        const want = await reference.query(query);
        const got = await store.query(query);
        expect({ ids: got.items.map((r) => r.id), total: got.total }, `${label}: ${JSON.stringify(query)}`).toEqual({ ids: want.items.map((r) => r.id), total: want.total });
      }
    };
    const check = new DatabaseSync(file);
    expect(Number(check.prepare('PRAGMA user_version').get()?.['user_version'])).toBe(SCHEMA_VERSION);
    // Emptied at open, no pass over the logs: their old rowids stay until the walk reaches them.
    expect(Number(check.prepare('SELECT count(*) AS n FROM logs_fts').get()?.['n'])).toBe(0);
    await compare('right after opening');
    // New logs meanwhile, some of them older than rows already re-indexed.
    const more = [...Array.from({ length: 50 }, (_, i) => randomLog(rand, 's1', T0 + 5000 + i)), ...Array.from({ length: 20 }, (_, i) => randomLog(rand, 's1', T0 + 7 + i * 13))];
    await store.insertBatch(more);
    await reference.insertBatch(more);
    await compare('rebuilding');
    const behind = () => Number(check.prepare('SELECT count(*) AS n FROM logs WHERE fts_rowid IS NULL OR fts_rowid <= ?').get(oldMax ?? 0)?.['n']);
    await waitFor(() => behind() === 0, 'the rebuild');
    // Every row has a new rowid past the old ones: none of the old values was handed out again.
    expect(Number(check.prepare('SELECT count(*) AS n FROM logs_fts').get()?.['n'])).toBe(470);
    check.close();
    await compare('rebuilt');
    await store.close();
    await reference.close();
  });

  it('once caught up, gathers new rows into a whole chunk (or waits indexGatherMs) before indexing, exact meanwhile', async () => {
    const file = join(dir, 'logs.db');
    const rand = seededInt(23);
    const reference = new SqliteLogStore(join(dir, 'reference.db'), { searchIndex: 'off' });
    const store = new SqliteLogStore(file, { searchIndex: 'background', indexChunkSize: 50, indexGatherMs: 60_000 });
    const check = new DatabaseSync(file);
    const unindexed = () => Number(check.prepare('SELECT count(*) AS n FROM logs WHERE fts_rowid IS NULL').get()?.['n']);
    const insert = async (logs: LogRecord[]) => {
      await store.insertBatch(logs);
      await reference.insertBatch(logs);
    };
    const query: LogQuery = { serverId: 's1', search: 'arena', offset: 0, limit: 100 };
    await insert(Array.from({ length: 60 }, (_, i) => randomLog(rand, 's1', T0 + i)));
    await waitFor(() => unindexed() === 0, 'the first rows');
    // Caught up: 30 new rows (under a chunk) wait, and searches find them by scanning.
    await insert(Array.from({ length: 30 }, (_, i) => randomLog(rand, 's1', T0 + 1000 + i)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unindexed()).toBe(30);
    expect(await store.query(query)).toEqual(await reference.query(query));
    // A chunk's worth has gathered: indexed without waiting for the timer.
    await insert(Array.from({ length: 20 }, (_, i) => randomLog(rand, 's1', T0 + 2000 + i)));
    await waitFor(() => unindexed() === 0, 'the gathered chunk'); // within waitFor's 15 s, under the 60 s gathering time
    expect(await store.query(query)).toEqual(await reference.query(query));
    await store.close();
    check.close();
    // With a short gathering time, a few rows are indexed once it has passed.
    const quick = new SqliteLogStore(file, { searchIndex: 'background', indexChunkSize: 50, indexGatherMs: 50 });
    const again = new DatabaseSync(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await quick.insertBatch([randomLog(rand, 's1', T0 + 3000)]);
    await waitFor(() => Number(again.prepare('SELECT count(*) AS n FROM logs WHERE fts_rowid IS NULL').get()?.['n']) === 0, 'the gathering timer');
    again.close();
    await quick.close();
    await reference.close();
  });

  it('gives each level ingestion accepts its own code, in any ASCII case, and none to other levels', () => {
    const codes = LOG_LEVELS.map((level) => levelCode(level));
    expect(new Set(codes).size).toBe(LOG_LEVELS.length);
    expect(codes).not.toContain(null);
    expect(LOG_LEVELS.map((level) => levelCode(level.toUpperCase()))).toEqual(codes);
    // NOCASE folds ASCII only: these are other levels, whose filter is checked on each row.
    for (const other of ['notice', 'érror', 'ınfo', 'errors', '']) expect(levelCode(other)).toBeNull();
  });

  it('folds case beyond ASCII once a row is indexed (a scan folds ASCII only)', async () => {
    const store = new SqliteLogStore(join(dir, 'logs.db'), { searchIndex: 'background' });
    await store.insertBatch([{ ...randomLog(seededInt(3), 's1', T0), message: 'ÉLAN vital' }]);
    expect((await store.query({ serverId: 's1', search: 'élan', offset: 0, limit: 5 })).total).toBe(0);
    store.indexPending();
    expect((await store.query({ serverId: 's1', search: 'élan', offset: 0, limit: 5 })).total).toBe(1);
    await store.close();
  });

  it('leaves servers whose key has no room in a rowid out of the index and still finds their logs', async () => {
    const file = join(dir, 'logs.db');
    new SqliteLogStore(file).close();
    const raw = new DatabaseSync(file);
    raw.exec("INSERT INTO servers (key, server_id) VALUES (1048580, 'huge')");
    raw.close();
    const store = new SqliteLogStore(file, { searchIndex: 'eager' });
    await store.insertBatch([{ ...randomLog(seededInt(1), 'huge', T0), message: 'a needle here' }]);
    expect(store.indexPending()).toBe(0);
    const page = await store.query({ serverId: 'huge', search: 'needle', offset: 0, limit: 5 });
    expect(page.items.map((r) => r.message)).toEqual(['a needle here']);
    expect(page.total).toBe(1);
    await store.close();
  });
});
