import type { FastifyInstance } from 'fastify';
import { registerDeliveryRoutes } from './delivery-routes.ts';
import { registerAlertRoutes } from './alert-routes.ts';
import type { AlertRouteDeps } from './alert-routes.ts';
import { registerWebhookRoutes } from './webhook-routes.ts';

/**
 * Every route of the webhooks service, with the spec's paths (the gateway adds /api). The caller has
 * registered the service kit's authPlugin on `app`.
 */
export async function registerWebhooksRoutes(app: FastifyInstance, deps: AlertRouteDeps): Promise<void> {
  await registerWebhookRoutes(app, deps);
  await registerDeliveryRoutes(app, deps);
  await registerAlertRoutes(app, deps);
}
