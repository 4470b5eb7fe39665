/**
 * Site roles (user by default, moderator, admin, superadmin: SITE_ROLES). The role travels inside access tokens, so
 * every real change of it also revokes the user's tokens (a demotion must take effect at once).
 *
 * Two ways in, kept apart on purpose:
 *  - setSiteRole: a person decides (the `users:promote` command, later the admin area). A new change:
 *    it is published as user.site-role-changed with an audit entry.
 *  - applyConsumedSiteRole: the auth service applies a user.site-role-changed it READ from the identity
 *    topic (its own coming back, or another publisher's). That is not a new change, so it is never
 *    published again as one: re-publishing made two concurrent promotions bounce between their values
 *    forever. It only updates auth's own record; when the role really changed there,
 *    the user's tokens are revoked and only user.sessions-revoked goes out so the other services drop
 *    them too. The topic order then decides: every copy settles on the last role published.
 */
import type { DocumentStore, EventBus } from '@skald/ports';
import { UserSessionsRevokedEvent, UserSiteRoleChangedEvent, identityMessage } from '@skald/contracts';
import type { SiteRole, UserSiteRoleChanged } from '@skald/contracts';
import { createIdentityPublisher } from './identity-publisher.ts';
import type { Actor, AuthContext } from './context.ts';
import { openAuthStore } from './store.ts';
import type { UserDoc } from './store.ts';

const SITE_ROLE_REVOCATION = 'site-role-changed';

/** A person sets the user's site role: stored, tokens revoked, published with its audit entry. */
export async function setSiteRole(ctx: Pick<AuthContext, 'store' | 'events'>, user: UserDoc, role: SiteRole, actor: Actor): Promise<UserDoc> {
  const updated = await ctx.store.users.findOneAndUpdate({ _id: user._id }, { $set: { siteRole: role }, $inc: { tokenVersion: 1 } });
  const next = updated ?? { ...user, siteRole: role, tokenVersion: user.tokenVersion + 1 };
  await ctx.events.publish(
    [
      identityMessage(UserSiteRoleChangedEvent, { userId: user._id, role }),
      identityMessage(UserSessionsRevokedEvent, { userId: user._id, tokenVersion: next.tokenVersion, reason: SITE_ROLE_REVOCATION }),
    ],
    { actorId: actor.id, actorEmail: actor.email, serverId: null, action: 'user.site-role-changed', details: { userId: user._id, from: user.siteRole, to: role } },
  );
  return next;
}

/**
 * Applies a consumed user.site-role-changed to auth's own record. The conditional update makes
 * "did it change anything?" atomic: a value already in place (our own event coming back) changes
 * nothing and publishes nothing.
 */
export async function applyConsumedSiteRole(ctx: Pick<AuthContext, 'store' | 'events'>, change: UserSiteRoleChanged): Promise<void> {
  const updated = await ctx.store.users.findOneAndUpdate(
    { _id: change.userId, siteRole: { $ne: change.role } },
    { $set: { siteRole: change.role }, $inc: { tokenVersion: 1 } },
  );
  if (updated === null) return;
  await ctx.events.publish([
    identityMessage(UserSessionsRevokedEvent, { userId: updated._id, tokenVersion: updated.tokenVersion, reason: SITE_ROLE_REVOCATION }),
  ]);
}

/** `npm run skald -- users:promote <username> <role>`: works on the auth store and bus of a data folder. Null for an unknown user. */
export async function promoteUser(docs: DocumentStore, bus: EventBus, username: string, role: SiteRole): Promise<UserDoc | null> {
  const store = await openAuthStore(docs);
  const user = await store.users.findOne({ usernameLower: username.toLowerCase() });
  if (user === null) return null;
  return setSiteRole({ store, events: createIdentityPublisher(bus) }, user, role, { id: 'cli', email: 'cli@localhost' });
}
