import type { FastifyInstance } from 'fastify';
import { registerDeliveryRoutes } from './delivery-routes.ts';
import type { WebhooksRouteDeps } from './deps.ts';
import { registerWebhookRoutes } from './webhook-routes.ts';

/**
 * Every route of the webhooks service, with the spec's paths (the gateway adds /api). The caller has
 * registered the service kit's authPlugin on `app`.
 */
export async function registerWebhooksRoutes(app: FastifyInstance, deps: WebhooksRouteDeps): Promise<void> {
  await registerWebhookRoutes(app, deps);
  await registerDeliveryRoutes(app, deps);
}
