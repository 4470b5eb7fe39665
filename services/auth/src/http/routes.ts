import type { FastifyInstance } from 'fastify';
import { registerAccountRoutes } from './account-routes.ts';
import type { AuthRouteDeps } from './deps.ts';
import { registerManageRoutes } from './manage-routes.ts';
import { registerServerRoutes } from './server-routes.ts';
import { registerSessionRoutes } from './session-routes.ts';
import { registerStaffRoutes } from './staff-routes.ts';
import { registerTwoFactorRoutes } from './two-factor-routes.ts';
import { registerUserRoutes } from './user-routes.ts';

/** Every route of the auth service, with the spec's paths (the gateway adds /api). Needs the kit's authPlugin registered first. */
export async function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  await registerAccountRoutes(app, deps);
  await registerSessionRoutes(app, deps);
  await registerUserRoutes(app, deps);
  await registerTwoFactorRoutes(app, deps);
  await registerServerRoutes(app, deps);
  await registerManageRoutes(app, deps);
  await registerStaffRoutes(app, deps);
}
