/**
 * Authentication and server-role checks for the logs routes, through the identity read model's
 * checkServerRole: 401 without a user; 404 for non-members and unknown servers (other tenants' server ids
 * cannot be probed); 403 for members below the required role.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkServerRole } from '@skald/service-kit';
import type { ServerDirectory, ServerRole } from '../domain/server-directory.ts';
import { sendError } from './errors.ts';

/** Resolves the signed-in user's id from the request (verified JWT), or null when not authenticated. */
export type Authenticate = (request: FastifyRequest) => Promise<string | null>;

export interface AccessDeps {
  readonly authenticate: Authenticate;
  readonly directory: ServerDirectory;
}

/**
 * Returns the caller's role on the server, or null after having sent 401/404/403.
 * Callers must `return reply` when it answers null.
 */
export async function requireServerRole(
  deps: AccessDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  serverId: string,
  minimum: ServerRole,
): Promise<ServerRole | null> {
  const check = await checkServerRole(deps.directory, await deps.authenticate(request), serverId, minimum);
  if (check.ok) return check.role;
  sendError(reply, check.statusCode, check.error);
  return null;
}
