/**
 * Each replica's in-memory copy of the read model's servers (overview.ts), for the whole-site answers
 * (GET /admin/servers, the server half of GET /admin/stats): reading 5,000 server documents from the store
 * costs about 100 ms, far more than a request should pay on every 10-second poll of every open staff tab.
 *
 * The copy is loaded once, then brought up to date before an answer when it is older than `refreshMs`,
 * by reading only the documents stamped (changedAt) since its last look, minus `overlapMs`: writes of
 * another replica's consumer, stamped a moment before they became visible or by a clock slightly behind,
 * are read again rather than missed. Deleted servers are tombstones (known false) in the store, so the copy
 * learns of them the same way.
 *
 * Log counts: the store holds the logs service's history facts (at most a minute old); its live facts
 * (logs.server-counts-live, every few seconds per changed server) reach every replica through an observer
 * (events/live-counts-observer.ts) and are laid over the copy here, in memory only: the fact counted last
 * wins. A live fact is dropped once the store holds figures counted as late, so what is kept is at most one
 * fact per server whose logs changed in the last minute. A replica that starts has none: until its first live
 * fact, a server shows the store's figures.
 */
import { isLater } from './overview.ts';
import type { LogCountsFact, Overview, OverviewServer } from './overview.ts';

export interface ServerMirror {
  /** Every server auth announced, as of at most refreshMs ago, with the latest log counts seen. */
  knownServers(): Promise<OverviewServer[]>;
  /** A live counts fact: kept and laid over the server unless its figures are older than those held. */
  applyLiveCounts(fact: LogCountsFact): void;
}

export function createServerMirror(overview: Pick<Overview, 'servers'>, options: { refreshMs: number; overlapMs: number; now?: () => number }): ServerMirror {
  const now = options.now ?? Date.now;
  const byId = new Map<string, OverviewServer>();
  /** Live facts newer than the store's figures of their server. */
  const live = new Map<string, LogCountsFact>();
  let watermark: number | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<void> | null = null;

  /** The server with the latest log counts this replica has seen. */
  function withLiveCounts(server: OverviewServer): OverviewServer {
    const fact = live.get(server._id);
    if (fact === undefined) return server;
    if (server.countedAt !== undefined && !isLater(fact.countedAt, server.countedAt)) {
      live.delete(server._id); // the store caught up
      return server;
    }
    return { ...server, logs: fact.logs, photoLogs: fact.photoLogs, days: fact.days, countedAt: fact.countedAt };
  }

  async function refresh(): Promise<void> {
    const started = now();
    const changed = watermark === null ? await overview.servers.find({}) : await overview.servers.find({ changedAt: { $gte: watermark - options.overlapMs } });
    for (const server of changed) {
      if (server.known === true) byId.set(server._id, withLiveCounts(server));
      else {
        byId.delete(server._id);
        live.delete(server._id);
      }
      if (server.changedAt !== undefined) watermark = Math.max(watermark ?? 0, server.changedAt);
    }
    watermark ??= 0;
    checkedAt = started;
  }

  return {
    async knownServers() {
      if (now() - checkedAt >= options.refreshMs) {
        refreshing ??= refresh().finally(() => (refreshing = null));
        await refreshing;
      }
      return [...byId.values()];
    },
    applyLiveCounts(fact) {
      const held = live.get(fact.serverId) ?? byId.get(fact.serverId);
      if (held?.countedAt !== undefined && isLater(held.countedAt, fact.countedAt)) return;
      live.set(fact.serverId, fact);
      const server = byId.get(fact.serverId);
      if (server !== undefined) byId.set(fact.serverId, withLiveCounts(server));
    },
  };
}
