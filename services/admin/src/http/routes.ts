import type { FastifyInstance } from 'fastify';
import { registerAdminLogRoutes } from './admin-log-routes.ts';
import { registerAuditRoutes } from './audit-routes.ts';
import type { AdminRouteDeps } from './deps.ts';
import { registerServerRoutes } from './server-routes.ts';
import { registerStatsRoutes } from './stats-routes.ts';

/**
 * Every route of the admin service, with the spec's paths (the gateway adds /api). The caller has
 * registered the service kit's authPlugin on `app` (app.authenticate, used by the guarded routes).
 */
export async function registerAdminRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  await registerAuditRoutes(app, deps);
  await registerAdminLogRoutes(app, deps);
  await registerStatsRoutes(app, deps);
  await registerServerRoutes(app, deps);
}
