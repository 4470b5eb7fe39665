/**
 * A broad search's exact total counted on two threads (sqlite-parallel-count.ts): the count worker loads
 * and answers on its own connection, and the store's totals with the split equal the store without an
 * index, across days (the split point), caps and filters the index answers exactly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogQuery, LogRecord } from '@skald/ports';
import { SqliteLogStore } from '../src/log-store/index.ts';
import { ParallelCounter } from '../src/log-store/sqlite-parallel-count.ts';

const T0 = Date.UTC(2026, 2, 1);
const DAY = 86_400_000;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skald-parallel-count-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function log(i: number, createdAt: number): LogRecord {
  return {
    id: `id-${String(i).padStart(6, '0')}`,
    serverId: 's1',
    createdAt,
    level: ['info', 'warn', 'error'][i % 3]!,
    type: 'Join',
    resource: 'core',
    message: i % 4 === 0 ? `player ${i} joined the arena` : `quiet line ${i}`,
    metadata: null,
    logType: i % 10 === 0 ? 'photo' : 'text',
    imageKey: null,
    thumbKey: null,
    expiresAt: createdAt + 30 * DAY,
  };
}

describe('search totals on two threads', () => {
  it('the count worker answers a count on its own read-only connection', async () => {
    const file = join(dir, 'logs.db');
    const store = new SqliteLogStore(file, { searchIndex: 'eager' });
    await store.insertBatch(Array.from({ length: 50 }, (_, i) => log(i, T0 + i)));
    const counter = new ParallelCounter(file);
    try {
      expect(await counter.count('SELECT count(*) AS n FROM logs WHERE message LIKE ?', ['player%'])).toBe(13);
      await expect(counter.count('SELECT count(*) AS n FROM no_such_table', [])).rejects.toThrow(/no such table/);
      expect(counter.usable).toBe(true);
    } finally {
      await counter.close();
      await store.close();
    }
  });

  it.each([
    ['the default cap', {}],
    ['a cap inside the newer half', { countCap: 20 }],
    ['a cap past the newer half', { countCap: 150 }],
  ])('totals equal the store without an index, split across days (%s)', async (_label, caps) => {
    const reference = new SqliteLogStore(join(dir, 'reference.db'), { searchIndex: 'off', ...caps });
    const split = new SqliteLogStore(join(dir, 'split.db'), { searchIndex: 'eager', parallelCountFrom: 0, ...caps });
    // Four days of logs, more on the last ones: the middle log falls on a later day than the first.
    const days = [40, 60, 120, 180];
    let i = 0;
    for (const [d, n] of days.entries()) {
      const records = Array.from({ length: n }, () => log(i++, T0 + d * DAY + i * 1000));
      expect(await split.insertBatch(records)).toEqual(await reference.insertBatch(records));
    }
    const queries: LogQuery[] = [
      { serverId: 's1', search: 'player', offset: 0, limit: 10 },
      { serverId: 's1', search: 'joined the', logType: 'text', offset: 0, limit: 5 },
      { serverId: 's1', search: 'player', level: 'error', offset: 0, limit: 5 },
      { serverId: 's1', search: 'arena', logType: 'photo', offset: 0, limit: 5 },
      { serverId: 's1', search: 'nothing like it', offset: 0, limit: 5 },
    ];
    const handedOver = vi.spyOn(ParallelCounter.prototype, 'count');
    try {
      for (const query of queries) {
        const want = await reference.query(query);
        const got = await split.query(query);
        expect({ ids: got.items.map((r) => r.id), total: got.total, capped: got.totalCapped }, JSON.stringify(query)).toEqual({
          ids: want.items.map((r) => r.id),
          total: want.total,
          capped: want.totalCapped,
        });
      }
      // The older half went to the worker (not a silent count on one thread).
      expect(handedOver).toHaveBeenCalled();
    } finally {
      handedOver.mockRestore();
      await reference.close();
      await split.close();
    }
  });
});
