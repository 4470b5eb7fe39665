/**
 * The block store's seal worker (block-seal-thread.ts starts it): a read connection of its own to the store's
 * file, on which it reads a seal's rows and computes the block (block-seal.ts), off the event loop that
 * acknowledges logs. It writes nothing: the store's thread inserts the block and deletes the rows in its own
 * transaction, so a SIGKILL meets the same transaction as before, and no lock is shared.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { sealOn } from './block-seal.ts';
import { TextDictionaries } from './block-text-dictionaries.ts';
import type { SealReply, SealRequest, SealWorkerData } from './block-seal-thread.ts';

/** Reads wait this long for a WAL reset or recovery under way (they never wait for writers). */
const READ_WAIT_MS = 10_000;

function start(port: NonNullable<typeof parentPort>, data: SealWorkerData): void {
  const db = new DatabaseSync(data.file, { readOnly: true, timeout: READ_WAIT_MS });
  const dictionaries = new TextDictionaries((sql) => db.prepare(sql), data.textGroupRows);
  port.on('message', (request: SealRequest) => {
    if (request.kind === 'close') {
      db.close();
      port.postMessage({ kind: 'closed' } satisfies SealReply);
      port.close();
      return;
    }
    const { id } = request;
    let reply: SealReply;
    try {
      // The store's thread may send the stream's next rows to another worker once these are read.
      const job = sealOn(db, request.input, data.level, (rows, last) => port.postMessage({ kind: 'read', id, rows, last } satisfies SealReply), dictionaries);
      reply = { kind: 'sealed', id, job };
    } catch (error) {
      reply = { kind: 'failed', id, message: String(error) };
    }
    port.postMessage(reply);
  });
}

function isOwnData(data: unknown): data is SealWorkerData {
  return typeof data === 'object' && data !== null && 'role' in data && data.role === 'skald-block-seal';
}

// Only as the worker block-seal-thread.ts starts; imported anywhere else (the compile cache's warm-up, a test
// runner's own worker thread) it does nothing.
if (parentPort !== null && isOwnData(workerData)) start(parentPort, workerData);
