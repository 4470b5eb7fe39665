/**
 * Servers (docs/spec/part-2.txt sections 2 "Create new server", "Server settings", 4 and 7): create (any signed-in user), rename (admin+),
 * API-key reset (owner). Non-members get 404, members below the role 403 (requireServerRole).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiKeyResetAnswerSchema, CreateServerAnswerSchema, RenameServerAnswerSchema } from '@skald/contracts/api';
import { requireServerRole, serverAccessOf } from '@skald/service-kit';
import { createServer, renameServer, rotateApiKey } from '../domain/servers.ts';
import type { AuthRouteDeps } from './deps.ts';
import { CreateServerBody, RenameServerBody, ServerIdQuery, errorAnswers } from './schemas.ts';

const tags = ['servers'];

export async function registerServerRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post(
    '/server/servers',
    {
      preHandler: [app.authenticate],
      schema: {
        tags,
        summary: 'Create a server (the API key is shown in this answer only)',
        body: CreateServerBody,
        response: { 201: CreateServerAnswerSchema, ...errorAnswers(400, 401, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await createServer(deps, await deps.currentUser(request), request.body.name)),
  );

  typed.patch(
    '/settings/server-name',
    {
      preHandler: [app.authenticate, requireServerRole(deps.memberships, 'admin')],
      schema: {
        tags,
        summary: 'Rename a server (admin or owner)',
        body: RenameServerBody,
        response: { 200: RenameServerAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request) => renameServer(deps, await deps.currentUser(request), serverAccessOf(request).serverId, request.body.newName),
  );

  typed.post(
    '/settings/api-key/reset',
    {
      preHandler: [app.authenticate, requireServerRole(deps.memberships, 'owner')],
      schema: {
        tags,
        summary: 'Replace the API key (owner; the old key stops working at once)',
        querystring: ServerIdQuery,
        response: { 200: ApiKeyResetAnswerSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => rotateApiKey(deps, await deps.currentUser(request), serverAccessOf(request).serverId),
  );
}
