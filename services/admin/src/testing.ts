/** Internals for benchmarks and other packages' tests, never for production code (which gets the factory from index.ts). */
export { createAdminServiceWith } from './admin-service.ts';
export { AUDIT_GROUP } from './events/audit-consumer.ts';
