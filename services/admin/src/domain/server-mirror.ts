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
 */
import type { Overview, OverviewServer } from './overview.ts';

export interface ServerMirror {
  /** Every server auth announced, as of at most refreshMs ago. */
  knownServers(): Promise<OverviewServer[]>;
}

export function createServerMirror(overview: Pick<Overview, 'servers'>, options: { refreshMs: number; overlapMs: number; now?: () => number }): ServerMirror {
  const now = options.now ?? Date.now;
  const byId = new Map<string, OverviewServer>();
  let watermark: number | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<void> | null = null;

  async function refresh(): Promise<void> {
    const started = now();
    const changed = watermark === null ? await overview.servers.find({}) : await overview.servers.find({ changedAt: { $gte: watermark - options.overlapMs } });
    for (const server of changed) {
      if (server.known === true) byId.set(server._id, server);
      else byId.delete(server._id);
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
  };
}
