/**
 * A worker thread with its own connection to an embedded player store (SqlitePlayerStore.startWorker): it
 * opens the file and hands the connection to the module its starter named (the logs service's recorder),
 * so that work runs off the thread that stores logs and answers requests. The connection checkpoints the
 * WAL inside its own commits (on this thread), not through the process's checkpointer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PlayerStoreWorkerMain } from '@skald/ports';
import { SqlitePlayerStore } from './sqlite-player-store.ts';

export interface PlayerStoreWorkerData {
  /** Marks the data as this worker's: the module does nothing in a thread started for anything else. */
  readonly role: 'skald-player-store';
  readonly file: string;
  /** The log store's file the queue's keys are read back from (SqlitePlayerStoreOptions.logFile). */
  readonly logFile: string | undefined;
  /** The module to run (file URL): its default export is a PlayerStoreWorkerMain. */
  readonly module: string;
  readonly data: unknown;
}

function isOwnData(data: unknown): data is PlayerStoreWorkerData {
  return typeof data === 'object' && data !== null && 'role' in data && data.role === 'skald-player-store';
}

async function start(port: NonNullable<typeof parentPort>, data: PlayerStoreWorkerData): Promise<void> {
  const store = new SqlitePlayerStore(data.file, { walCheckpointer: null, ...(data.logFile === undefined ? {} : { logFile: data.logFile }) });
  const loaded = (await import(data.module)) as { default: PlayerStoreWorkerMain };
  await loaded.default(store, port, data.data);
}

// Only as the worker SqlitePlayerStore.startWorker starts; imported anywhere else (the image build's compile
// cache warm-up, a test runner's worker) it does nothing. A failure to start ends the thread with an error
// its starter hears ('error').
if (parentPort !== null && isOwnData(workerData)) await start(parentPort, workerData);
