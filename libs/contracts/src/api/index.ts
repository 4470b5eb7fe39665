export * from './common.ts';
export * from './identity.ts';
export * from './logs.ts';
export * from './ingestion.ts';
export * from './billing.ts';
export * from './compat.ts';
export { SERVER_ROLES, SITE_ROLES, isServerRole, isSiteRole } from '../roles.ts';
export type { ServerRole, SiteRole } from '../roles.ts';
