/**
 * Password recovery (docs/spec/part-1.txt section 4): a single-use link mailed in the background, valid 30 minutes, one
 * live link per user. Known and unknown addresses get the same answer in the same time. A reset only
 * sets the password: it never signs in and never touches 2FA.
 */
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { generateOpaqueToken, sha256Hex } from './opaque-tokens.ts';
import { hashPassword } from './passwords.ts';
import { revokeSessions } from './sessions.ts';

export const FORGOT_ANSWER = 'If an account with that e-mail address exists, a password reset link has been sent.';
export const RESET_INVALID = 'This reset link is invalid or has expired.';
export const PASSWORD_CHANGED = 'Password changed! You can log in now.';

export const RESET_TOKEN_TTL_MS = 30 * 60_000;

function resetIpKey(ip: string): string {
  return `reset:ip:${ip}`;
}

/** Mails a reset link when the address belongs to an active account; always the same outcome for the caller. */
export async function requestPasswordReset(
  ctx: Pick<AuthContext, 'store' | 'limiter' | 'limits' | 'mail' | 'publicUrl'>,
  input: { readonly email: string; readonly ip: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await ctx.limiter.consume(resetIpKey(input.ip), ctx.limits.resetPerIp);
  await ctx.limiter.consume(`forgot:acct:${sha256Hex(email)}`, ctx.limits.forgotPerAccount);
  const user = await ctx.store.users.findOne({ email });
  // Same work whether or not the address is known; the mail goes out in the background.
  const token = generateOpaqueToken();
  const tokenHash = sha256Hex(token);
  if (user === null || !user.active) return;
  await ctx.store.resetTokens.deleteMany({ userId: user._id });
  await ctx.store.resetTokens.insertOne({ _id: tokenHash, userId: user._id, expiresAt: Date.now() + RESET_TOKEN_TTL_MS });
  // The link is built from the configured public URL, never from the request's Host header.
  const link = `${ctx.publicUrl.replace(/\/+$/, '')}/reset-password/${token}`;
  ctx.mail.send({
    to: user.email,
    subject: 'Reset your Skald password',
    text: `Hello ${user.username},\n\nSomeone asked to reset the password of your Skald account. To choose a new password, open:\n\n${link}\n\nThe link works once and expires in 30 minutes. If you did not ask for this, ignore this mail.\n`,
  });
}

/** Sets the new password with a mailed token (single use) and signs the user out everywhere. */
export async function resetPassword(
  ctx: Pick<AuthContext, 'store' | 'events' | 'limiter' | 'limits' | 'passwordCost'>,
  input: { readonly token: string; readonly password: string; readonly ip: string },
): Promise<void> {
  const { store } = ctx;
  await ctx.limiter.consume(resetIpKey(input.ip), ctx.limits.resetPerIp);
  const tokenHash = sha256Hex(input.token);
  const record = await store.resetTokens.findOne({ _id: tokenHash });
  // Single use: whoever deletes the row owns the reset.
  const claimed = record !== null && (await store.resetTokens.deleteOne({ _id: tokenHash })) === 1;
  if (record === null || !claimed || record.expiresAt <= Date.now()) throw new HttpError(400, RESET_INVALID);
  const user = await store.users.findOne({ _id: record.userId });
  if (user === null || !user.active) throw new HttpError(400, RESET_INVALID);
  const passwordHash = await hashPassword(input.password, ctx.passwordCost);
  await store.users.updateOne({ _id: user._id }, { $set: { passwordHash } });
  await store.resetTokens.deleteMany({ userId: user._id });
  await revokeSessions(ctx, user, 'password-reset', { action: 'user.password-reset', details: 'Password reset by e-mail link' });
}
