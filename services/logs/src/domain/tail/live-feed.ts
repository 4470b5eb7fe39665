/**
 * In-process fan-out of stored logs to the live tails open on this process, per server. The
 * bus feed (bus-feed.ts) publishes to it each batch once it is known to be stored, whichever logs
 * replica stored it, so every log a tail sends is already in the store, and a resume that reads the
 * store after the last id it sent finds what followed.
 */
import type { LogRecord } from '@skald/ports';

export type LiveListener = (records: readonly LogRecord[]) => void;

export interface LiveLogFeed {
  /** Hands a stored batch of one server to that server's listeners, synchronously, in order. */
  publish(serverId: string, records: readonly LogRecord[]): void;
  /** Listens to one server's stored logs until the returned function is called. */
  subscribe(serverId: string, listener: LiveListener): () => void;
  /** Whether any listener follows the server. */
  listening(serverId: string): boolean;
  /** Servers with at least one listener. */
  servers(): number;
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
    listening: (serverId) => listeners.has(serverId),
    servers: () => listeners.size,
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
