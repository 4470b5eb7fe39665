/** The admin service: its factory is all other packages need (the gateway mounts it by this name). */
export { createAdminService } from './admin-service.ts';
