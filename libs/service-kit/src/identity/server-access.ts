/**
 * Server role checks, declared per route: owner > admin > user. Non-members get 404 (a server of
 * another tenant must look like a server that does not exist); members below the required role get 403.
 *
 *   app.get('/things', { preHandler: [app.authenticate, requireServerRole(model, 'admin')] }, handler)
 *
 * `model` is anything that answers roleOf: other services pass their identity read model, the auth
 * service its own authoritative memberships. The handler finds the checked server and role on
 * `request.serverAccess`. The check is a guard (guards.ts): declared in preHandler, it runs at preValidation,
 * before the schema, so a stranger gets 404 and never a 400 about the body.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerRole } from '@skald/contracts';
import { AUTH_REQUIRED_MESSAGE } from '../auth-plugin.ts';
import { sendError } from '../errors.ts';
import { guard } from '../guards.ts';
import type { GuardHook } from '../guards.ts';
import type { ServerRoleSource } from './read-model.ts';

export interface ServerAccess {
  readonly serverId: string;
  readonly role: ServerRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireServerRole once the caller's role on the server passed the route's minimum. */
    serverAccess: ServerAccess | null;
  }
}

const ROLE_RANK: Readonly<Record<ServerRole, number>> = { user: 1, admin: 2, owner: 3 };

export function roleAtLeast(role: ServerRole, minRole: ServerRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[minRole];
}

export const SERVER_NOT_FOUND = 'Server not found.';
export const ROLE_TOO_LOW = 'You do not have permission to do this.';

export type ServerRoleCheck =
  | { readonly ok: true; readonly role: ServerRole }
  | { readonly ok: false; readonly statusCode: 401 | 404 | 403; readonly error: string };

/** The function form: decide whether userId may act on serverId with at least minRole. */
export async function checkServerRole(
  model: ServerRoleSource,
  userId: string | null,
  serverId: string | null,
  minRole: ServerRole,
): Promise<ServerRoleCheck> {
  if (userId === null) return { ok: false, statusCode: 401, error: AUTH_REQUIRED_MESSAGE };
  if (serverId === null || serverId === '') return { ok: false, statusCode: 404, error: SERVER_NOT_FOUND };
  const role = await model.roleOf(userId, serverId);
  if (role === null) return { ok: false, statusCode: 404, error: SERVER_NOT_FOUND };
  if (!roleAtLeast(role, minRole)) return { ok: false, statusCode: 403, error: ROLE_TOO_LOW };
  return { ok: true, role };
}

function stringField(source: unknown, field: string): string | null {
  if (typeof source !== 'object' || source === null) return null;
  const value = (source as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Where a server id usually is: route param `id` or `serverId`, query `serverId`, body `serverId`. Guards run
 * before validation, so only a non-empty string counts: a missing or mistyped id is no server (404).
 */
export function serverIdFromRequest(request: FastifyRequest): string | null {
  return (
    stringField(request.params, 'serverId') ??
    stringField(request.params, 'id') ??
    stringField(request.query, 'serverId') ??
    stringField(request.body, 'serverId')
  );
}

/** The signed-in user's id from `request.user.sub` (set by the service kit's JWT plugin). */
export function userIdFromRequest(request: FastifyRequest): string | null {
  return stringField((request as { user?: unknown }).user, 'sub');
}

export interface RequireServerRoleOptions {
  /** Where the server id comes from; default serverIdFromRequest. */
  readonly serverIdOf?: (request: FastifyRequest) => string | null;
}

/**
 * Guard: answers 401 without a user, 404 for non-members (or a missing server id), 403 for members
 * below minRole, in the shared `{ error, message }` shape. Runs after `app.authenticate`, before
 * validation; on success sets `request.serverAccess`.
 */
export function requireServerRole(model: ServerRoleSource, minRole: ServerRole, options: RequireServerRoleOptions = {}): GuardHook {
  const serverIdOf = options.serverIdOf ?? serverIdFromRequest;
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const serverId = serverIdOf(request);
    const check = await checkServerRole(model, userIdFromRequest(request), serverId, minRole);
    if (check.ok) {
      request.serverAccess = { serverId: serverId!, role: check.role };
      return undefined;
    }
    // Returning the reply tells Fastify the answer is sent and the handler must not run.
    return sendError(reply, check.statusCode, check.error);
  });
}

/** The access requireServerRole granted; throws if a route forgot to declare the preHandler. */
export function serverAccessOf(request: FastifyRequest): ServerAccess {
  if (request.serverAccess === null || request.serverAccess === undefined) {
    throw new Error(`route ${request.routeOptions.url ?? ''} reads serverAccess without a requireServerRole preHandler`);
  }
  return request.serverAccess;
}
