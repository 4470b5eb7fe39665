/**
 * A worker thread that counts on its own read-only connection to the log store's file (WAL: readers
 * never wait for the writer). The store hands it the older half of a broad search's exact total while
 * its own thread counts the newer half, so a count of 100,000 matches takes about half the wall-clock
 * time on a machine with a free core, and the thread serving requests is held for half as long.
 * Messages in: { id, sql, params }; out: { id, n } or { id, error }.
 */
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

interface CountRequest {
  readonly id: number;
  readonly sql: string;
  readonly params: SQLInputValue[];
}

const { file } = workerData as { file: string };
const db = new DatabaseSync(file, { readOnly: true });
// Small own page cache: the pages it reads are the FTS index's, which the OS page cache and the mmap share.
db.exec('PRAGMA cache_size = -16384; PRAGMA mmap_size = 4294967296;');

parentPort?.on('message', (request: CountRequest) => {
  try {
    const row = db.prepare(request.sql).get(...request.params);
    parentPort?.postMessage({ id: request.id, n: Number(row?.['n'] ?? 0) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
