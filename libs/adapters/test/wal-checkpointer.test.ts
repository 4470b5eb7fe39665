/**
 * WAL checkpoints off the writing commits (sqlite/wal-checkpointer.ts): what a connection commits reaches the
 * database file without that connection's commits checkpointing; a few writes are checkpointed on the owner's
 * connection, many by a worker thread that exists only while they last; a failed worker hands everything back.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from '../src/sqlite/wal-checkpointer.ts';
import { checkpointBounded } from '../src/sqlite/wal-bound.ts';
import { BACKGROUND_THREADS, backgroundThreadsAlive } from '../src/background-threads.ts';

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
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A WAL-mode file whose connection never checkpoints inside its commits, registered with `checkpointer`. */
function open(checkpointer: WalCheckpointer, name: string, gated = false) {
  const file = join(dir, name);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x BLOB)');
  const insert = db.prepare('INSERT INTO t VALUES (randomblob(1000))');
  let here = 0;
  const wal = checkpointer.register(
    file,
    () => {
      here += 1;
      db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
    },
    { gated },
  );
  return {
    file,
    db,
    wal,
    checkpointsHere: () => here,
    /** `commits` transactions of `rows` rows each, each told to the checkpointer. */
    write: (commits: number, rows: number) => {
      for (let c = 0; c < commits; c++) {
        db.exec('BEGIN');
        for (let i = 0; i < rows; i++) insert.run();
        db.exec('COMMIT');
        wal.wrote();
      }
    },
    size: () => statSync(file).size,
    walSize: () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0),
  };
}

