/**
 * What every ingestion route (native and compatible) declares alike: the body limit of a request of text
 * logs, the refusals in the one ingestion error shape, their metric names and the accepted-logs counter.
 * The refusals themselves are thrown by the intake use case (domain/intake.ts).
 */
import type { FastifyInstance } from 'fastify';
import { IngestionErrorSchema } from '@skald/contracts';
import { metricCounter } from '@skald/service-kit';

/** JSON body limit of POST /logs and the compatible text routes: a batch of 1000 typical logs fits with a wide margin. */
export const LOGS_BODY_LIMIT = 5 * 1024 * 1024;

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
