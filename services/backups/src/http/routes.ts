import type { FastifyInstance } from 'fastify';
import { registerBackupRoutes } from './backup-routes.ts';
import type { BackupsRouteDeps } from './deps.ts';
import { registerSettingsRoutes } from './settings-routes.ts';

/**
 * Every route of the backups service, with the spec's paths (the gateway adds /api). The caller has
 * registered the service kit's authPlugin on `app` (app.authenticate, used by every route here).
 */
export async function registerBackupsRoutes(app: FastifyInstance, deps: BackupsRouteDeps): Promise<void> {
  await registerSettingsRoutes(app, deps);
  await registerBackupRoutes(app, deps);
}
