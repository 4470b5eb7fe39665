/** Internals for the auth service's tests and benches (`@skald/auth-service/testing`); not for other services. */
export { createAuthServiceWith } from './auth-service.ts';
export type { AuthServiceModule, AuthServiceOptions } from './auth-service.ts';
export { openAuthStore } from './domain/store.ts';
export type { AuthStore, UserDoc, ServerDoc, MembershipDoc } from './domain/store.ts';
export { OWASP_SCRYPT_COST, hashPassword, verifyPassword } from './domain/passwords.ts';
/**
 * The scrypt cost tests run the auth service at: the production default (N=2^17) costs about half a second
 * of CPU for every password hashed or checked (each sign-up, each login, the dummy hash at start) on a
 * machine that runs two test runs at once. The default itself is checked in crypto-helpers.test.ts.
 */
export const FAST_SCRYPT = { logN: 10, r: 8, p: 1 } as const;
export { generateApiKey } from './domain/opaque-tokens.ts';
export { transferOwnership } from './domain/ownership.ts';
export { createIdentityPublisher } from './domain/identity-publisher.ts';
