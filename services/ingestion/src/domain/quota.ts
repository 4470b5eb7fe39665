/**
 * The tier's logs-per-hour quota, counted per log (a batch of 500 uses 500 points, all or nothing) in a
 * clock-hour window shared by every instance through the Counters port (Redis in production).
 */
import { QUOTA_WINDOW_MS, quotaKey, quotaWindowStart } from '@skald/contracts';
import type { Tier } from '@skald/contracts';
import type { Counters } from '@skald/ports';

export interface UsageSnapshot {
  readonly used: number;
  readonly limit: number;
  readonly remaining: number;
  /** ISO time at which the window resets. */
  readonly reset: string;
  readonly tierLabel: string;
}

export interface QuotaDecision {
  readonly allowed: boolean;
  readonly usage: UsageSnapshot;
  /** Whole seconds until the window resets (for Retry-After), at least 1. */
  readonly retryAfterSeconds: number;
}

export async function consumeQuota(
  counters: Counters,
  serverId: string,
  tier: Tier,
  logs: number,
  now: number,
): Promise<QuotaDecision> {
  const windowStart = quotaWindowStart(now);
  const resetAt = windowStart + QUOTA_WINDOW_MS;
  const result = await counters.consume(quotaKey(serverId, windowStart), logs, tier.limit, QUOTA_WINDOW_MS);
  return {
    allowed: result.allowed,
    usage: {
      used: result.used,
      limit: tier.limit,
      remaining: Math.max(0, tier.limit - result.used),
      reset: resetIso(resetAt),
      tierLabel: tier.label,
    },
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}

// Every request of a window shares the same reset time; formatting it once per window keeps a Date
// and an ISO string off the per-request path.
let lastReset = { at: Number.NaN, iso: '' };

function resetIso(resetAt: number): string {
  if (lastReset.at !== resetAt) lastReset = { at: resetAt, iso: new Date(resetAt).toISOString() };
  return lastReset.iso;
}
