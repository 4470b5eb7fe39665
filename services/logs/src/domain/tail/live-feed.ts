/**
 * In-process fan-out of the logs this process has just stored, to the live tails open on it (issue 17).
 * The batch consumer publishes right after its insert committed, so every log a tail sends is already in
 * the store, and a resume that reads the store after the last id it sent finds what followed.
 * It is not a bus: a tail sees the batches stored by its own process (docs/ARCHITECTURE.md, Known gaps).
 */
import type { LogRecord } from '@skald/ports';

export type LiveListener = (records: readonly LogRecord[]) => void;

export interface LiveLogFeed {
  /** Hands a stored batch of one server to that server's listeners, synchronously, in order. */
  publish(serverId: string, records: readonly LogRecord[]): void;
  /** Listens to one server's stored logs until the returned function is called. */
  subscribe(serverId: string, listener: LiveListener): () => void;
}

export function createLiveLogFeed(onListenerError: (error: unknown) => void): LiveLogFeed {
  const listeners = new Map<string, Set<LiveListener>>();
  return {
    publish(serverId, records) {
      const forServer = listeners.get(serverId);
      if (!forServer || records.length === 0) return;
      for (const listener of [...forServer]) {
        // One broken tail must neither stop the others nor fail the consumer (the batch is stored already).
        try {
          listener(records);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(serverId, listener) {
      let forServer = listeners.get(serverId);
      if (!forServer) listeners.set(serverId, (forServer = new Set()));
      forServer.add(listener);
      return () => {
        forServer.delete(listener);
        if (forServer.size === 0 && listeners.get(serverId) === forServer) listeners.delete(serverId);
      };
    },
  };
}
