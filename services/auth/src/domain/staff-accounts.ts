/**
 * Staff changes of accounts from the admin area (docs/spec/part-2.txt sections 4, 5, 6): a user's site role and active flag.
 * Auth owns both facts, so the admin area's calls are auth routes (gateway route table) and these are the
 * only decisions of them; the read models follow the published events.
 *
 * Rules, beyond the routes' site-role guard (admin or superadmin):
 *  - nobody changes their own role or disables their own account (a lone superadmin cannot lock the area out);
 *  - an admin changes only accounts below admin and gives at most the admin role; a superadmin changes any other account;
 *  - a role change needs the target to have 2FA enabled; the same role again changes nothing (no event, no entry).
 * Disabling bumps the token version: every session of the user ends at once (auth checks its own record on
 * every request, the other services apply user.sessions-revoked / user.active-changed), and sign-in answers
 * 403 'This account is disabled.' until staff enable the account again.
 */
import { SITE_ROLES, UserActiveChangedEvent, UserSessionsRevokedEvent, identityMessage } from '@skald/contracts';
import type { SiteRole } from '@skald/contracts';
import { TWO_FA_REQUIRED_FOR_ROLE } from '@skald/contracts/api';
import type { AdminUserState } from '@skald/contracts/api';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { setSiteRole } from './site-roles.ts';
import type { UserDoc } from './store.ts';

export const USER_NOT_FOUND = 'User not found.';
export const OWN_ACCOUNT = 'You cannot change your own role or status.';
export const ACCOUNT_OUTRANKS = 'You cannot change an account with a role at or above your own.';
export const ROLE_ABOVE_OWN = 'You cannot give a role above your own.';

/** SITE_ROLES lists the roles lowest first. */
const rank = (role: SiteRole): number => SITE_ROLES.indexOf(role);

type StaffContext = Pick<AuthContext, 'store' | 'events'>;

function stateOf(user: UserDoc): AdminUserState {
  return { id: user._id, role: user.siteRole, active: user.active };
}

/** The account the staff member may change: 404 unknown, 403 their own or one at or above their rank (superadmin excepted). */
async function changeableAccount(ctx: StaffContext, actor: UserDoc, userId: string): Promise<UserDoc> {
  const target = await ctx.store.users.findOne({ _id: userId });
  if (target === null) throw new HttpError(404, USER_NOT_FOUND);
  if (target._id === actor._id) throw new HttpError(403, OWN_ACCOUNT);
  if (actor.siteRole !== 'superadmin' && rank(target.siteRole) >= rank(actor.siteRole)) throw new HttpError(403, ACCOUNT_OUTRANKS);
  return target;
}

export async function changeSiteRole(ctx: StaffContext, actor: UserDoc, userId: string, role: SiteRole): Promise<AdminUserState> {
  const target = await changeableAccount(ctx, actor, userId);
  if (rank(role) > rank(actor.siteRole)) throw new HttpError(403, ROLE_ABOVE_OWN);
  if (target.siteRole === role) return stateOf(target);
  if (!target.twoFactorEnabled) throw new HttpError(400, TWO_FA_REQUIRED_FOR_ROLE);
  return stateOf(await setSiteRole(ctx, target, role, { id: actor._id, email: actor.email }));
}

export async function changeActive(ctx: StaffContext, actor: UserDoc, userId: string, active: boolean): Promise<AdminUserState> {
  const target = await changeableAccount(ctx, actor, userId);
  // Conditional: of two staff members deciding at once only the one that changes the record publishes.
  const updated = await ctx.store.users.findOneAndUpdate(
    { _id: target._id, active: { $ne: active } },
    active ? { $set: { active: true } } : { $set: { active: false }, $inc: { tokenVersion: 1 } },
  );
  if (updated === null) return stateOf({ ...target, active });
  const events = [identityMessage(UserActiveChangedEvent, { userId: updated._id, active })];
  if (!active) events.push(identityMessage(UserSessionsRevokedEvent, { userId: updated._id, tokenVersion: updated.tokenVersion, reason: 'disabled' }));
  await ctx.events.publish(events, {
    actorId: actor._id,
    actorEmail: actor.email,
    serverId: null,
    action: 'user.active-changed',
    details: { userId: updated._id, email: updated.email, active },
  });
  return stateOf(updated);
}
