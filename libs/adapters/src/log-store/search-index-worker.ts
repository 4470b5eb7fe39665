/**
 * The indexing worker of a store file (search-index-thread.ts starts it): its own connection to the store's
 * file, the same SearchIndexer and the same schedule (index-schedule.ts) as the store's own thread would
 * run, off the event loop that answers requests. A chunk takes ~6-20 ms (200 rows at 30-100 µs); on the
 * store's thread every request that arrived meanwhile waited for it, which made most of the single-log
 * p99 (docs/PERFORMANCE.md). Its transactions hold SQLite's write lock; the store's connection does not wait
 * on the lock but retries its write a moment later (sqlite-log-connection.ts, write), and reads never wait.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { IndexSchedule } from './index-schedule.ts';
import { SearchIndexer } from './sqlite-log-search.ts';
import { checkpointBounded, walPastBound } from '../sqlite/wal-bound.ts';
import { writeTransaction } from '../sqlite/transaction.ts';
import type { SearchIndexReply, SearchIndexRequest, SearchIndexWorkerData } from './search-index-messages.ts';

/** The worker blocks on the store's write lock (its own thread: nothing else waits on it). */
const LOCK_WAIT_MS = 10_000;
/** How long a reset of an oversized WAL waits for the store's write transactions (short) and its readers. */
const RESET_WAIT_MS = 1_000;

/**
 * Linux nice value of this thread: 19, the lowest priority short of SCHED_IDLE, a weight of ~1.5% of a normal
 * thread's. When the store's thread has work (requests) the kernel gives the indexer almost nothing of a shared
 * core and lets requests preempt it at once; whenever the process waits (between bursts, idle) the indexer
 * gets the whole core. Under sustained ingestion at the core's capacity the index therefore lags, and searches
 * stay exact by scanning the rows not indexed yet (sqlite-log-search.ts): acknowledging logs comes first.
 * At nice 10 (a tenth of the core) the indexer took 9-10% of the all-in-one's CPU per single-log request
 * while never catching up anyway (it indexes at 30-100 µs a row; docs/DECISIONS.md, "Performance").
 */
const INDEXER_NICE = 19;

/** Lowers this thread's priority (Linux: setpriority on the thread id); elsewhere it runs at normal priority. */
function lowerPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, INDEXER_NICE);
  } catch {
    // No /proc (not Linux) or not permitted: normal priority, bounded by the schedule alone.
  }
}

function start(port: NonNullable<typeof parentPort>, data: SearchIndexWorkerData): void {
  lowerPriority();
  const db = new DatabaseSync(data.file, { timeout: LOCK_WAIT_MS });
  // The store's checkpointer runs the checkpoints (told after each chunk); none inside this thread's commits.
  // A modest page cache of its own (the store's connection keeps the large one): FTS5 merges reread recent segments.
  db.exec('PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -16384');
  const indexer = new SearchIndexer(db);
  const reply = (message: SearchIndexReply) => port.postMessage(message);
  const schedule = new IndexSchedule({ chunkRows: data.chunkRows, gatherMs: data.gatherMs }, (maxRows) => {
    let rows = 0;
    try {
      rows = writeTransaction(db, () => {
        // The store's connection commits between this thread's chunks (inserts, deletes, its own indexPending).
        indexer.forgetCaches();
        return indexer.indexChunk(maxRows);
      });
    } catch (error) {
      indexer.reset();
      throw error;
    } finally {
      reply({ kind: 'chunk-done', rows });
    }
    // Right after its commit this thread holds no lock: the moment a WAL past its bound can be reset. The
    // checkpointer's own tries meet this thread's write transactions (long ones at nice 19 under load) and can
    // keep failing, and the WAL then grows by every chunk (measured: 550 MiB for 50,000 FiveM lines).
    if (walPastBound(data.file)) checkpointBounded(db, RESET_WAIT_MS, LOCK_WAIT_MS);
    if (rows < maxRows) reply({ kind: 'caught-up' });
    return rows;
  });
  port.on('message', (request: SearchIndexRequest) => {
    if (request.kind === 'stored') {
      indexer.markPending(request.serverKeys);
      schedule.stored(request.rows);
      return;
    }
    schedule.stop();
    db.close();
    reply({ kind: 'closed' });
    port.close();
  });
  // Whatever waited when it started (rows of a migrated file, a backlog left by a restart).
  schedule.kick();
}

function isOwnData(data: unknown): data is SearchIndexWorkerData {
  return typeof data === 'object' && data !== null && 'role' in data && data.role === 'skald-search-index';
}

// Only as the worker search-index-thread.ts starts; imported anywhere else (the image build imports every
// module to fill Node's compile cache, scripts/warm-compile-cache.ts; a test runner's own worker thread) it
// does nothing.
if (parentPort !== null && isOwnData(workerData)) start(parentPort, workerData);