describe('WAL checkpointer', () => {
  it('checkpoints a few commits on the owner connection, without a worker', async () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 20 });
    const a = open(checkpointer, 'a.db');
    a.write(3, 100);
    // Committed to the WAL only: the database file has not grown.
    expect(a.size()).toBeLessThan(100_000);
    await waitFor(() => a.size() > 300_000, 'the checkpoint');
    expect(a.checkpointsHere()).toBe(1);
    expect(checkpointer.running()).toBe(false);
    await a.wal.close();
    a.db.close();
  });

  it('hands a file to a worker thread after heavy checkpoints in a row, which ends after idleWorkerMs and hands it back', async () => {
    // Every checkpoint counts as heavy here, none as heavy enough alone; two in a row start the worker.
    const checkpointer = new WalCheckpointer({ intervalMs: 20, idleWorkerMs: 100, heavyCheckpointMs: 0, heavyTicks: 2, veryHeavyCheckpointMs: Number.POSITIVE_INFINITY });
    const b = open(checkpointer, 'b.db');
    b.write(1, 100);
    await waitFor(() => b.checkpointsHere() === 1, 'the first heavy checkpoint');
    b.write(1, 100);
    await waitFor(() => b.checkpointsHere() === 2, 'the second heavy checkpoint');
    expect(checkpointer.running()).toBe(false);
    const before = b.size();
    b.write(5, 100);
    await waitFor(() => b.size() > before + 400_000, 'the worker checkpoint');
    expect(checkpointer.running()).toBe(true);
    expect(backgroundThreadsAlive()).toContain(BACKGROUND_THREADS.walCheckpoint);
    expect(b.checkpointsHere()).toBe(2);
    // The writer never waited for it: more writes go on, and reach the file through the worker too.
    b.write(5, 100);
    await waitFor(() => b.size() > before + 900_000, 'the second worker checkpoint');
    expect(b.checkpointsHere()).toBe(2);
    await waitFor(() => !checkpointer.running(), 'the idle worker to end');
    await waitFor(() => !backgroundThreadsAlive().includes(BACKGROUND_THREADS.walCheckpoint), 'its thread to end');
    // Back on the owner's connection.
    b.write(1, 100);
    await waitFor(() => b.checkpointsHere() === 3, 'a checkpoint on the owner connection');
    expect(checkpointer.running()).toBe(false);
    await b.wal.close();
    b.db.close();
  });

  it('closes the worker connection before the owner closes its own (the last connection removes the WAL)', async () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 20, heavyCheckpointMs: 0, heavyTicks: 1 });
    const c = open(checkpointer, 'c.db');
    c.write(1, 10);
    await waitFor(() => c.checkpointsHere() === 1, 'the heavy checkpoint');
    c.write(1, 200);
    await waitFor(() => checkpointer.running() && c.size() > 200_000, 'the worker checkpoint');
    await c.wal.close();
    c.db.close();
    expect(existsSync(`${c.file}-wal`)).toBe(false);
  });

  it('brings the next checkpoint forward when a commit finds the WAL past its bound, else waits for the interval', async () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 60_000, walBoundBytes: 200_000 });
    const small = open(checkpointer, 'small.db');
    small.write(1, 10);
    // Under the bound: nothing before the (minute-long) interval.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(small.checkpointsHere()).toBe(0);
    // Past it (a commit 20 ms or more after the last look): checkpointed at once.
    await new Promise((resolve) => setTimeout(resolve, 25));
    small.write(1, 400);
    await waitFor(() => small.checkpointsHere() === 1, 'the checkpoint brought forward'); // within waitFor's 15 s, under the minute's interval
    await small.wal.close();
    small.db.close();
  });

  it('resets and truncates a WAL past its bound once no reader holds it, where PASSIVE checkpoints alone leave it growing', () => {
    const file = join(dir, 'bounded.db');
    const writer = new DatabaseSync(file);
    writer.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x BLOB)');
    const reader = new DatabaseSync(file);
    const checkpointer = new DatabaseSync(file);
    const write = (kib: number): void => {
      writer.exec('BEGIN');
      for (let i = 0; i < kib; i++) writer.prepare('INSERT INTO t VALUES (randomblob(1000))').run();
      writer.exec('COMMIT');
    };
    const bound = 1024 * 1024;
    // A reader always under way, reading the WAL's latest pages: the writer never gets to restart the WAL, so the
    // file grows by every commit even though each checkpoint copies everything the reader does not pin.
    for (let round = 0; round < 6; round++) {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM t').get();
      write(500);
      const pinned = checkpointBounded(checkpointer, 0, 0, bound);
      expect(pinned.truncated).toBe(false);
      reader.exec('COMMIT');
    }
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(3 * bound);
    // Nothing holds it: the next checkpoint over the bound resets it and cuts the file to zero, nothing lost.
    const freed = checkpointBounded(checkpointer, 0, 0, bound);
    expect(freed.truncated).toBe(true);
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(Number(reader.prepare('SELECT count(*) AS n FROM t').get()?.['n'])).toBe(3000);
    // Under the bound a checkpoint stays PASSIVE: the WAL file is left for the next writer to reuse.
    write(100);
    expect(checkpointBounded(checkpointer, 0, 0, bound).truncated).toBe(false);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    for (const db of [reader, checkpointer, writer]) db.close();
  });

  it("holds a gated file's writes back while the worker resets its WAL past the reset mark, which waits for a reader rather than the writer", async () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 20, walBoundBytes: 200_000, walResetBytes: 600_000 });
    const g = open(checkpointer, 'gated.db', true);
    const reader = new DatabaseSync(g.file);
    // A read transaction pinning the WAL's frames: no reset can complete while it lasts.
    g.write(1, 10);
    reader.exec('BEGIN');
    expect(Number(reader.prepare('SELECT count(*) AS n FROM t').get()?.['n'])).toBe(10);
    expect(g.wal.ready()).toBeNull();
    // Past the reset mark (a commit 20 ms or more after the last look): the writes are held back.
    await new Promise((resolve) => setTimeout(resolve, 25));
    g.write(1, 800);
    const held = g.wal.ready();
    expect(held).not.toBeNull();
    let released = false;
    void held?.then(() => (released = true));
    // The reset waits for the reader (the worker's busy handler), not for a writer: once the reader ends, the WAL
    // is reset and cut to zero, and the writes go on.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(released).toBe(false);
    reader.exec('COMMIT');
    await held;
    expect(g.walSize()).toBe(0);
    expect(g.wal.ready()).toBeNull();
    expect(Number(reader.prepare('SELECT count(*) AS n FROM t').get()?.['n'])).toBe(810);
    // A file registered without `gated` is never held back: its checkpoints reset the WAL beside its writes.
    const free = open(checkpointer, 'free.db');
    await new Promise((resolve) => setTimeout(resolve, 25));
    free.write(1, 800);
    expect(free.wal.ready()).toBeNull();
    reader.close();
    await g.wal.close();
    await free.wal.close();
    g.db.close();
    free.db.close();
  });

  it("lets a gated file's writes go when the reset cannot complete, and holds them back again only after a while", async () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 20, walBoundBytes: 200_000, walResetBytes: 600_000 });
    const g = open(checkpointer, 'held.db', true);
    const reader = new DatabaseSync(g.file);
    g.write(1, 10);
    // A reader that outlasts the reset's wait (a long scan): the writes must not wait for it.
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) AS n FROM t').get();
    await new Promise((resolve) => setTimeout(resolve, 25));
    g.write(1, 800);
    const held = g.wal.ready();
    expect(held).not.toBeNull();
    await held;
    expect(g.walSize()).toBeGreaterThan(600_000);
    // The next commits past the mark are not held back again at once.
    await new Promise((resolve) => setTimeout(resolve, 25));
    g.write(1, 100);
    expect(g.wal.ready()).toBeNull();
    reader.exec('COMMIT');
    reader.close();
    await g.wal.close();
    g.db.close();
  });

  it('checkpoints on the owner connections when the worker fails, and says so once', async () => {
    const warnings: string[] = [];
    const checkpointer = new WalCheckpointer({
      intervalMs: 20,
      heavyCheckpointMs: 0,
      heavyTicks: 1,
      workerUrl: new URL('data:text/javascript,process.exit(3)'),
      warn: (message) => warnings.push(message),
    });
    const d = open(checkpointer, 'd.db');
    d.write(1, 10);
    await waitFor(() => d.checkpointsHere() === 1, 'the heavy checkpoint');
    d.write(1, 500);
    await waitFor(() => warnings.length === 1, 'the warning');
    expect(warnings[0]).toMatch(/exited \(code 3\).*writing connections/);
    // The checkpoint the worker never ran is run on the owner's connection, and so are the later ones.
    await waitFor(() => d.size() > 500_000, 'the checkpoint on the owner connection');
    expect(d.checkpointsHere()).toBe(2);
    d.write(1, 500);
    await waitFor(() => d.size() > 1_000_000, 'the next checkpoint');
    expect(warnings).toHaveLength(1);
    expect(checkpointer.running()).toBe(false);
    await d.wal.close();
    d.db.close();
  });
});
