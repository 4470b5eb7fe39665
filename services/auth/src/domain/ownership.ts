/**
 * Ownership transfer (docs/spec/part-2.txt sections 2, 6: staff give a member the owner role in the admin area). A server has
 * exactly one owner at every moment: the new owner's membership, the previous owner's (who becomes admin)
 * and the server's ownerId change in ONE all-or-none write, guarded by the roles read just before. Of two
 * transfers at once only one applies; the other's guard misses and it answers 409 without changing anything.
 */
import { MembershipRoleChangedEvent, ServerOwnerChangedEvent, identityMessage } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { NOT_A_MEMBER } from './memberships.ts';
import { AUTH_COLLECTIONS, membershipId } from './store.ts';
import type { UserDoc } from './store.ts';

export const OWNERSHIP_CHANGED_MEANWHILE = "This server's owner or that member changed at the same moment. Reload the users and try again.";

/** The role the previous owner keeps: they still manage the server, without the owner's rights. */
export const PREVIOUS_OWNER_ROLE = 'admin';

export type TransferOutcome = 'transferred' | 'already-owner';

/**
 * Makes the member the server's owner and the previous owner an admin: 404 for a non-member, nothing to do
 * when the member already owns it, 409 when a concurrent change got there first. Audited as
 * staff.ownership-transferred naming the staff member, the new owner and the previous owner.
 */
export async function transferOwnership(
  ctx: Pick<AuthContext, 'store' | 'events'>,
  actor: UserDoc,
  serverId: string,
  userId: string,
): Promise<TransferOutcome> {
  const { store } = ctx;
  const target = await store.memberships.findOne({ _id: membershipId(serverId, userId) });
  if (target === null) throw new HttpError(404, NOT_A_MEMBER);
  if (target.role === 'owner') return 'already-owner';
  const previous = await store.memberships.findOne({ serverId, role: 'owner' });
  if (previous === null) throw new HttpError(409, OWNERSHIP_CHANGED_MEANWHILE);
  const applied = await store.updateAllOrNone([
    { collection: AUTH_COLLECTIONS.memberships, filter: { _id: previous._id, role: 'owner' }, update: { $set: { role: PREVIOUS_OWNER_ROLE } } },
    { collection: AUTH_COLLECTIONS.memberships, filter: { _id: target._id, role: target.role }, update: { $set: { role: 'owner' } } },
    { collection: AUTH_COLLECTIONS.servers, filter: { _id: serverId }, update: { $set: { ownerId: target.userId } } },
  ]);
  if (!applied) throw new HttpError(409, OWNERSHIP_CHANGED_MEANWHILE);
  const accounts = await store.users.find({ _id: { $in: [target.userId, previous.userId] } });
  const emailOf = (id: string): string => accounts.find((a) => a._id === id)?.email ?? '';
  await ctx.events.publish(
    [
      // The demotion first: a read model between the two events sees the server without an owner for a
      // moment (nobody gains a right early), never with two.
      identityMessage(MembershipRoleChangedEvent, { serverId, userId: previous.userId, role: PREVIOUS_OWNER_ROLE }),
      identityMessage(MembershipRoleChangedEvent, { serverId, userId: target.userId, role: 'owner' }),
      // The server's ownerId, as the write above set it: read models keeping a server's owner follow it.
      identityMessage(ServerOwnerChangedEvent, { serverId, ownerId: target.userId }),
    ],
    {
      actorId: actor._id,
      actorEmail: actor.email,
      serverId,
      action: 'staff.ownership-transferred',
      details: {
        userId: target.userId,
        email: emailOf(target.userId),
        from: target.role,
        previousOwnerId: previous.userId,
        previousOwnerEmail: emailOf(previous.userId),
        previousOwnerRole: PREVIOUS_OWNER_ROLE,
      },
    },
  );
  return 'transferred';
}
