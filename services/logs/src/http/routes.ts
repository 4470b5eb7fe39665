import type { FastifyInstance } from 'fastify';
import type { LogsRouteDeps } from './deps.ts';
import { registerContextRoute } from './context-route.ts';
import { registerCaseRoutes } from './case-routes.ts';
import { registerSavedSearchRoutes } from './saved-search-routes.ts';
import { registerExportRoutes } from './export-routes.ts';
import { registerHistogramRoute } from './histogram-route.ts';
import { registerImageRoute } from './image-route.ts';
import { registerLogRoutes } from './log-routes.ts';
import { registerPlayerRoutes } from './player-routes.ts';
import { registerSettingsRoutes } from './settings-routes.ts';
import { registerTailRoute } from './tail-route.ts';
import { registerStaffRoutes } from './staff-routes.ts';
import { registerUsageRoute } from './usage-route.ts';

/**
 * Every route of the logs service, with the spec's paths (the gateway adds /api). The caller has
 * registered the service kit's authPlugin on `app` (app.authenticate, used by the guarded routes).
 */
export async function registerLogsRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  await registerLogRoutes(app, deps);
  await registerHistogramRoute(app, deps);
  await registerTailRoute(app, deps);
  await registerSettingsRoutes(app, deps);
  await registerUsageRoute(app, deps);
  await registerImageRoute(app, deps);
  await registerExportRoutes(app, deps);
  await registerStaffRoutes(app, deps);
  await registerPlayerRoutes(app, deps);
  await registerContextRoute(app, deps);
  await registerSavedSearchRoutes(app, deps);
  await registerCaseRoutes(app, deps);
}
