/**
 * Account activation changed by another publisher (the admin area): applied to auth's own record only,
 * never re-published as a change. Disabling revokes the user's tokens; only user.sessions-revoked goes
 * out, and only when the record really changed.
 */
import { UserSessionsRevokedEvent, identityMessage } from '@skald/contracts';
import type { UserActiveChanged } from '@skald/contracts';
import type { AuthContext } from './context.ts';

export async function applyConsumedActive(ctx: Pick<AuthContext, 'store' | 'events'>, change: UserActiveChanged): Promise<void> {
  const updated = await ctx.store.users.findOneAndUpdate(
    { _id: change.userId, active: { $ne: change.active } },
    change.active ? { $set: { active: true } } : { $set: { active: false }, $inc: { tokenVersion: 1 } },
  );
  if (updated === null || change.active) return;
  await ctx.events.publish([identityMessage(UserSessionsRevokedEvent, { userId: updated._id, tokenVersion: updated.tokenVersion, reason: 'disabled' })]);
}
