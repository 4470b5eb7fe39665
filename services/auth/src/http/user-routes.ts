/** Account settings (spec 001 §2 user settings, §7): change username, e-mail, password. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DuplicateKeyError } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from '../context.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import { EmailBody, PasswordBody, UsernameBody } from '../schemas.ts';
import { publishUserUpdated, revokeSessions } from '../user-changes.ts';
import { EMAIL_TAKEN, USERNAME_TAKEN } from './account-routes.ts';

export const USERNAME_UPDATED = 'Username updated.';
export const EMAIL_UPDATED = 'E-mail updated.';
export const PASSWORD_UPDATED = 'Password updated.';
export const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect.';

export async function registerUserRoutes(app: FastifyInstance, ctx: AuthContext): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;

  typed.patch('/user/username', { schema: { body: UsernameBody } }, async (request) => {
    const user = await ctx.currentUser(request);
    const username = request.body.username;
    const usernameLower = username.toLowerCase();
    const holder = await store.users.findOne({ usernameLower });
    if (holder !== null && holder._id !== user._id) throw new HttpError(409, USERNAME_TAKEN);
    try {
      await store.users.updateOne({ _id: user._id }, { $set: { username, usernameLower } });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new HttpError(409, USERNAME_TAKEN);
      throw err;
    }
    await publishUserUpdated(ctx, { ...user, username, usernameLower }, { action: 'user.username-changed', details: { from: user.username, to: username } });
    return { message: USERNAME_UPDATED };
  });

  typed.patch('/user/email', { schema: { body: EmailBody } }, async (request) => {
    const user = await ctx.currentUser(request);
    const email = request.body.email.toLowerCase();
    const holder = await store.users.findOne({ email });
    if (holder !== null && holder._id !== user._id) throw new HttpError(409, EMAIL_TAKEN);
    try {
      await store.users.updateOne({ _id: user._id }, { $set: { email } });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new HttpError(409, EMAIL_TAKEN);
      throw err;
    }
    // Pending reset links were mailed to the old address: they die with the change.
    await store.resetTokens.deleteMany({ userId: user._id });
    await publishUserUpdated(ctx, { ...user, email }, { action: 'user.email-changed', details: { from: user.email, to: email } });
    return { message: EMAIL_UPDATED };
  });

  typed.patch('/user/password', { schema: { body: PasswordBody } }, async (request) => {
    const user = await ctx.currentUser(request);
    const limitKey = `login:acct:${user.usernameLower}`;
    await ctx.limiter.assertOpen(limitKey, ctx.limits.loginPerAccount);
    if (!(await verifyPassword(request.body.currentPassword, user.passwordHash))) {
      await ctx.limiter.consume(limitKey, ctx.limits.loginPerAccount).catch(() => undefined);
      throw new HttpError(400, WRONG_CURRENT_PASSWORD);
    }
    const passwordHash = await hashPassword(request.body.newPassword, ctx.passwordCost);
    await store.users.updateOne({ _id: user._id }, { $set: { passwordHash } });
    await store.resetTokens.deleteMany({ userId: user._id });
    const updated = await revokeSessions(ctx, user, 'password-changed', { action: 'user.password-changed', details: 'Password changed' });
    // Every older token (other devices included) is dead; the caller continues with this one.
    return { message: PASSWORD_UPDATED, token: ctx.tokens.issue(updated) };
  });
}
