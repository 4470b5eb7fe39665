/**
 * GET /server/usage/{id} (docs/spec/part-1.txt section 3 Server usage). `used` is read from the SAME quota counter the
 * ingestion service consumes (key from @skald/contracts quotaKey), so both agree across instances.
 */
import { QUOTA_WINDOW_MS, quotaKey, quotaWindowStart } from '@skald/contracts';
import type { ServerUsage, Tier } from '@skald/contracts';
import type { Counters } from '@skald/ports';

/** `caseBytes`: what the server's evidence cases hold (their own photo copies), counted in its storage. */
export async function serverUsage(counters: Counters, serverId: string, tier: Tier, now: number, caseBytes: number): Promise<ServerUsage> {
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
    maxAlertRules: tier.maxAlertRules,
    maxCases: tier.maxCases,
    caseBytes,
  };
}
