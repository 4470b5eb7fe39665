import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '@skald/ports';
import { BlockLogStore, SqliteLogStore } from '../src/log-store/index.ts';
import { ingestUntilKilled, integrityCheck } from './fixtures/crash-writer.ts';
import { generatedLogs } from './fixtures/generated-logs.ts';

const FIRST_AT = 1_750_000_000_000;
const idOf = (i: number): string => `log-${String(i).padStart(8, '0')}`;

describe('block log store on disk', () => {
  const sealing: readonly { mode: 'blocks' | 'blocks-small'; what: string }[] = [
    { mode: 'blocks', what: 'full blocks' },
    { mode: 'blocks-small', what: 'tails held under 300 rows: seals short of full merged into the next ones, batches waiting for seals' },
  ];
  for (const { mode, what } of sealing) {
    // timeout: SIGKILLs a writer while it ingests and seals, then reopens the store
    it(`loses no acknowledged log, keeps each log in the tail or in one block, and stays readable after a SIGKILL during ingest and sealing (${what})`, { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-crash-'));
      try {
        const file = join(dir, 'logs.db');
        // The child's sealer lags its ingest on a loaded machine: the blocks are counted in the file itself.
        const reader: { db: DatabaseSync | null } = { db: null };
        // blocks-small: counted only while a block short of full is in the file, so that the kill can find a merge under way.
        const sealedBlocks = (): number => {
          if (!existsSync(file)) return 0;
          reader.db ??= new DatabaseSync(file, { readOnly: true });
          const small = Number(reader.db.prepare('SELECT count(*) AS n FROM blocks WHERE n < 500').get()?.['n'] ?? 0);
          return mode === 'blocks-small' && small === 0 ? 0 : Number(reader.db.prepare('SELECT count(*) AS n FROM blocks').get()?.['n'] ?? 0);
        };
        // Past 30,000 logs and 55 seals of 500 rows, at whatever the child is doing (a batch, a seal, a part, a checkpoint).
        const killed = await ingestUntilKilled(file, mode, (acked) => acked >= 30_150 && sealedBlocks() >= 55);
        expect(killed.signal).toBe('SIGKILL');
        reader.db?.close();
        const ackedAtKill = killed.acked;
        const reopened = new BlockLogStore(file, { walCheckpointer: null });
        try {
          const layout = reopened.layout();
          expect(layout.blocks, 'blocks were sealed before the kill').toBeGreaterThanOrEqual(50);
          const stored = await reopened.count('srv-crash');
          expect(stored).toBeGreaterThanOrEqual(ackedAtKill);
          // Never both, never neither: the rows of the tail and the blocks are the logs the rollups count, each once.
          expect(layout.tailRows + layout.blockRows).toBe(stored);
          const ids = new Set<string>();
          for await (const page of reopened.scan({ serverId: 'srv-crash' }, 10_000)) for (const r of page) ids.add(r.id);
          expect(ids.size).toBe(stored);
          for (let i = 0; i < ackedAtKill; i++) if (!ids.has(idOf(i))) expect.fail(`acknowledged log ${idOf(i)} is missing`);
          const found = await reopened.query({ serverId: 'srv-crash', search: 'player 42 joined', level: 'error', offset: 0, limit: 5 });
          expect(found.items.length).toBeGreaterThan(0);
          expect(await reopened.insertBatch([{ ...(await reopened.getByKeys('srv-crash', [{ id: idOf(7), createdAt: FIRST_AT + 7 }]))[0]! }])).toEqual({ inserted: 0 });
        } finally {
          await reopened.close();
        }
        expect(integrityCheck(file)).toBe('ok');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  // timeout: SIGKILLs a writer while it ingests and runs retention sweeps, then reopens the store
  it('loses no acknowledged log that had not expired, keeps what a finished sweep deleted deleted, and keeps each log once after a SIGKILL during retention sweeps', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-sweep-crash-'));
    try {
      const file = join(dir, 'logs.db');
      const EXPIRES_AT = 1_760_000_000_000;
      let swept = 0;
      let sweeps = 0;
      // Past 30,000 logs and a few sweeps, as the next sweep starts (it drops and rewrites blocks over several turns;
      // where exactly the kill lands varies, so every assertion holds wherever it does).
      const killed = await ingestUntilKilled(file, 'blocks-retention', (acked, output) => {
        for (const m of output.matchAll(/swept (\d+)/g)) {
          swept = Math.max(swept, Number(m[1]));
          sweeps++;
        }
        return acked >= 30_000 && sweeps >= 3 && /sweeping \d+/.test(output);
      });
      expect(killed.signal).toBe('SIGKILL');
      // Logs 0 .. firstKept - 1 had expired at a sweep that finished; every later acknowledged one had not.
      const firstKept = swept - EXPIRES_AT + 1;
      expect(firstKept).toBeGreaterThan(0);
      const reopened = new BlockLogStore(file, { walCheckpointer: null });
      try {
        const layout = reopened.layout();
        const stored = await reopened.count('srv-crash');
        expect(layout.tailRows + layout.blockRows).toBe(stored);
        const numbers = new Set<number>();
        for await (const page of reopened.scan({ serverId: 'srv-crash' }, 10_000)) for (const r of page) numbers.add(Number(r.id.slice('log-'.length)));
        expect(numbers.size).toBe(stored);
        for (let i = firstKept; i < killed.acked; i++) if (!numbers.has(i)) expect.fail(`acknowledged log ${idOf(i)}, not expired, is missing`);
        expect(Math.min(...numbers), 'what a finished sweep deleted stays deleted').toBeGreaterThanOrEqual(firstKept);
        // The next sweep deletes exactly what has expired by then.
        const now = swept + 5_000;
        const expired = [...numbers].filter((i) => EXPIRES_AT + i <= now).length;
        expect((await reopened.deleteExpired(now)).deletedCount).toBe(expired);
        expect(await reopened.count('srv-crash')).toBe(stored - expired);
      } finally {
        await reopened.close();
      }
      expect(integrityCheck(file)).toBe('ok');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // timeout: builds a row-store file of 100,000 logs, SIGKILLs a writer migrating it while ingesting, reopens it
  it('loses no log and no acknowledged log after a SIGKILL during a migration of a row-store file, and finishes it on the next open', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-migrate-crash-'));
    try {
      const file = join(dir, 'logs.db');
      const rows = new SqliteLogStore(file, { searchIndex: 'off', walCheckpointer: null });
      const before = (i: number): LogRecord => ({ ...generatedLogs('srv-crash', 1, FIRST_AT - 10_000_000 + i * 10, i)[0]!, id: `pre-${String(i).padStart(8, '0')}` });
      for (let start = 0; start < 100_000; start += 5000) await rows.insertBatch(Array.from({ length: 5000 }, (_, k) => before(start + k)));
      await rows.close();
      const killed = await ingestUntilKilled(file, 'blocks', (acked) => acked >= 5_000);
      expect(killed.signal).toBe('SIGKILL');
      const ackedAtKill = killed.acked;
      const reopened = new BlockLogStore(file, { walCheckpointer: null });
      try {
        const midway = reopened.layout();
        // Killed with chunks moved and chunks left (9 of 50 moved in a run here).
        expect(midway.rowTableRows, 'killed before the migration ended').toBeGreaterThan(0);
        expect(midway.rowTableRows, 'killed after the migration began').toBeLessThan(100_000);
        const stored = await reopened.count('srv-crash');
        expect(stored).toBeGreaterThanOrEqual(100_000 + ackedAtKill);
        expect(midway.rowTableRows + midway.tailRows + midway.blockRows).toBe(stored);
        await reopened.migrated();
        const done = reopened.layout();
        expect(done.rowTableRows).toBe(0);
        expect(done.tailRows + done.blockRows).toBe(stored);
        const ids = new Set<string>();
        for await (const page of reopened.scan({ serverId: 'srv-crash' }, 10_000)) for (const r of page) ids.add(r.id);
        expect(ids.size).toBe(stored);
        for (let i = 0; i < 100_000; i++) if (!ids.has(`pre-${String(i).padStart(8, '0')}`)) expect.fail(`migrated log ${i} is missing`);
        for (let i = 0; i < ackedAtKill; i++) if (!ids.has(idOf(i))) expect.fail(`acknowledged log ${idOf(i)} is missing`);
      } finally {
        await reopened.close();
      }
      expect(integrityCheck(file)).toBe('ok');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves no WAL behind at close, with the WAL checkpointer running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-blocks-'));
    try {
      const file = join(dir, 'logs.db');
      const store = new BlockLogStore(file, { blockRows: 1000 });
      await store.insertBatch(generatedLogs('srv', 5000, Date.UTC(2025, 4, 1), 11));
      await store.sealAll();
      await store.close();
      expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
