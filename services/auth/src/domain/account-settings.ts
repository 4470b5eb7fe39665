/** Account settings (docs/spec/part-2.txt section 2 user settings): username, e-mail and password of the signed-in user. */
import { DuplicateKeyError } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { loginAccountKey } from './login.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { EMAIL_TAKEN, USERNAME_TAKEN } from './registration.ts';
import { publishUserUpdated, revokeSessions } from './sessions.ts';
import type { UserDoc } from './store.ts';

export const USERNAME_UPDATED = 'Username updated.';
export const EMAIL_UPDATED = 'E-mail updated.';
export const PASSWORD_UPDATED = 'Password updated.';
export const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect.';

type SettingsContext = Pick<AuthContext, 'store' | 'events'>;

/** Runs a write that a unique index guards, answering 409 with `taken` when another record holds the value. */
async function claimUnique(write: () => Promise<unknown>, taken: string): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw new HttpError(409, taken);
    throw err;
  }
}

export async function changeUsername(ctx: SettingsContext, user: UserDoc, username: string): Promise<void> {
  const usernameLower = username.toLowerCase();
  const holder = await ctx.store.users.findOne({ usernameLower });
  if (holder !== null && holder._id !== user._id) throw new HttpError(409, USERNAME_TAKEN);
  await claimUnique(() => ctx.store.users.updateOne({ _id: user._id }, { $set: { username, usernameLower } }), USERNAME_TAKEN);
  await publishUserUpdated(ctx, { ...user, username, usernameLower }, { action: 'user.username-changed', details: { from: user.username, to: username } });
}

export async function changeEmail(ctx: SettingsContext, user: UserDoc, rawEmail: string): Promise<void> {
  const email = rawEmail.toLowerCase();
  const holder = await ctx.store.users.findOne({ email });
  if (holder !== null && holder._id !== user._id) throw new HttpError(409, EMAIL_TAKEN);
  await claimUnique(() => ctx.store.users.updateOne({ _id: user._id }, { $set: { email } }), EMAIL_TAKEN);
  // Pending reset links were mailed to the old address: they die with the change.
  await ctx.store.resetTokens.deleteMany({ userId: user._id });
  await publishUserUpdated(ctx, { ...user, email }, { action: 'user.email-changed', details: { from: user.email, to: email } });
}

/**
 * Needs the current password (wrong guesses count against the account's login window). Every older
 * token, other devices included, dies; returns the user as now stored so the caller gets a fresh token.
 */
export async function changePassword(
  ctx: Pick<AuthContext, 'store' | 'events' | 'limiter' | 'limits' | 'passwordCost'>,
  user: UserDoc,
  input: { readonly currentPassword: string; readonly newPassword: string },
): Promise<UserDoc> {
  const limitKey = loginAccountKey(user.usernameLower);
  await ctx.limiter.assertOpen(limitKey, ctx.limits.loginPerAccount);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await ctx.limiter.consume(limitKey, ctx.limits.loginPerAccount).catch(() => undefined);
    throw new HttpError(400, WRONG_CURRENT_PASSWORD);
  }
  const passwordHash = await hashPassword(input.newPassword, ctx.passwordCost);
  await ctx.store.users.updateOne({ _id: user._id }, { $set: { passwordHash } });
  await ctx.store.resetTokens.deleteMany({ userId: user._id });
  return revokeSessions(ctx, user, 'password-changed', { action: 'user.password-changed', details: 'Password changed' });
}
