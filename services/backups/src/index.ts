/** The backups service: its factory is all other packages need (the gateway mounts it by this name). */
export { createBackupsService } from './backups-service.ts';
