/** The logs service: its factory is all other packages need (the gateway mounts it by this name). */
export { createLogsService } from './logs-service.ts';
