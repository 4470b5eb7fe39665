/**
 * Server users (docs/spec/part-2.txt sections 2 "Manage Server Users" and 4). The owner cannot be demoted or removed; adding
 * past the tier's maxServerUsers is refused. Every count includes the owner. The memberships here are
 * authoritative: `membershipRoles` answers requireServerRole for the auth service's own routes.
 */
import { DuplicateKeyError } from '@skald/ports';
import { MembershipAddedEvent, MembershipRemovedEvent, MembershipRoleChangedEvent, identityMessage, tierOf } from '@skald/contracts';
import type { ServerRole } from '@skald/contracts';
import type { AddServerUserAnswer, ServerUserCount, ServerUsers } from '@skald/contracts/api';
import { HttpError } from '@skald/service-kit';
import type { ServerRoleSource } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { loadServer } from './servers.ts';
import { membershipId } from './store.ts';
import type { AuthStore, MembershipDoc, UserDoc } from './store.ts';

export const NO_SUCH_USER = 'No user with that e-mail address exists.';
export const ALREADY_MEMBER = 'That user is already a member of this server.';
export const OWNER_LOCKED = "The owner's role cannot be changed and the owner cannot be removed.";
/** Staff can hand a server over, so their refusal says how. */
export const OWNER_LOCKED_FOR_STAFF = `${OWNER_LOCKED} To hand the server over, give another member the owner role: the owner then becomes an admin.`;
export const NOT_A_MEMBER = 'That user is not a member of this server.';
export const MEMBERSHIP_CHANGED_MEANWHILE = "That user's membership changed at the same moment. Reload the users and try again.";
export const USER_ADDED = 'Successfully added user to the dashboard';
export const ROLE_UPDATED = 'User role updated succesfully';
export const USER_REMOVED = 'Succesfully removed user from the dashboard';

/** Roles the owner can hand out through /manage (ownership moves only through the admin area: ownership.ts). */
export type AssignableRole = Exclude<ServerRole, 'owner'>;

export function userLimitReached(limit: number, tierLabel: string): string {
  return `This server has reached its limit of ${limit} users on the ${tierLabel} plan. Upgrade the plan or remove a user first.`;
}

type MembershipContext = Pick<AuthContext, 'store' | 'events'>;

/**
 * Who changes the membership: the server's owner (`/manage`, audited as membership.*) or staff in the
 * admin area (audited as staff.member-*, so the change is listed in the admin logs too).
 */
export type MembershipChanger = 'owner' | 'staff';

const AUDIT_ACTIONS_OF = {
  owner: { added: 'membership.added', roleChanged: 'membership.role-changed', removed: 'membership.removed' },
  staff: { added: 'staff.member-added', roleChanged: 'staff.member-role-changed', removed: 'staff.member-removed' },
} as const;

/** The caller's role on a server, from the authoritative memberships (null: not a member). */
export function membershipRoles(store: Pick<AuthStore, 'memberships'>): ServerRoleSource {
  return {
    async roleOf(userId, serverId) {
      return (await store.memberships.findOne({ _id: membershipId(serverId, userId) }))?.role ?? null;
    },
  };
}

/** Members with their account details, oldest membership first. */
export async function listServerUsers(store: Pick<AuthStore, 'memberships' | 'users'>, serverId: string): Promise<ServerUsers> {
  const members = await store.memberships.find({ serverId }, { sort: { createdAt: 1 } });
  const users = await store.users.find({ _id: { $in: members.map((m) => m.userId) } });
  const byId = new Map(users.map((u) => [u._id, u]));
  return members.flatMap((m) => {
    const u = byId.get(m.userId);
    return u === undefined ? [] : [{ id: u._id, username: u.username, email: u.email, role: m.role }];
  });
}

export async function countServerUsers(store: Pick<AuthStore, 'memberships' | 'servers'>, serverId: string): Promise<ServerUserCount> {
  const server = await loadServer(store, serverId);
  return { current: await store.memberships.count({ serverId: server._id }), limit: tierOf(server.tier).maxServerUsers };
}

