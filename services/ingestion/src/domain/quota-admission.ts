/**
 * The tier's hourly quota as the intake use case applies it (intake.ts): a spent quota is a 429 with
 * Retry-After and the usage, an unreachable counter a 503 (fail closed).
 *
 * Only accepted logs count against the quota: the points are consumed once nothing but the durable write
 * can refuse the request any more, and given back if that write fails.
 */
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '@skald/service-kit';
import type { Counters } from '@skald/ports';
import type { KeyOwner } from './key-directory.ts';
import { consumeQuota, peekQuota, releaseQuota } from './quota.ts';
import type { QuotaDecision } from './quota.ts';
import { retryDelay, unavailable } from './refusals.ts';

/** Points consumed for a request that is not accepted yet; `giveBack` when it is refused after all. */
export interface AdmittedQuota {
  giveBack(): Promise<void>;
}

type QuotaCall = (counters: Counters, serverId: string, tier: KeyOwner['tier'], logs: number, now: number) => Promise<QuotaDecision>;

async function decide(call: QuotaCall, counters: Counters, log: FastifyBaseLogger, owner: KeyOwner, count: number, now: number): Promise<void> {
  let decision: QuotaDecision;
  try {
    decision = await call(counters, owner.serverId, owner.tier, count, now);
  } catch (error) {
    // Fail closed: without the shared counter we cannot enforce the tier, so refuse and ask for a retry.
    log.error({ err: error }, 'quota counter unavailable');
    throw unavailable();
  }
  if (decision.allowed) return;
  throw new HttpError(429, `Log limit reached: ${owner.tier.label} allows ${owner.tier.limit} logs per hour`, {
    headers: retryDelay(decision.retryAfterSeconds).headers,
    extra: { usage: decision.usage, retryAfter: decision.retryAfterSeconds },
  });
}

/** Throws the 429 (or 503) if `count` more logs would not fit, consuming nothing: the check before costly work. */
export async function checkQuota(counters: Counters, log: FastifyBaseLogger, owner: KeyOwner, count: number, now: number): Promise<void> {
  await decide(peekQuota, counters, log, owner, count, now);
}

/** Consumes quota for `count` logs (all or nothing); throws the 429, or the 503 when the shared counter is unreachable. */
export async function admitQuota(counters: Counters, log: FastifyBaseLogger, owner: KeyOwner, count: number, now: number): Promise<AdmittedQuota> {
  await decide(consumeQuota, counters, log, owner, count, now);
  return {
    async giveBack() {
      try {
        await releaseQuota(counters, owner.serverId, count, now);
      } catch (error) {
        // The request is answered 503 either way; a point left counted is the lesser harm than a masked 503.
        log.warn({ err: error }, 'could not give back the quota of a refused request');
      }
    },
  };
}
