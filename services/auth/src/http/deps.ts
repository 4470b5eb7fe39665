import type { FastifyRequest } from 'fastify';
import type { ServerRoleSource } from '@skald/service-kit';
import type { AuthContext } from '../domain/context.ts';
import type { UserDoc } from '../domain/store.ts';

/** The one dependency bag of every auth route file. */
export interface AuthRouteDeps extends AuthContext {
  /** The authoritative memberships, for requireServerRole. */
  readonly memberships: ServerRoleSource;
  /** The signed-in user's record; call after app.authenticate (401 if the account is gone or the token revoked since). */
  currentUser(request: FastifyRequest): Promise<UserDoc>;
}
