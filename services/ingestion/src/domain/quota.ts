/**
 * The tier's logs-per-hour quota, counted per log (a batch of 500 uses 500 points, all or nothing) in a
 * clock-hour window shared by every instance through the Counters port (Redis in production).
 * Only accepted logs count: a request refused after its points were consumed gives them back
 * (releaseQuota), and a check that must come before costly work reads without consuming (peekQuota).
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
  const result = await counters.consume(quotaKey(serverId, quotaWindowStart(now)), logs, tier.limit, QUOTA_WINDOW_MS);
  return decision(result.allowed, result.used, tier, now);
}

/** Whether `logs` more would fit now, without consuming anything (a later consume still decides). */
export async function peekQuota(counters: Counters, serverId: string, tier: Tier, logs: number, now: number): Promise<QuotaDecision> {
  const result = await counters.peek(quotaKey(serverId, quotaWindowStart(now)), tier.limit, QUOTA_WINDOW_MS);
  return decision(result.used + logs <= tier.limit, result.used, tier, now);
}

/** Gives back the points consumeQuota took at `consumedAt` for logs that were not accepted after all. */
export async function releaseQuota(counters: Counters, serverId: string, logs: number, consumedAt: number): Promise<void> {
  await counters.release(quotaKey(serverId, quotaWindowStart(consumedAt)), logs);
}

function decision(allowed: boolean, used: number, tier: Tier, now: number): QuotaDecision {
  const resetAt = quotaWindowStart(now) + QUOTA_WINDOW_MS;
  return {
    allowed,
    usage: {
      used,
      limit: tier.limit,
      remaining: Math.max(0, tier.limit - used),
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
