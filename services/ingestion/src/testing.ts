/**
 * Internals for benchmarks and tests, never for production code (which gets the factory from index.ts):
 * the UUIDv7 generator (the log-store benchmark makes realistic ids with it) and the API-key read model
 * (tests open a second replica over the service's document store).
 */
export { uuidv7, uuidv7Time } from './domain/uuidv7.ts';
export { KeyDirectory } from './domain/key-directory.ts';
export type { KeyOwner } from './domain/key-directory.ts';
