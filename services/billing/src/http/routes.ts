import type { FastifyInstance } from 'fastify';
import type { BillingRouteDeps } from './deps.ts';
import { registerSessionRoutes } from './session-routes.ts';
import { registerStaffRoutes } from './staff-routes.ts';
import { registerTierRoutes } from './tier-routes.ts';
import { registerWebhookRoute } from './webhook-route.ts';

/**
 * Every route of the billing service, with the spec's paths (the gateway adds /api). The caller has
 * registered the service kit's authPlugin on `app`.
 */
export async function registerBillingRoutes(app: FastifyInstance, deps: BillingRouteDeps): Promise<void> {
  await registerTierRoutes(app, deps);
  await registerSessionRoutes(app, deps);
  await registerWebhookRoute(app, deps);
  await registerStaffRoutes(app, deps);
}
