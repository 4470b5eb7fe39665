/**
 * Internals for benchmarks and other packages' tests, never for production code (which gets the
 * factory from index.ts): the UUIDv7 generator the log-store benchmark uses for realistic ids, and the
 * API-key read model with its identity consumer, for tests that check a key published by the auth
 * service reaches ingestion.
 */
export { uuidv7, uuidv7Time } from './domain/uuidv7.ts';
export { KeyDirectory } from './domain/key-directory.ts';
export type { KeyOwner } from './domain/key-directory.ts';
export { IDENTITY_GROUP, startIdentityConsumer } from './events/identity-consumer.ts';
