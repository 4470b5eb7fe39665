/**
 * Internals for benchmarks and other packages' tests, never for production code (which gets the
 * factory from index.ts): the factory with its options (a fixed clock, a short retention period) and
 * the control that stops and restarts the batch consumer alone (the pipeline reliability test).
 */
export { createLogsServiceWith } from './logs-service.ts';
export type { LogsServiceControl, LogsServiceOptions } from './logs-service.ts';
