/**
 * GET /server/usage/{id} (spec 000 §3 Server usage). `used` is read from the SAME quota counter the
 * ingestion service consumes (key from @skald/contracts quotaKey), so both agree across instances.
 */
import { QUOTA_WINDOW_MS, quotaKey, quotaWindowStart, tierOf } from '@skald/contracts';
import type { Counters } from '@skald/ports';
import type { ServerInfo } from './server-directory.ts';

export interface ServerUsage {
  readonly used: number;
  readonly limit: number;
  /** ISO time at which the hourly window resets. */
  readonly reset: string;
  readonly tierLabel: string;
  readonly retentionDays: number;
  readonly maxBackups: number;
  readonly maxWebhooks: number;
  readonly maxPhotoLogs: number;
}

export async function serverUsage(counters: Counters, serverId: string, info: ServerInfo | null, now: number): Promise<ServerUsage> {
  const tier = tierOf(info?.tier ?? 'free');
  const windowStart = quotaWindowStart(now);
  const window = await counters.peek(quotaKey(serverId, windowStart), tier.limit, QUOTA_WINDOW_MS);
  return {
    used: window.used,
    limit: tier.limit,
    reset: new Date(windowStart + QUOTA_WINDOW_MS).toISOString(),
    tierLabel: tier.label,
    retentionDays: tier.retentionDays,
    maxBackups: tier.maxBackups,
    maxWebhooks: tier.maxWebhooks,
    maxPhotoLogs: tier.maxPhotoLogs,
  };
}
