/**
 * The refusals both ingestion routes share once the key is known: the tier's hourly quota (429 with
 * Retry-After and the usage) and an unavailable dependency (503 with Retry-After); both bodies repeat the
 * delay as `retryAfter` (retryDelay). Both are thrown as
 * HttpError; the kit's error handler keeps their headers (it masks only a 5xx's text).
 *
 * Only accepted logs count against the quota (issue 9 item 4): a route consumes once nothing but the
 * durable write can refuse the request any more, and gives the points back if that write fails.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IngestionErrorSchema } from '@skald/contracts';
import { HttpError, metricCounter } from '@skald/service-kit';
import type { Counters } from '@skald/ports';
import type { KeyOwner } from '../domain/key-directory.ts';
import { consumeQuota, peekQuota, releaseQuota } from '../domain/quota.ts';
import type { QuotaDecision } from '../domain/quota.ts';

const RETRY_AFTER_UNAVAILABLE_S = 5;

/**
 * The delay of a 429 or 503 as the `Retry-After` header AND as `retryAfter` (seconds) in the body:
 * FXServer's PerformHttpRequest hands a game script no headers for answers of 400 or more, only the
 * body (issue 16), so a FiveM resource can honour the delay only if the body carries it.
 */
export function retryDelay(seconds: number): { headers: Record<string, string>; extra: { retryAfter: number } } {
  return { headers: { 'retry-after': String(seconds) }, extra: { retryAfter: seconds } };
}

/** 503: nothing of the request was accepted; the client retries the same request later. */
export function unavailable(): HttpError {
  return new HttpError(503, 'Service Unavailable', retryDelay(RETRY_AFTER_UNAVAILABLE_S));
}

/** Points consumed for a request that is not accepted yet; `giveBack` when it is refused after all. */
export interface AdmittedQuota {
  giveBack(): Promise<void>;
}

type QuotaCall = (counters: Counters, serverId: string, tier: KeyOwner['tier'], logs: number, now: number) => Promise<QuotaDecision>;

async function decide(call: QuotaCall, counters: Counters, request: FastifyRequest, owner: KeyOwner, count: number, now: number): Promise<void> {
  let decision: QuotaDecision;
  try {
    decision = await call(counters, owner.serverId, owner.tier, count, now);
  } catch (error) {
    // Fail closed: without the shared counter we cannot enforce the tier, so refuse and ask for a retry.
    request.log.error({ err: error }, 'quota counter unavailable');
    throw unavailable();
  }
  if (decision.allowed) return;
  throw new HttpError(429, `Log limit reached: ${owner.tier.label} allows ${owner.tier.limit} logs per hour`, {
    headers: retryDelay(decision.retryAfterSeconds).headers,
    extra: { usage: decision.usage, retryAfter: decision.retryAfterSeconds },
  });
}

/** Throws the 429 (or 503) if `count` more logs would not fit, consuming nothing: the check before costly work. */
export async function checkQuota(counters: Counters, request: FastifyRequest, owner: KeyOwner, count: number, now: number): Promise<void> {
  await decide(peekQuota, counters, request, owner, count, now);
}

/** Consumes quota for `count` logs (all or nothing); throws the 429, or the 503 when the shared counter is unreachable. */
export async function admitQuota(counters: Counters, request: FastifyRequest, owner: KeyOwner, count: number, now: number): Promise<AdmittedQuota> {
  await decide(consumeQuota, counters, request, owner, count, now);
  return {
    async giveBack() {
      try {
        await releaseQuota(counters, owner.serverId, count, now);
      } catch (error) {
        // The request is answered 503 either way; a point left counted is the lesser harm than a masked 503.
        request.log.warn({ err: error }, 'could not give back the quota of a refused request');
      }
    },
  };
}

/** Every refusal both ingestion routes can answer, in the one ingestion error shape (response schemas). */
export const INGESTION_REFUSALS = {
  400: IngestionErrorSchema,
  401: IngestionErrorSchema,
  403: IngestionErrorSchema,
  413: IngestionErrorSchema,
  415: IngestionErrorSchema,
  429: IngestionErrorSchema,
  503: IngestionErrorSchema,
} as const;

/** The metric name of each refusal (skald_ingest_requests_total's outcome label). */
export const REFUSAL_REASONS: Readonly<Record<keyof typeof INGESTION_REFUSALS, string>> = {
  400: 'invalid_body',
  401: 'invalid_key',
  403: 'suspended',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'quota',
  503: 'unavailable',
};

/** skald_ingest_logs_accepted_total{route}: logs accepted, a batch counting each of its logs. */
export function acceptedLogsCounter(app: FastifyInstance) {
  return metricCounter(app, {
    name: 'skald_ingest_logs_accepted_total',
    help: 'Logs accepted, by route (a batch counts each of its logs, a photo log one)',
    labelNames: ['route'],
  });
}
