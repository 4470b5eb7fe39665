/** Internals for the auth service's tests and benches (`@skald/auth-service/testing`); not for other services. */
export { createAuthServiceWith } from './auth-service.ts';
export type { AuthServiceModule, AuthServiceOptions } from './auth-service.ts';
export { openAuthStore } from './domain/store.ts';
export type { AuthStore, UserDoc, ServerDoc, MembershipDoc } from './domain/store.ts';
export { OWASP_SCRYPT_COST, hashPassword, verifyPassword } from './domain/passwords.ts';
export { generateApiKey } from './domain/opaque-tokens.ts';
export { transferOwnership } from './domain/ownership.ts';
export { createIdentityPublisher } from './domain/identity-publisher.ts';
