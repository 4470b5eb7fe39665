import type { FastifyInstance } from 'fastify';
import { apiKeyAuth } from './api-key-auth.ts';
import { registerCompatRoutes } from './compat/compat-routes.ts';
import type { IngestionRouteDeps } from './deps.ts';
import { registerLogRoute } from './log-route.ts';
import { registerPhotoRoute } from './photo-route.ts';

/**
 * The public ingestion API with the spec's paths (the gateway adds /api): every route is authenticated
 * by the server's API key (X-API-Key, Authorization: Bearer, or the deprecated ?apiKey=).
 */
export async function registerIngestionRoutes(app: FastifyInstance, deps: IngestionRouteDeps): Promise<void> {
  const apiKey = apiKeyAuth(app, deps.directory);
  await registerLogRoute(app, deps, apiKey);
  await registerPhotoRoute(app, deps, apiKey);
  await registerCompatRoutes(app, deps);
}
