import type { FastifyInstance } from 'fastify';
import { metricCounter } from '@skald/service-kit';
import { REFUSAL_REASONS } from './admission.ts';
import { apiKeyAuth } from './api-key-auth.ts';
import { registerCompatRoutes } from './compat/compat-routes.ts';
import { acceptFivemanage } from './compat/fivemanage-answer.ts';
import type { IngestionRouteDeps } from './deps.ts';
import { registerLogRoute } from './log-route.ts';
import { registerPhotoRoute } from './photo-route.ts';

/**
 * The public ingestion API with the spec's paths (the gateway adds /api): every route is authenticated
 * by the server's API key (X-API-Key, Authorization: Bearer, or the deprecated ?apiKey=).
 */
export async function registerIngestionRoutes(app: FastifyInstance, deps: IngestionRouteDeps): Promise<void> {
  countOutcomes(app);
  const apiKey = apiKeyAuth(app, deps.directory);
  // POST /logs is also Fivemanage's POST /api/logs: a key sent as the raw Authorization header is answered its way.
  await registerLogRoute(app, deps, apiKey, (request) => acceptFivemanage(deps, request));
  await registerPhotoRoute(app, deps, apiKey);
  await registerCompatRoutes(app, deps);
}

/** The outcome label of an answer: accepted, a refusal's reason, or `error` (a 5xx the routes do not declare). */
export function ingestOutcome(statusCode: number): string {
  if (statusCode >= 200 && statusCode < 300) return 'accepted';
  return Object.hasOwn(REFUSAL_REASONS, statusCode) ? REFUSAL_REASONS[statusCode as keyof typeof REFUSAL_REASONS] : 'error';
}

/** skald_ingest_requests_total{route, outcome}: every ingestion answer, accepted or refused by reason. */
function countOutcomes(app: FastifyInstance): void {
  const requests = metricCounter(app, {
    name: 'skald_ingest_requests_total',
    help: 'Ingestion requests by route and outcome: accepted, or the refusal reason (invalid_key, suspended, invalid_body, too_large, unsupported_media_type, quota, unavailable, error)',
    labelNames: ['route', 'outcome'],
  });
  app.addHook('onResponse', (request, reply, done) => {
    requests.inc({ route: request.routeOptions.url ?? 'unmatched', outcome: ingestOutcome(reply.statusCode) });
    done();
  });
}
