/**
 * The auth service's public face: the factory the launcher loads, and promoteUser for the operator
 * command (gateway/src/cli.ts `users:promote`). Tests and benches use `@skald/auth-service/testing`.
 */
export { createAuthService } from './auth-service.ts';
export { promoteUser } from './domain/site-roles.ts';
