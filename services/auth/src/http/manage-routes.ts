/**
 * Server users (spec 001 §2 Manage Server Users, §4, §7). Owner only (the server role rules: users
 * are the owner's business). The owner cannot be demoted or removed; adding past the tier's
 * maxServerUsers is refused. Every count includes the owner.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { tierOf } from '@skald/contracts';
import { DuplicateKeyError } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from '../context.ts';
import { AddUserBody, RoleBody, ServerParams, ServerUserParams } from '../schemas.ts';
import { requireServerAccess } from '../server-access.ts';
import { membershipId } from '../store.ts';

export const NO_SUCH_USER = 'No user with that e-mail address exists.';
export const ALREADY_MEMBER = 'That user is already a member of this server.';
export const OWNER_LOCKED = "The owner's role cannot be changed and the owner cannot be removed.";
export const NOT_A_MEMBER = 'That user is not a member of this server.';
export const USER_ADDED = 'Successfully added user to the dashboard';
export const ROLE_UPDATED = 'User role updated succesfully';
export const USER_REMOVED = 'Succesfully removed user from the dashboard';

export function userLimitReached(limit: number, tierLabel: string): string {
  return `This server has reached its limit of ${limit} users on the ${tierLabel} plan. Upgrade the plan or remove a user first.`;
}

export async function registerManageRoutes(app: FastifyInstance, ctx: AuthContext): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;

  typed.get('/manage/server/:id/users', { schema: { params: ServerParams } }, async (request) => {
    const user = await ctx.currentUser(request);
    const { server } = await requireServerAccess(store, user._id, request.params.id, 'owner');
    const members = await store.memberships.find({ serverId: server._id }, { sort: { createdAt: 1 } });
    const users = await store.users.find({ _id: { $in: members.map((m) => m.userId) } });
    const byId = new Map(users.map((u) => [u._id, u]));
    return members.flatMap((m) => {
      const u = byId.get(m.userId);
      return u === undefined ? [] : [{ id: u._id, username: u.username, email: u.email, role: m.role }];
    });
  });

  typed.get('/manage/server/:id/user-count', { schema: { params: ServerParams } }, async (request) => {
    const user = await ctx.currentUser(request);
    const { server } = await requireServerAccess(store, user._id, request.params.id, 'owner');
    return { current: await store.memberships.count({ serverId: server._id }), limit: tierOf(server.tier).maxServerUsers };
  });

  typed.post('/manage/add-user', { schema: { body: AddUserBody } }, async (request, reply) => {
    const actor = await ctx.currentUser(request);
    const { server } = await requireServerAccess(store, actor._id, request.body.serverId, 'owner');
    const target = await store.users.findOne({ email: request.body.email.trim().toLowerCase() });
    if (target === null || !target.active) throw new HttpError(404, NO_SUCH_USER);
    if ((await store.memberships.findOne({ _id: membershipId(server._id, target._id) })) !== null) throw new HttpError(409, ALREADY_MEMBER);
    const tier = tierOf(server.tier);
    if ((await store.memberships.count({ serverId: server._id })) >= tier.maxServerUsers) {
      throw new HttpError(403, userLimitReached(tier.maxServerUsers, tier.label));
    }
    const role = request.body.role;
    try {
      await store.memberships.insertOne({
        _id: membershipId(server._id, target._id),
        serverId: server._id,
        userId: target._id,
        role,
        createdAt: new Date().toISOString(),
      });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new HttpError(409, ALREADY_MEMBER);
      throw err;
    }
    // Two owners adding at the same moment could pass the count check together: undo ours if so.
    if ((await store.memberships.count({ serverId: server._id })) > tier.maxServerUsers) {
      await store.memberships.deleteOne({ _id: membershipId(server._id, target._id) });
      throw new HttpError(403, userLimitReached(tier.maxServerUsers, tier.label));
    }
    await ctx.events.publish([{ type: 'membership.added.v1', data: { serverId: server._id, userId: target._id, role } }], {
      actorId: actor._id,
      actorEmail: actor.email,
      serverId: server._id,
      action: 'membership.added',
      details: { userId: target._id, email: target.email, role },
    });
    return reply.code(201).send({ message: USER_ADDED, user: { id: target._id, username: target.username, email: target.email, role } });
  });

  typed.patch('/manage/server/:id/users/:userId', { schema: { params: ServerUserParams, body: RoleBody } }, async (request) => {
    const actor = await ctx.currentUser(request);
    const { server } = await requireServerAccess(store, actor._id, request.params.id, 'owner');
    const membership = await store.memberships.findOne({ _id: membershipId(server._id, request.params.userId) });
    if (membership === null) throw new HttpError(404, NOT_A_MEMBER);
    if (membership.role === 'owner') throw new HttpError(403, OWNER_LOCKED);
    const role = request.body.role;
    await store.memberships.updateOne({ _id: membership._id }, { $set: { role } });
    await ctx.events.publish([{ type: 'membership.role-changed.v1', data: { serverId: server._id, userId: membership.userId, role } }], {
      actorId: actor._id,
      actorEmail: actor.email,
      serverId: server._id,
      action: 'membership.role-changed',
      details: { userId: membership.userId, from: membership.role, to: role },
    });
    return { message: ROLE_UPDATED };
  });

  typed.delete('/manage/server/:id/users/:userId', { schema: { params: ServerUserParams } }, async (request) => {
    const actor = await ctx.currentUser(request);
    const { server } = await requireServerAccess(store, actor._id, request.params.id, 'owner');
    const membership = await store.memberships.findOne({ _id: membershipId(server._id, request.params.userId) });
    if (membership === null) throw new HttpError(404, NOT_A_MEMBER);
    if (membership.role === 'owner') throw new HttpError(403, OWNER_LOCKED);
    await store.memberships.deleteOne({ _id: membership._id });
    await ctx.events.publish([{ type: 'membership.removed.v1', data: { serverId: server._id, userId: membership.userId } }], {
      actorId: actor._id,
      actorEmail: actor.email,
      serverId: server._id,
      action: 'membership.removed',
      details: { userId: membership.userId, role: membership.role },
    });
    return { message: USER_REMOVED };
  });
}
