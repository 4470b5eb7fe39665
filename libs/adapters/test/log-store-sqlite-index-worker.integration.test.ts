/**
 * The log store file's search indexing worker (search-index-worker.ts, search-index-thread.ts): it starts only
 * when rows wait, retires when idle, writes beside the store's connection without the store ever blocking
 * its thread on the worker's lock, and hands indexing back to the store's thread if it fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogRecord } from '@skald/ports';
import { SqliteLogStore } from '../src/log-store/index.ts';
import { SearchIndexThread } from '../src/log-store/search-index-thread.ts';
import { BACKGROUND_THREADS, backgroundThreadsAlive } from '../src/background-threads.ts';

const T0 = Date.UTC(2026, 0, 5);
let dir: string;

function log(i: number, message = `player ${i} joined the arena`): LogRecord {
  return {
    id: `log-${String(i).padStart(6, '0')}`,
    serverId: 's1',
    createdAt: T0 + i,
    level: 'info',
    type: 'join',
    resource: 'core',
    message,
    metadata: null,
    logType: 'text',
    imageKey: null,
    thumbKey: null,
    expiresAt: T0 + i + 86_400_000,
  };
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function unindexedIn(file: string): number {
  const check = new DatabaseSync(file, { readOnly: true });
  try {
    return Number(check.prepare('SELECT count(*) AS n FROM logs WHERE fts_rowid IS NULL').get()?.['n']);
  } finally {
    check.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skald-index-worker-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite log store: the indexing worker', () => {
  it('indexes light chunks on the store thread, moves heavy indexing to the worker, and comes back when it is idle', async () => {
    const file = join(dir, 'logs.db');
    const store = new SqliteLogStore(file, { indexChunkSize: 50, indexGatherMs: 20, indexWorkerIdleMs: 100, indexWorkerChunkMs: 1_000 });
    // Light chunks (a chunk under 1 s here): indexed on the store's thread, no worker.
    await store.insertBatch(Array.from({ length: 120 }, (_, i) => log(i)));
    await waitFor(() => unindexedIn(file) === 0, 'the rows indexed on the store thread');
    expect(store.indexWorkerRunning).toBe(false);
    await store.close();
    // Every chunk with rows heavy (0 ms): the worker takes over.
    const busy = new SqliteLogStore(file, { indexChunkSize: 50, indexGatherMs: 20, indexWorkerIdleMs: 100, indexWorkerChunkMs: 0 });
    await busy.insertBatch(Array.from({ length: 120 }, (_, i) => log(1000 + i)));
    await waitFor(() => busy.indexWorkerRunning, 'the worker to start');
    // Named, so that `top -H` (and the idle-memory bench) can tell it is alive. The new thread names itself
    // once it runs, which on a busy machine is a while after the Worker object exists.
    await waitFor(() => backgroundThreadsAlive().includes(BACKGROUND_THREADS.searchIndex), 'the worker thread to carry its name');
    await busy.insertBatch(Array.from({ length: 120 }, (_, i) => log(2000 + i)));
    await waitFor(() => unindexedIn(file) === 0, 'every row indexed');
    expect((await busy.query({ serverId: 's1', search: 'arena', offset: 0, limit: 5 })).total).toBe(360);
    // Idle: the worker retires and the store's thread indexes again (and the worker comes back when needed).
    await waitFor(() => !busy.indexWorkerRunning, 'the idle worker to retire');
    await waitFor(() => !backgroundThreadsAlive().includes(BACKGROUND_THREADS.searchIndex), 'the retired worker\'s thread to end');
    await busy.insertBatch(Array.from({ length: 120 }, (_, i) => log(3000 + i)));
    await waitFor(() => unindexedIn(file) === 0, 'rows after the retirement');
    expect((await busy.query({ serverId: 's1', search: 'arena', offset: 0, limit: 5 })).total).toBe(480);
    await busy.close();
  });

  it('close() with the worker running ends a script that has nothing else to do (the worker is awaited, not left behind)', () => {
    // The whole process is the test: nothing else keeps its event loop alive, as in a CLI or a bench.
    const script = join(dir, 'close-last.ts');
    const store = new URL('../src/log-store/index.ts', import.meta.url).href;
    writeFileSync(
      script,
      `import { SqliteLogStore } from ${JSON.stringify(store)};
const store = new SqliteLogStore(${JSON.stringify(join(dir, 'logs.db'))}, { indexChunkSize: 50, indexWorkerChunkMs: 0 });
const rows = Array.from({ length: 400 }, (_, i) => ({ id: 'log-' + i, serverId: 's1', createdAt: ${T0} + i, level: 'info', type: 'join',
  resource: 'core', message: 'player ' + i + ' joined', metadata: null, logType: 'text', imageKey: null, thumbKey: null, expiresAt: ${T0} + i + 86400000 }));
await store.insertBatch(rows);
while (!store.indexWorkerRunning) await new Promise((resolve) => setTimeout(resolve, 5));
await store.close();
console.log('closed');
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).not.toContain('unsettled top-level await');
    expect(run.stdout.trim()).toBe('closed');
    expect(run.status).toBe(0);
  });

  it('an idle store pays for no worker, and a backlog found at open is indexed', async () => {
    const file = join(dir, 'logs.db');
    const unindexed = new SqliteLogStore(file, { searchIndex: 'off' });
    await unindexed.insertBatch(Array.from({ length: 300 }, (_, i) => log(i)));
    await unindexed.close();
    const reopened = new SqliteLogStore(file, { indexChunkSize: 50, indexWorkerChunkMs: 0, indexWorkerIdleMs: 60_000 });
    await waitFor(() => unindexedIn(file) === 0, 'the backlog');
    expect(reopened.indexWorkerRunning).toBe(true);
    await reopened.close();
    // Caught up, a few rows now and then (however slow their chunk: here every chunk counts as slow) start no worker.
    const caughtUp = new SqliteLogStore(file, { indexChunkSize: 50, indexGatherMs: 10, indexWorkerChunkMs: 0 });
    for (let round = 0; round < 3; round++) {
      await caughtUp.insertBatch(Array.from({ length: 10 }, (_, i) => log(1000 + round * 10 + i)));
      await waitFor(() => unindexedIn(file) === 0, 'a few rows');
    }
    expect(caughtUp.indexWorkerRunning).toBe(false);
    await caughtUp.close();
  });

  it('a write meeting another connection\'s lock waits without blocking the thread, then stores everything', async () => {
    const file = join(dir, 'logs.db');
    const store = new SqliteLogStore(file, { indexGatherMs: 10 });
    await store.insertBatch([log(0)]);
    // Another connection holds the write lock, as the worker does during a chunk.
    const other = new DatabaseSync(file);
    other.exec('BEGIN IMMEDIATE');
    let turns = 0;
    const ticker = setInterval(() => {
      turns += 1;
    }, 5);
    let settled = 0;
    const inserting = store.insertBatch(Array.from({ length: 10 }, (_, i) => log(100 + i))).finally(() => (settled += 1));
    const deleting = store.deleteOldest('s1', 'text', 5).finally(() => (settled += 1));
    // The thread keeps turning while both writes wait for the lock (a thread blocked on it would not tick),
    // and neither write can finish while the other connection holds it.
    await waitFor(() => turns > 5, 'the thread to keep turning while the writes wait');
    expect(settled).toBe(0);
    other.exec('COMMIT');
    other.close();
    clearInterval(ticker);
    expect(await inserting).toEqual({ inserted: 10 });
    expect((await deleting).deletedCount).toBeGreaterThanOrEqual(0);
    const page = await store.query({ serverId: 's1', offset: 0, limit: 100 });
    // Both ran, one after the other, in whichever order they took the lock: the insert then the delete keeps
    // the newest 5; the delete (keeping the one row there was) then the insert leaves 11.
    expect([5, 11]).toContain(page.total);
    await store.close();
  });

  it('hands indexing back when the worker fails', async () => {
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('no worker today');\n");
    const reasons: string[] = [];
    const thread = new SearchIndexThread({
      file: join(dir, 'logs.db'),
      chunkRows: 10,
      gatherMs: 10,
      workerUrl: new URL(`file://${broken}`),
      onChunkDone: () => undefined,
      onRetired: () => undefined,
      onFailed: (reason) => reasons.push(reason),
    });
    thread.stored(1, [1]);
    await waitFor(() => reasons.length > 0, 'the failure');
    expect(reasons[0]).toContain('no worker today');
    expect(thread.failed).toBe(true);
    // Nothing more is sent to a failed worker.
    thread.stored(1, [1]);
    expect(thread.running).toBe(false);
    await thread.close();
  });

  it('tells the worker of the commits made while it is busy with the last message in one message', async () => {
    // A stand-in worker that writes down every message it gets and never answers (a long chunk).
    const told = join(dir, 'told.jsonl');
    const recorder = join(dir, 'recording-worker.mjs');
    writeFileSync(
      recorder,
      [
        "import { appendFileSync } from 'node:fs';",
        "import { parentPort } from 'node:worker_threads';",
        "parentPort.on('message', (m) => {",
        `  appendFileSync(${JSON.stringify(told)}, JSON.stringify(m) + '\\n');`,
        "  if (m.kind === 'close') { parentPort.postMessage({ kind: 'closed' }); parentPort.close(); }",
        '});',
      ].join('\n'),
    );
    const thread = new SearchIndexThread({
      file: join(dir, 'logs.db'),
      chunkRows: 10,
      gatherMs: 10,
      workerUrl: new URL(`file://${recorder}`),
      onChunkDone: () => undefined,
      onRetired: () => undefined,
      onFailed: () => undefined,
    });
    const messages = () => {
      try {
        return readFileSync(told, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);
      } catch {
        return [];
      }
    };
    thread.stored(3, [1]);
    thread.stored(2, [2]);
    thread.stored(4, [1]);
    await waitFor(() => messages().length >= 2, 'the held commits to be told');
    // Give a third message the time to arrive if one were sent per commit.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages()).toEqual([
      { kind: 'stored', rows: 3, serverKeys: [1] },
      { kind: 'stored', rows: 6, serverKeys: [2, 1] },
    ]);
    await thread.close();
  });
});
