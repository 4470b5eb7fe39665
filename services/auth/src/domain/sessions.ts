/** Changes to a user that other services must hear about. */
import type { AuthContext } from './context.ts';
import type { UserDoc } from './store.ts';

/**
 * Bumps the user's token version (every existing access token dies, here at once and elsewhere when
 * the read models apply user.sessions-revoked) and returns the user as now stored.
 */
export async function revokeSessions(
  ctx: Pick<AuthContext, 'store' | 'events'>,
  user: UserDoc,
  reason: string,
  audit?: { action: string; details: string | Record<string, unknown> },
): Promise<UserDoc> {
  const updated = await ctx.store.users.findOneAndUpdate({ _id: user._id }, { $inc: { tokenVersion: 1 } });
  const next = updated ?? { ...user, tokenVersion: user.tokenVersion + 1 };
  await ctx.events.publish(
    [{ type: 'user.sessions-revoked.v1', data: { userId: user._id, tokenVersion: next.tokenVersion, reason } }],
    audit === undefined ? undefined : { actorId: user._id, actorEmail: user.email, serverId: null, ...audit },
  );
  return next;
}

export async function publishUserUpdated(ctx: Pick<AuthContext, 'events'>, user: UserDoc, audit: { action: string; details: string | Record<string, unknown> }): Promise<void> {
  await ctx.events.publish(
    [{ type: 'user.updated.v1', data: { userId: user._id, username: user.username, email: user.email, twoFactorEnabled: user.twoFactorEnabled } }],
    { actorId: user._id, actorEmail: user.email, serverId: null, ...audit },
  );
}
