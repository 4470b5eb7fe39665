/**
 * The monthly export count: one counter per server and calendar month (UTC), shared by every
 * instance through the Counters port (Redis in the distributed form: one atomic Lua step per take). An
 * export takes one before it starts; a request that then fails gives it back; the (limit+1)th answers 429.
 * A new month is a new key, so the count starts again at 0 (the old key expires on its own).
 */
import { EXPORT_LIMIT_REACHED } from '@skald/contracts';
import type { ExportStatus } from '@skald/contracts';
import type { Counters } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import { tierOfServer } from '../server-directory.ts';
import type { ServerDirectory } from '../server-directory.ts';

/** Longer than any month: a month's key outlives the month and then expires. */
export const EXPORT_COUNT_WINDOW_MS = 32 * 86_400_000;

export function exportCountKey(serverId: string, now: number): string {
  return `exports:${serverId}:${new Date(now).toISOString().slice(0, 7)}`;
}

export interface ExportTicket {
  /** Gives the export back to the month's count (the request failed). Safe to call more than once. */
  refund(): Promise<void>;
}

export interface ExportLimit {
  status(serverId: string): Promise<ExportStatus>;
  /** Counts one export, or throws 429 at the tier's maxExportsPerMonth (nothing counted). */
  take(serverId: string): Promise<ExportTicket>;
}

export function createExportLimit(deps: { counters: Counters; directory: ServerDirectory; now: () => number }): ExportLimit {
  return {
    async status(serverId) {
      const limit = (await tierOfServer(deps.directory, serverId)).maxExportsPerMonth;
      const used = (await deps.counters.peek(exportCountKey(serverId, deps.now()), limit, EXPORT_COUNT_WINDOW_MS)).used;
      return { used, limit };
    },
    async take(serverId) {
      const limit = (await tierOfServer(deps.directory, serverId)).maxExportsPerMonth;
      const key = exportCountKey(serverId, deps.now());
      const result = await deps.counters.consume(key, 1, limit, EXPORT_COUNT_WINDOW_MS);
      if (!result.allowed) throw new HttpError(429, EXPORT_LIMIT_REACHED, { extra: { used: result.used, limit } });
      let refunded = false;
      return {
        async refund() {
          if (refunded) return;
          refunded = true;
          await deps.counters.release(key, 1);
        },
      };
    },
  };
}
