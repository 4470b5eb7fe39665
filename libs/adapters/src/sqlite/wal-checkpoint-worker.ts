/**
 * The worker thread of wal-checkpointer.ts: one connection per registered database file, opened on its first
 * checkpoint, on which it runs PASSIVE checkpoints (they copy what the WAL holds into the database file without
 * waiting for, or blocking, the owner's writes), and the resets of a WAL past its bound (wal-bound.ts). Nothing
 * else is done on these connections.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort } from 'node:worker_threads';
import type { CheckpointReply, CheckpointRequest } from './wal-checkpoint-messages.ts';
import { checkpointBounded } from './wal-bound.ts';


/** How long a reset of an oversized WAL waits for the write lock and the readers on this thread. */
const TRUNCATE_BUSY_MS = 500;
/**
 * How long a reset a gated file's writer waits for (mode `reset`) waits for the readers: that writer holds no lock
 * meanwhile, so only readers (short ones: a seal worker's rows, a query) can hold it up.
 */
const RESET_BUSY_MS = 1_000;
const connections = new Map<string, DatabaseSync>();

function connection(file: string): DatabaseSync {
  let db = connections.get(file);
  if (db === undefined) {
    db = new DatabaseSync(file);
    // A checkpoint that meets a lock gives up at once: the next tick tries again.
    db.exec('PRAGMA busy_timeout = 0');
    connections.set(file, db);
  }
  return db;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function answer(request: CheckpointRequest): CheckpointReply {
  const { file } = request;
  if (request.kind === 'close') {
    connections.get(file)?.close();
    connections.delete(file);
    return { kind: 'closed', file };
  }
  try {
    // This thread may wait a little for the write lock of a reset (the owners' threads never wait on it long:
    // the PASSIVE pass before it copied nearly everything).
    const db = connection(file);
    const { walFrames, copiedFrames, truncated } =
      request.mode === 'reset'
        ? checkpointBounded(db, RESET_BUSY_MS, 0, 0)
        : request.mode === 'passive'
          ? checkpointBounded(db, 0, 0, Number.POSITIVE_INFINITY)
          : checkpointBounded(db, TRUNCATE_BUSY_MS, 0);
    return { kind: 'checkpointed', file, walFrames, copiedFrames, truncated };
  } catch (error) {
    return { kind: 'failed', file, reason: describe(error) };
  }
}

// Only as a worker thread; imported anywhere else (the image build imports every module to fill Node's
// compile cache, scripts/warm-compile-cache.ts) it does nothing.
const port = parentPort;
port?.on('message', (request: CheckpointRequest) => {
  port.postMessage(answer(request));
});
