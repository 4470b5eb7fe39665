/** Internals for other packages' tests (never production code): the factory with its options. */
export { createBillingServiceWith } from './billing-service.ts';
export type { BillingServiceOptions } from './billing-service.ts';
