/**
 * The recorder's worker thread as shipped (player-recorder-worker.ts: the queue read back from the log
 * store in runs, extraction), whose runs record either into the shipped player store or into the prototype
 * (players-prototype-store.ts: no (player, log) rows, no counts), as players-ingest-api.ts sets a shared flag
 * before each round: 0 the shipped store, 1 the prototype (the queue rows then dropped through the store with
 * nothing to record), 2 both (the fill, so that both know the players). Started in place of the shipped
 * module through the player store's startWorker.
 */
import type { MessagePort } from 'node:worker_threads';
import type { LogMentions, PlayerStore } from '@skald/ports';
import recordPlayers from '../../../services/logs/src/domain/players/player-recorder-worker.ts';
import { PrototypePlayers } from './players-prototype-store.ts';

export interface PrototypeWorkerData {
  readonly delayMs: number;
  /** Int32Array over it: [0] the recording mode (0 shipped, 1 prototype, 2 both). */
  readonly mode: SharedArrayBuffer;
  /** The prototype's SQLite file. */
  readonly file: string;
}

export const RECORD_SHIPPED = 0;
export const RECORD_PROTOTYPE = 1;
export const RECORD_BOTH = 2;

export default function recordWithPrototype(store: PlayerStore, port: MessagePort, data: unknown): void {
  const { mode, file } = data as PrototypeWorkerData;
  const flag = new Int32Array(mode);
  const prototype = new PrototypePlayers(file);
  const record = async (logs: readonly LogMentions[], through?: number): Promise<void> => {
    const now = Atomics.load(flag, 0);
    if (now !== RECORD_SHIPPED) {
      prototype.record(logs);
      prototype.writeSeenTimesIfDue();
    }
    await store.record(now === RECORD_PROTOTYPE ? [] : logs, through);
  };
  const switching = new Proxy(store, {
    get(target, property) {
      if (property === 'record') return record;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  recordPlayers(switching, port, data);
}
