/**
 * The refusals both ingestion routes share once the key is known: the tier's hourly quota (429 with
 * Retry-After and the usage) and an unavailable dependency (503 with Retry-After). Both are thrown as
 * HttpError; the kit's error handler keeps their headers (it masks only a 5xx's text).
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '@skald/service-kit';
import type { Counters } from '@skald/ports';
import type { KeyOwner } from '../domain/key-directory.ts';
import { consumeQuota } from '../domain/quota.ts';
import type { QuotaDecision } from '../domain/quota.ts';

const RETRY_AFTER_UNAVAILABLE_S = '5';

/** 503: nothing of the request was accepted; the client retries the same request later. */
export function unavailable(): HttpError {
  return new HttpError(503, 'Service Unavailable', { headers: { 'retry-after': RETRY_AFTER_UNAVAILABLE_S } });
}

/** Consumes quota for `count` logs (all or nothing); throws the 429, or the 503 when the shared counter is unreachable. */
export async function admitQuota(counters: Counters, request: FastifyRequest, owner: KeyOwner, count: number, now: number): Promise<void> {
  let decision: QuotaDecision;
  try {
    decision = await consumeQuota(counters, owner.serverId, owner.tier, count, now);
  } catch (error) {
    // Fail closed: without the shared counter we cannot enforce the tier, so refuse and ask for a retry.
    request.log.error({ err: error }, 'quota counter unavailable');
    throw unavailable();
  }
  if (decision.allowed) return;
  throw new HttpError(429, `Log limit reached: ${owner.tier.label} allows ${owner.tier.limit} logs per hour`, {
    headers: { 'retry-after': String(decision.retryAfterSeconds) },
    extra: { usage: decision.usage },
  });
}
