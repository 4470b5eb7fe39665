/**
 * Site roles (staff default, moderator, admin, superadmin) and account activation, shared by the
 * `users:promote` command and the consumer that applies changes published by other services (admin area).
 */
import type { DocumentStore, EventBus } from '@skald/ports';
import type { SiteRole } from '@skald/contracts';
import { createIdentityPublisher } from './events.ts';
import type { IdentityPublisher } from './events.ts';
import { openAuthStore } from './store.ts';
import type { AuthStore, UserDoc } from './store.ts';

/**
 * Sets the user's site role. The role travels inside access tokens, so a change also revokes the
 * user's tokens (a demotion must take effect at once). Returns null for an unknown user.
 */
export async function setSiteRole(store: AuthStore, events: IdentityPublisher, user: UserDoc, role: SiteRole, actor: { id: string; email: string }): Promise<UserDoc> {
  const updated = await store.users.findOneAndUpdate({ _id: user._id }, { $set: { siteRole: role }, $inc: { tokenVersion: 1 } });
  const next = updated ?? { ...user, siteRole: role, tokenVersion: user.tokenVersion + 1 };
  await events.publish(
    [
      { type: 'user.site-role-changed.v1', data: { userId: user._id, role } },
      { type: 'user.sessions-revoked.v1', data: { userId: user._id, tokenVersion: next.tokenVersion, reason: 'site-role-changed' } },
    ],
    { actorId: actor.id, actorEmail: actor.email, serverId: null, action: 'user.site-role-changed', details: { userId: user._id, from: user.siteRole, to: role } },
  );
  return next;
}

/** `npm run skald -- users:promote <username> <role>`: works on the auth store and bus of a data folder. */
export async function promoteUser(docs: DocumentStore, bus: EventBus, username: string, role: SiteRole): Promise<UserDoc | null> {
  const store = await openAuthStore(docs);
  const user = await store.users.findOne({ usernameLower: username.toLowerCase() });
  if (user === null) return null;
  return setSiteRole(store, createIdentityPublisher(bus), user, role, { id: 'cli', email: 'cli@localhost' });
}
