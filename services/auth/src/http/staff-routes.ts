/**
 * The admin area's changes of facts auth owns (docs/spec/part-2.txt sections 6, 7; docs/ADMIN_AREA.md):
 *   PUT    /admin/users/{id}/role                 {role}          site role admin or superadmin
 *   PUT    /admin/users/{id}/active               {active}        admin or superadmin
 *   POST   /admin/servers/{id}/users              {email, role}   admin or superadmin
 *   PUT    /admin/servers/{id}/users/{userId}     {role}          admin or superadmin
 *   DELETE /admin/servers/{id}/users/{userId}                     admin or superadmin
 * The route table gives these exact paths to auth, ahead of the '/admin' prefix (the admin service). Access
 * is checked in onRequest, before the body is validated: a caller without the role learns nothing.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AddServerUserAnswerSchema,
  AdminAddServerUserBodySchema,
  AdminServerUserRoleBodySchema,
  AdminUserActiveBodySchema,
  AdminUserRoleBodySchema,
  AdminUserStateSchema,
  EMAIL_AND_ROLE_REQUIRED,
  MessageAnswerSchema,
} from '@skald/contracts/api';
import { DEFAULT_SITE_ROLE, SITE_ROLES, isServerRole } from '@skald/contracts';
import type { ServerRole } from '@skald/contracts';
import { HttpError, requireSiteRole } from '@skald/service-kit';
import { addServerUser, changeServerUserRole, removeServerUser } from '../domain/memberships.ts';
import type { AssignableRole } from '../domain/memberships.ts';
import { transferOwnership } from '../domain/ownership.ts';
import { loadServer } from '../domain/servers.ts';
import { changeActive, changeSiteRole } from '../domain/staff-accounts.ts';
import type { AuthRouteDeps } from './deps.ts';
import { ServerParams, ServerUserParams, errorAnswers } from './schemas.ts';

// docs/spec/part-2.txt section 8: the admin server page's success toasts, answered as the message.
export const STAFF_USER_ADDED = 'Succesfully added user to the server';
export const STAFF_ROLE_CHANGED = 'Succesfully changed user role';
export const STAFF_USER_REMOVED = 'Succesfully removed user from the server';
export const UNKNOWN_SERVER_ROLE = 'The role must be user, admin or owner.';

const tags = ['admin'];

/** A role the admin area gives: user, admin, or owner (which moves the server's ownership: ownership.ts). */
function staffGivenRole(role: string): ServerRole {
  if (isServerRole(role)) return role;
  throw new HttpError(400, UNKNOWN_SERVER_ROLE);
}

/** Added as owner: first as admin, then the ownership moves to them (the previous owner becomes admin). */
const ADDED_BEFORE_TRANSFER: AssignableRole = 'admin';

export async function registerStaffRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const adminStaff = { onRequest: [app.authenticate, requireSiteRole('admin', 'superadmin')] };
  const refusals = errorAnswers(400, 401, 403, 404);

  typed.put(
    '/admin/users/:id/role',
    {
      ...adminStaff,
      schema: {
        tags,
        summary: "Change a user's site role (staff: admin, superadmin)",
        description:
          `Roles ${SITE_ROLES.join(', ')} (${DEFAULT_SITE_ROLE}: every account's, the default). ` +
          "The user must have 2FA enabled (400 'User must have 2FA enabled to change role'); the same role again changes nothing. " +
          'Not one\'s own account; an admin changes only accounts below admin and gives at most admin. The user\'s sessions end (the role travels in the token).',
        params: ServerParams,
        body: AdminUserRoleBodySchema,
        response: { 200: AdminUserStateSchema, ...refusals },
      },
    },
    async (request) => changeSiteRole(deps, await deps.currentUser(request), request.params.id, request.body.role),
  );

  typed.put(
    '/admin/users/:id/active',
    {
      ...adminStaff,
      schema: {
        tags,
        summary: 'Disable or enable an account (staff: admin, superadmin)',
        description: "A disabled account's sessions end at once and its sign-in answers 403 'This account is disabled.'. Same rank rules as the role change.",
        params: ServerParams,
        body: AdminUserActiveBodySchema,
        response: { 200: AdminUserStateSchema, ...refusals },
      },
    },
    async (request) => changeActive(deps, await deps.currentUser(request), request.params.id, request.body.active),
  );

  typed.post(
    '/admin/servers/:id/users',
    {
      ...adminStaff,
      schema: {
        tags,
        summary: 'Add an existing account to a server by e-mail (staff: admin, superadmin)',
        description:
          `400 '${EMAIL_AND_ROLE_REQUIRED}' when either is empty; role user, admin or owner (owner: added, then made the owner, the previous owner becoming admin). ` +
          "The tier's member limit holds as for the owner.",
        params: ServerParams,
        body: AdminAddServerUserBodySchema,
        response: { 201: AddServerUserAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim();
      const role = request.body.role.trim();
      if (email === '' || role === '') throw new HttpError(400, EMAIL_AND_ROLE_REQUIRED);
      const given = staffGivenRole(role);
      const server = await loadServer(deps.store, request.params.id);
      const actor = await deps.currentUser(request);
      const added = await addServerUser(deps, actor, { serverId: server._id, email, role: given === 'owner' ? ADDED_BEFORE_TRANSFER : given }, 'staff');
      if (given === 'owner') await transferOwnership(deps, actor, server._id, added.user.id);
      return reply.code(201).send({ message: STAFF_USER_ADDED, user: { ...added.user, role: given } });
    },
  );

  typed.put(
    '/admin/servers/:id/users/:userId',
    {
      ...adminStaff,
      schema: {
        tags,
        summary: "Change a server member's role (staff: admin, superadmin); owner moves the server's ownership",
        description:
          "role owner makes the member the server's owner and the previous owner an admin, in one step (409 if another change got there first; " +
          "the current owner again changes nothing). The owner's own role is not changed directly (403): give another member the owner role.",
        params: ServerUserParams,
        body: AdminServerUserRoleBodySchema,
        response: { 200: MessageAnswerSchema, ...refusals },
      },
    },
    async (request) => {
      const server = await loadServer(deps.store, request.params.id);
      const actor = await deps.currentUser(request);
      const { role } = request.body;
      if (role === 'owner') await transferOwnership(deps, actor, server._id, request.params.userId);
      else await changeServerUserRole(deps, actor, server._id, request.params.userId, role, 'staff');
      return { message: STAFF_ROLE_CHANGED };
    },
  );

  typed.delete(
    '/admin/servers/:id/users/:userId',
    {
      ...adminStaff,
      schema: { tags, summary: 'Remove a member from a server (staff: admin, superadmin; not the owner)', params: ServerUserParams, response: { 200: MessageAnswerSchema, ...refusals } },
    },
    async (request) => {
      const server = await loadServer(deps.store, request.params.id);
      await removeServerUser(deps, await deps.currentUser(request), server._id, request.params.userId, 'staff');
      return { message: STAFF_USER_REMOVED };
    },
  );
}
