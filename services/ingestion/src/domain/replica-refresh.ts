/**
 * Per-replica cache coherence of the API-key read model: every replica re-reads, every
 * KEY_REFRESH_INTERVAL_MS, the key documents another replica changed (a replica only applies the identity
 * events its own consumer received; the consumer group spreads them across replicas).
 *
 * Deliberately a per-process timer, NOT a JobQueue job: a queued job runs on ONE replica, but here EVERY
 * replica must refresh ITS OWN memory. It is cache maintenance, not business work, and missing a turn only
 * delays a key change by one interval (the next turn re-reads with an overlap).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { KeyDirectory } from './key-directory.ts';

/** How often a replica re-reads key documents changed by other replicas. */
export const KEY_REFRESH_INTERVAL_MS = 2_000;

export interface ReplicaRefresh {
  stop(): void;
}

export function startReplicaRefresh(directory: KeyDirectory, log: FastifyBaseLogger, everyMs: number = KEY_REFRESH_INTERVAL_MS): ReplicaRefresh {
  let running = false;
  const timer = setInterval(() => {
    // One refresh at a time: a slow store must not pile up overlapping reads.
    if (running) return;
    running = true;
    directory
      .refresh()
      .catch((error: unknown) => log.warn({ err: error }, 'API-key read model refresh failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  // Never keeps the process alive on its own: stop() is the orderly end, exit is fine too.
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
