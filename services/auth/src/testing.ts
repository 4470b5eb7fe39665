/** Internals for the auth service's tests and benches (`@skald/auth-service/testing`); not for other services. */
import { TEST_SCRYPT_COST } from './domain/passwords.ts';

export { createAuthServiceWith } from './auth-service.ts';
export type { AuthServiceModule, AuthServiceOptions } from './auth-service.ts';
export { openAuthStore } from './domain/store.ts';
export type { AuthStore, UserDoc, ServerDoc, MembershipDoc } from './domain/store.ts';
export { OWASP_SCRYPT_COST, hashPassword, verifyPassword } from './domain/passwords.ts';
/**
 * The scrypt cost tests run the auth service at (the one a spawned server gets from
 * INSECURE_TEST_PASSWORD_HASHING). The production default itself is checked in crypto-helpers.test.ts.
 */
export const FAST_SCRYPT = TEST_SCRYPT_COST;
export { generateApiKey } from './domain/opaque-tokens.ts';
export { transferOwnership } from './domain/ownership.ts';
export { createIdentityPublisher } from './domain/identity-publisher.ts';
