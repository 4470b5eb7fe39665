/**
 * Sessions: the token version every access token carries as `tv`. Bumping it revokes every older token,
 * here at once (isSessionRevoked below, run by the kit's authPlugin on every request) and in the other
 * services when their read models apply user.sessions-revoked.
 */
import { UserSessionsRevokedEvent, UserUpdatedEvent, identityMessage } from '@skald/contracts';
import type { AccessClaims } from '@skald/service-kit';
import type { AuditInput } from './identity-publisher.ts';
import type { AuthContext } from './context.ts';
import type { AuthStore, UserDoc } from './store.ts';

/** An audit action and its details, attributed to the user themselves. */
export type OwnAudit = Pick<AuditInput, 'action' | 'details'>;

/** True when the token no longer belongs to a live session: user gone, disabled, or tokens revoked since. */
export function isSessionRevoked(user: UserDoc | null, claims: Pick<AccessClaims, 'tv'>): boolean {
  return user === null || !user.active || claims.tv !== user.tokenVersion;
}

/** The authPlugin's isRevoked over the auth service's own (authoritative) users. */
export function sessionRevocationCheck(store: Pick<AuthStore, 'users'>): (claims: AccessClaims) => Promise<boolean> {
  return async (claims) => isSessionRevoked(await store.users.findOne({ _id: claims.sub }), claims);
}

/** Revokes every token of the user, tells the other services, and returns the user as now stored. */
export async function revokeSessions(ctx: Pick<AuthContext, 'store' | 'events'>, user: UserDoc, reason: string, audit?: OwnAudit): Promise<UserDoc> {
  const updated = await ctx.store.users.findOneAndUpdate({ _id: user._id }, { $inc: { tokenVersion: 1 } });
  const next = updated ?? { ...user, tokenVersion: user.tokenVersion + 1 };
  await ctx.events.publish(
    [identityMessage(UserSessionsRevokedEvent, { userId: user._id, tokenVersion: next.tokenVersion, reason })],
    audit === undefined ? undefined : { actorId: user._id, actorEmail: user.email, serverId: null, ...audit },
  );
  return next;
}

/** Username, e-mail or 2FA state changed: the full current values go out with the audit entry. */
export async function publishUserUpdated(ctx: Pick<AuthContext, 'events'>, user: UserDoc, audit: OwnAudit): Promise<void> {
  await ctx.events.publish(
    [identityMessage(UserUpdatedEvent, { userId: user._id, username: user.username, email: user.email, twoFactorEnabled: user.twoFactorEnabled })],
    { actorId: user._id, actorEmail: user.email, serverId: null, ...audit },
  );
}

/** POST /auth/logout: signs the user out everywhere. */
export async function logout(ctx: Pick<AuthContext, 'store' | 'events'>, user: UserDoc): Promise<void> {
  await revokeSessions(ctx, user, 'logout', { action: 'user.logout', details: 'Signed out (all sessions)' });
}
