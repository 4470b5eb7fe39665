/**
 * The names the adapters give their worker threads. The OS shows them (`top -H`, /proc/<pid>/task/<tid>/comm,
 * at most 15 characters), so an operator, a test or the idle-memory bench can tell which background work
 * is alive: each such worker holds its own V8 isolate (~15 MiB).
 */
import { readdirSync, readFileSync } from 'node:fs';

export const BACKGROUND_THREADS = {
  /** The log store's search indexer (log-store/search-index-thread.ts), alive under heavy writes. */
  searchIndex: 'search-index',
  /** The WAL checkpointer's worker (sqlite/wal-checkpointer.ts), alive under sustained heavy writes. */
  walCheckpoint: 'wal-checkpoint',
  /** The block log store's sealer (log-store/block-seal-thread.ts), alive while it seals blocks. */
  blockSeal: 'block-seal',
  /** A second connection to the player store (player-store/player-store-worker.ts): the logs service's player recorder, alive while it records. */
  playerStore: 'player-store',
} as const;

export type BackgroundThread = (typeof BACKGROUND_THREADS)[keyof typeof BACKGROUND_THREADS];

const NAMES: ReadonlySet<string> = new Set(Object.values(BACKGROUND_THREADS));

/** The adapters' worker threads alive in this process now, by name (Linux; [] where /proc is not there). */
export function backgroundThreadsAlive(): BackgroundThread[] {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return [];
  }
  return tids.flatMap((tid) => {
    let name: string;
    try {
      name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    } catch {
      return []; // the thread ended while the folder was read
    }
    return NAMES.has(name) ? [name as BackgroundThread] : [];
  });
}
