/**
 * The refusals both ingestion routes share once the key is known: the tier's hourly quota (429 with
 * Retry-After and the usage) and an unavailable dependency (503 with Retry-After). A 503 is sent with
 * sendError rather than thrown: the kit's error handler masks 5xx and would drop the Retry-After header.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, sendError } from '@skald/service-kit';
import type { Counters } from '@skald/ports';
import type { KeyOwner } from '../domain/key-directory.ts';
import { consumeQuota } from '../domain/quota.ts';
import type { QuotaDecision } from '../domain/quota.ts';

const RETRY_AFTER_UNAVAILABLE_S = '5';

/** 503: nothing of the request was accepted; the client retries the same request later. */
export function answerUnavailable(reply: FastifyReply): FastifyReply {
  reply.header('retry-after', RETRY_AFTER_UNAVAILABLE_S);
  return sendError(reply, 503, 'Service Unavailable');
}

/**
 * Consumes quota for `count` logs (all or nothing). Throws the 429; answers the 503 itself and returns
 * false when the shared counter is unreachable, so the caller stops.
 */
export async function admitQuota(
  counters: Counters,
  request: FastifyRequest,
  reply: FastifyReply,
  owner: KeyOwner,
  count: number,
  now: number,
): Promise<boolean> {
  let decision: QuotaDecision;
  try {
    decision = await consumeQuota(counters, owner.serverId, owner.tier, count, now);
  } catch (error) {
    // Fail closed: without the shared counter we cannot enforce the tier, so refuse and ask for a retry.
    request.log.error({ err: error }, 'quota counter unavailable');
    answerUnavailable(reply);
    return false;
  }
  if (decision.allowed) return true;
  throw new HttpError(429, `Log limit reached: ${owner.tier.label} allows ${owner.tier.limit} logs per hour`, {
    headers: { 'retry-after': String(decision.retryAfterSeconds) },
    extra: { usage: decision.usage },
  });
}
