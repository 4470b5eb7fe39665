/** Request and error-answer schemas shared by the logs route files (answer bodies are in @skald/contracts). */
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ErrorBodySchema } from '@skald/contracts';

export const ServerIdSchema = Type.String({ minLength: 1, maxLength: 64 });

export const ServerIdQuerySchema = Type.Object({ serverId: ServerIdSchema }, { additionalProperties: false });

/**
 * Refusals of a route guarded by requireServerRole(directory, 'user'): 400 a refused parameter, 401 no
 * valid access token, 404 a server the caller is not a member of (or that does not exist). No 403: every
 * member has at least the user role.
 */
export const MEMBER_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema } as const;

/** Refusals of a route guarded by requireServerRole(directory, 'admin'): also 403 for a member with the user role. */
export const ADMIN_ERRORS = { ...MEMBER_ERRORS, 403: ErrorBodySchema } as const;

/** Refusals of a route guarded by requireServerRole(directory, 'owner'): 403 for an admin or a user. */
export const OWNER_ERRORS = ADMIN_ERRORS;

/**
 * The server of a route whose path id names something else (a log, a player): the query's serverId, never
 * the path's id (requireServerRole's default reads a path `id` first).
 */
export function serverIdOfQuery(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  const serverId = query?.['serverId'];
  return typeof serverId === 'string' && serverId !== '' ? serverId : null;
}