/** Adds an existing active account by e-mail, within the tier's member limit. */
export async function addServerUser(
  ctx: MembershipContext,
  actor: UserDoc,
  input: { readonly serverId: string; readonly email: string; readonly role: AssignableRole },
  changer: MembershipChanger = 'owner',
): Promise<AddServerUserAnswer> {
  const { store } = ctx;
  const server = await loadServer(store, input.serverId);
  const target = await store.users.findOne({ email: input.email.trim().toLowerCase() });
  if (target === null || !target.active) throw new HttpError(404, NO_SUCH_USER);
  const id = membershipId(server._id, target._id);
  if ((await store.memberships.findOne({ _id: id })) !== null) throw new HttpError(409, ALREADY_MEMBER);
  const tier = tierOf(server.tier);
  if ((await store.memberships.count({ serverId: server._id })) >= tier.maxServerUsers) {
    throw new HttpError(403, userLimitReached(tier.maxServerUsers, tier.label));
  }
  const { role } = input;
  try {
    await store.memberships.insertOne({ _id: id, serverId: server._id, userId: target._id, role, createdAt: new Date().toISOString() });
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw new HttpError(409, ALREADY_MEMBER);
    throw err;
  }
  // Two owners adding at the same moment could pass the count check together: undo ours if so.
  if ((await store.memberships.count({ serverId: server._id })) > tier.maxServerUsers) {
    await store.memberships.deleteOne({ _id: id });
    throw new HttpError(403, userLimitReached(tier.maxServerUsers, tier.label));
  }
  await ctx.events.publish([identityMessage(MembershipAddedEvent, { serverId: server._id, userId: target._id, role })], {
    actorId: actor._id,
    actorEmail: actor.email,
    serverId: server._id,
    action: AUDIT_ACTIONS_OF[changer].added,
    details: { userId: target._id, email: target.email, role },
  });
  return { message: USER_ADDED, user: { id: target._id, username: target.username, email: target.email, role } };
}

/** The membership to change: 404 if none, 403 for the owner's own. */
async function changeableMembership(store: Pick<AuthStore, 'memberships'>, serverId: string, userId: string, changer: MembershipChanger): Promise<MembershipDoc> {
  const membership = await store.memberships.findOne({ _id: membershipId(serverId, userId) });
  if (membership === null) throw new HttpError(404, NOT_A_MEMBER);
  if (membership.role === 'owner') throw new HttpError(403, changer === 'staff' ? OWNER_LOCKED_FOR_STAFF : OWNER_LOCKED);
  return membership;
}

/**
 * Role changes and removals are guarded on the member not being the owner: an ownership transfer may have
 * made them the owner since they were read, and the owner is never demoted or removed this way.
 */
const NOT_OWNER = { $ne: 'owner' } as const;

/** A guarded write matched nothing: the member left (404) or became the owner (403) meanwhile. */
async function refusedMeanwhile(store: Pick<AuthStore, 'memberships'>, serverId: string, userId: string, changer: MembershipChanger): Promise<never> {
  await changeableMembership(store, serverId, userId, changer);
  throw new HttpError(409, MEMBERSHIP_CHANGED_MEANWHILE);
}

export async function changeServerUserRole(
  ctx: MembershipContext,
  actor: UserDoc,
  serverId: string,
  userId: string,
  role: AssignableRole,
  changer: MembershipChanger = 'owner',
): Promise<void> {
  const membership = await changeableMembership(ctx.store, serverId, userId, changer);
  const { matched } = await ctx.store.memberships.updateOne({ _id: membership._id, role: NOT_OWNER }, { $set: { role } });
  if (matched === 0) await refusedMeanwhile(ctx.store, serverId, userId, changer);
  await ctx.events.publish([identityMessage(MembershipRoleChangedEvent, { serverId, userId: membership.userId, role })], {
    actorId: actor._id,
    actorEmail: actor.email,
    serverId,
    action: AUDIT_ACTIONS_OF[changer].roleChanged,
    details: { userId: membership.userId, from: membership.role, to: role },
  });
}

export async function removeServerUser(ctx: MembershipContext, actor: UserDoc, serverId: string, userId: string, changer: MembershipChanger = 'owner'): Promise<void> {
  const membership = await changeableMembership(ctx.store, serverId, userId, changer);
  if ((await ctx.store.memberships.deleteOne({ _id: membership._id, role: NOT_OWNER })) === 0) await refusedMeanwhile(ctx.store, serverId, userId, changer);
  await ctx.events.publish([identityMessage(MembershipRemovedEvent, { serverId, userId: membership.userId })], {
    actorId: actor._id,
    actorEmail: actor.email,
    serverId,
    action: AUDIT_ACTIONS_OF[changer].removed,
    details: { userId: membership.userId, role: membership.role },
  });
}
