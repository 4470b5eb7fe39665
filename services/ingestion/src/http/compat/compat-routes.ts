import type { FastifyInstance } from 'fastify';
import type { IngestionRouteDeps } from '../deps.ts';
import { registerDiscordRoute } from './discord-route.ts';
import { registerLogCompatRoutes } from './log-compat-routes.ts';
import { registerUploadRoutes } from './upload-routes.ts';

/**
 * The endpoints that let a FiveM server switch to Skald by changing a convar or a URL, not code:
 * Loki, Datadog, Fivemanage, screenshot uploads and Discord-shaped URLs. Each is registered in
 * its own scope so its content parsers (protobuf, multipart) stay its own.
 */
export async function registerCompatRoutes(app: FastifyInstance, deps: IngestionRouteDeps): Promise<void> {
  await app.register(async (scope) => registerLogCompatRoutes(scope, deps));
  await app.register(async (scope) => registerUploadRoutes(scope, deps));
  await app.register(async (scope) => registerDiscordRoute(scope, deps));
}
