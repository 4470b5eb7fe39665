/** Internals for benchmarks and other packages' tests, never for production code (which gets the factory from index.ts). */
export { createAdminServiceWith } from './admin-service.ts';
export type { AdminServiceOptions } from './admin-service.ts';
export { AUDIT_GROUP } from './events/audit-consumer.ts';
export { OVERVIEW_GROUP } from './events/overview-consumer.ts';
export { createOverview } from './domain/overview.ts';
export type { Overview, OverviewServer, OverviewUser } from './domain/overview.ts';
export { statsDays } from './domain/admin-stats.ts';
export { computeAdminStats, countUsers } from './domain/admin-stats.ts';
export { createServerMirror } from './domain/server-mirror.ts';
export { listServers } from './domain/admin-views.ts';
