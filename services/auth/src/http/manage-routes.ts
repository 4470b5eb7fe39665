/**
 * Server users (docs/spec/part-2.txt sections 2 "Manage Server Users", 4 and 7). Owner only: the members are the owner's
 * business. Non-members get 404, members below owner 403 (requireServerRole).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AddServerUserAnswerSchema, MessageAnswerSchema, ServerUserCountSchema, ServerUsersSchema } from '@skald/contracts/api';
import { requireServerRole, serverAccessOf } from '@skald/service-kit';
import {
  ROLE_UPDATED,
  USER_REMOVED,
  addServerUser,
  changeServerUserRole,
  countServerUsers,
  listServerUsers,
  removeServerUser,
} from '../domain/memberships.ts';
import type { AuthRouteDeps } from './deps.ts';
import { AddUserBody, RoleBody, ServerParams, ServerUserParams, errorAnswers } from './schemas.ts';

const tags = ['servers'];

export async function registerManageRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const ownerOnly = { preHandler: [app.authenticate, requireServerRole(deps.memberships, 'owner')] };
  const refusals = errorAnswers(400, 401, 403, 404);

  typed.get(
    '/manage/server/:id/users',
    { ...ownerOnly, schema: { tags, summary: "The server's members and their roles", params: ServerParams, response: { 200: ServerUsersSchema, ...refusals } } },
    async (request) => listServerUsers(deps.store, serverAccessOf(request).serverId),
  );

  typed.get(
    '/manage/server/:id/user-count',
    {
      ...ownerOnly,
      schema: { tags, summary: "Members against the tier's limit (the owner counts)", params: ServerParams, response: { 200: ServerUserCountSchema, ...refusals } },
    },
    async (request) => countServerUsers(deps.store, serverAccessOf(request).serverId),
  );

  typed.post(
    '/manage/add-user',
    {
      ...ownerOnly,
      schema: {
        tags,
        summary: 'Add an existing account by e-mail as admin or user',
        body: AddUserBody,
        response: { 201: AddServerUserAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { email, role } = request.body;
      const added = await addServerUser(deps, await deps.currentUser(request), { serverId: serverAccessOf(request).serverId, email, role });
      return reply.code(201).send(added);
    },
  );

  typed.patch(
    '/manage/server/:id/users/:userId',
    {
      ...ownerOnly,
      schema: { tags, summary: "Change a member's role (not the owner's)", params: ServerUserParams, body: RoleBody, response: { 200: MessageAnswerSchema, ...refusals } },
    },
    async (request) => {
      await changeServerUserRole(deps, await deps.currentUser(request), serverAccessOf(request).serverId, request.params.userId, request.body.role);
      return { message: ROLE_UPDATED };
    },
  );

  typed.delete(
    '/manage/server/:id/users/:userId',
    { ...ownerOnly, schema: { tags, summary: 'Remove a member (not the owner)', params: ServerUserParams, response: { 200: MessageAnswerSchema, ...refusals } } },
    async (request) => {
      await removeServerUser(deps, await deps.currentUser(request), serverAccessOf(request).serverId, request.params.userId);
      return { message: USER_REMOVED };
    },
  );
}
