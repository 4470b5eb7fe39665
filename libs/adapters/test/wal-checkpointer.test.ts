/**
 * WAL checkpoints on a worker thread (sqlite/wal-checkpointer.ts): the pages a connection commits reach the
 * database file without that connection checkpointing, the worker exists only while there is work, and a
 * failed worker hands checkpoints back to the writing connections.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../src/sqlite/wal-checkpointer.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skald-wal-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A WAL-mode file whose connection never checkpoints by itself, with a table to write into. */
function open(name: string): { file: string; db: DatabaseSync; write: (rows: number) => void } {
  const file = join(dir, name);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x BLOB)');
  const insert = db.prepare('INSERT INTO t VALUES (randomblob(1000))');
  return {
    file,
    db,
    write: (rows) => {
      db.exec('BEGIN');
      for (let i = 0; i < rows; i++) insert.run();
      db.exec('COMMIT');
    },
  };
}

describe('WAL checkpointer', () => {
  it('copies what a connection committed into the database file from its worker, started only once needed', async () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 20 });
    const { file, db, write } = open('a.db');
    const wal = checkpointer.register(file, () => {
      throw new Error('no fallback expected');
    });
    expect(checkpointer.running()).toBe(false);
    write(500);
    const before = statSync(file).size;
    // Committed to the WAL only: the database file has not grown.
    expect(before).toBeLessThan(100_000);
    wal.wrote();
    await waitFor(() => statSync(file).size > 500_000, 'the checkpoint');
    expect(checkpointer.running()).toBe(true);
    // The writer never waited for it: more writes go on, and reach the file too.
    write(500);
    wal.wrote();
    await waitFor(() => statSync(file).size > 1_000_000, 'the second checkpoint');
    await wal.close();
    db.close();
    // The worker's connection is closed: the writer's close was the last one, which removes the WAL.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('ends its worker after idleWorkerMs without work and starts another for the next write', async () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 10, idleWorkerMs: 50 });
    const { file, db, write } = open('b.db');
    const wal = checkpointer.register(file, () => undefined);
    write(10);
    wal.wrote();
    await waitFor(() => checkpointer.running(), 'the worker');
    await waitFor(() => !checkpointer.running(), 'the idle worker to end');
    write(300);
    wal.wrote();
    await waitFor(() => statSync(file).size > 300_000, 'a checkpoint by a new worker');
    await wal.close();
    db.close();
  });

  it('hands checkpoints back to the writing connections when the worker fails, and says so once', async () => {
    const warnings: string[] = [];
    const checkpointer = new WalCheckpointer({ intervalMs: 10, workerUrl: new URL('data:text/javascript,process.exit(3)'), warn: (message) => warnings.push(message) });
    const { file, db, write } = open('c.db');
    let fellBack = 0;
    const wal = checkpointer.register(file, () => {
      fellBack += 1;
      db.exec('PRAGMA wal_autocheckpoint = 1');
    });
    write(10);
    wal.wrote();
    await waitFor(() => fellBack === 1, 'the fallback');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/exited \(code 3\).*writing connections/);
    // The connection checkpoints by itself again.
    write(300);
    expect(statSync(file).size).toBeGreaterThan(300_000);
    // Later registrations fall back at once; nothing else is warned.
    const other = open('d.db');
    let otherFellBack = false;
    checkpointer.register(other.file, () => {
      otherFellBack = true;
    });
    expect(otherFellBack).toBe(true);
    expect(warnings).toHaveLength(1);
    await wal.close();
    db.close();
    other.db.close();
  });
});
