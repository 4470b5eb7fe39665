/**
 * Saved searches (docs/LOGS_API.md "Saved searches"): GET /saved-searches and POST /saved-searches for every
 * member of the server; DELETE /saved-searches/{id} for the member who saved it and the server's owner and
 * admins.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  CreateSavedSearchBodySchema,
  ErrorBodySchema,
  MessageAnswerSchema,
  SAVED_SEARCH_DELETE_REFUSED,
  SAVED_SEARCH_LIMITS,
  SAVED_SEARCH_NOT_FOUND,
  SavedSearchListSchema,
  SavedSearchSchema,
} from '@skald/contracts';
import { HttpError, checkServerRole, guard, requireServerRole, roleAtLeast, sendError, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import type { GuardHook } from '@skald/service-kit';
import { toApiSavedSearch } from '../domain/saved-searches.ts';
import type { SavedSearches } from '../domain/saved-searches.ts';
import type { ServerDirectory } from '../domain/server-directory.ts';
import type { LogsRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, MEMBER_ERRORS, ServerIdQuerySchema } from './route-schemas.ts';

const SavedSearchParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

/**
 * DELETE /saved-searches/{id}: the search's server is looked up, then the caller's place on it. A search that
 * does not exist and one of a server the caller is not a member of answer the SAME 404; a member who is
 * neither its creator nor an owner or admin gets 403. A guard: it runs before validation.
 */
function requireSearchDeleter(directory: ServerDirectory, searches: Pick<SavedSearches, 'get'>): GuardHook {
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { id?: unknown };
    const id = typeof params.id === 'string' ? params.id : '';
    const userId = userIdFromRequest(request);
    const search = userId === null || id === '' ? null : await searches.get(id);
    const check = await checkServerRole(directory, userId, search?.serverId ?? null, 'user');
    if (!check.ok) return sendError(reply, check.statusCode, check.statusCode === 404 ? SAVED_SEARCH_NOT_FOUND : check.error);
    if (search!.createdBy !== userId && !roleAtLeast(check.role, 'admin')) return sendError(reply, 403, SAVED_SEARCH_DELETE_REFUSED);
    request.serverAccess = { serverId: search!.serverId, role: check.role };
    return undefined;
  });
}

export async function registerSavedSearchRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const member = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')] };

  typed.get(
    '/saved-searches',
    {
      ...member,
      schema: {
        tags: ['saved-searches'],
        summary: "The server's saved searches (named filters of /logs), shared by every member",
        description: 'By name, ignoring case. Each query holds only the filters that were set.',
        querystring: ServerIdQuerySchema,
        response: { 200: SavedSearchListSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      return { searches: (await deps.savedSearches.list(serverId)).map(toApiSavedSearch) };
    },
  );

  typed.post(
    '/saved-searches',
    {
      ...member,
      schema: {
        tags: ['saved-searches'],
        summary: 'Save the filters of /logs under a name (every member)',
        description:
          `The name is trimmed: 1 to ${SAVED_SEARCH_LIMITS.maxNameLength} characters, unique on the server ignoring case (409 otherwise). ` +
          `Blank filters are dropped; at least one must be set. dateFrom and dateTo are days (YYYY-MM-DD), dateFrom not after dateTo. ` +
          `At most ${SAVED_SEARCH_LIMITS.maxPerServer} per server: the next answers 409 with a sentence.`,
        body: CreateSavedSearchBodySchema,
        response: { 201: SavedSearchSchema, 409: ErrorBodySchema, ...MEMBER_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const created = await deps.savedSearches.create({
        serverId,
        name: request.body.name ?? '',
        query: request.body.query,
        createdBy: userIdFromRequest(request) ?? '',
        now: deps.now(),
      });
      if ('refused' in created) throw new HttpError(created.refused === 'invalid' ? 400 : 409, created.message);
      return reply.code(201).send(toApiSavedSearch(created));
    },
  );

  typed.delete(
    '/saved-searches/:id',
    {
      preHandler: [app.authenticate, requireSearchDeleter(deps.directory, deps.savedSearches)],
      schema: {
        tags: ['saved-searches'],
        summary: 'Delete a saved search (the member who saved it, or an owner or admin of its server)',
        description: `Another member: 403. A search that does not exist, or of a server the caller is not a member of: 404 '${SAVED_SEARCH_NOT_FOUND}'.`,
        params: SavedSearchParams,
        response: { 200: MessageAnswerSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      // Deleted meanwhile by someone else: the same answer as a search that never was.
      if (!(await deps.savedSearches.remove(request.params.id))) throw new HttpError(404, SAVED_SEARCH_NOT_FOUND);
      return { message: 'Saved search deleted' };
    },
  );
}
