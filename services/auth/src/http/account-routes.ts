/**
 * Sign-in and recovery (spec 000 §2–§4, §7): register, login (with the 2FA step), forgot and reset
 * password, the current user, plus logout and token refresh (not in the spec: the web client keeps one
 * short-lived token, so it refreshes it; logout revokes every token of the user).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DuplicateKeyError } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from '../context.ts';
import { generateOpaqueToken, sha256Hex } from '../opaque-tokens.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import { ForgotBody, LoginBody, RegisterBody, ResetBody, TwoFactorLoginBody } from '../schemas.ts';
import type { UserDoc } from '../store.ts';
import { checkTotp, totpPurpose } from '../totp.ts';
import { serversOfUser, userView } from '../views.ts';
import { revokeSessions } from '../user-changes.ts';

export const USERNAME_TAKEN = 'That username is already taken.';
export const EMAIL_TAKEN = 'That e-mail address is already registered.';
export const LOGIN_FAILED = 'Invalid username or password.';
export const ACCOUNT_DISABLED = 'This account is disabled.';
export const PRE_TOKEN_INVALID = 'Your 2FA session has expired. Please log in again.';
export const INVALID_2FA_CODE = 'Invalid 2FA code';
export const INCOMPLETE_2FA_CODE = 'Please enter the complete 6-digit code';
export const FORGOT_ANSWER = 'If an account with that e-mail address exists, a password reset link has been sent.';
export const RESET_INVALID = 'This reset link is invalid or has expired.';
export const PASSWORD_CHANGED = 'Password changed! You can log in now.';
export const REGISTERED = 'Registered! You can log in now.';

export const PRE_TOKEN_TTL_MS = 5 * 60_000;
export const RESET_TOKEN_TTL_MS = 30 * 60_000;
/** Wrong codes allowed on one pre-token before it dies (the per-account limit applies too). */
const PRE_TOKEN_MAX_FAILURES = 3;

function clientIp(request: FastifyRequest): string {
  return request.ip;
}

export async function registerAccountRoutes(app: FastifyInstance, ctx: AuthContext): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;

  async function loginAnswer(user: UserDoc) {
    const now = new Date().toISOString();
    await store.users.updateOne({ _id: user._id }, { $set: { lastLoginAt: now } });
    return { token: ctx.tokens.issue(user), servers: await serversOfUser(store, user._id) };
  }

  typed.post('/auth/register', { schema: { body: RegisterBody } }, async (request, reply) => {
    const { username, password, email } = request.body;
    const usernameLower = username.toLowerCase();
    const emailLower = email.toLowerCase();
    if ((await store.users.findOne({ usernameLower })) !== null) throw new HttpError(409, USERNAME_TAKEN);
    if ((await store.users.findOne({ email: emailLower })) !== null) throw new HttpError(409, EMAIL_TAKEN);
    const user: UserDoc = {
      _id: randomUUID(),
      username,
      usernameLower,
      email: emailLower,
      passwordHash: await hashPassword(password, ctx.passwordCost),
      siteRole: 'staff',
      active: true,
      tokenVersion: 0,
      twoFactorEnabled: false,
      totpSecretSealed: null,
      totpPendingSealed: null,
      totpLastStep: null,
      createdAt: new Date().toISOString(),
      lastLoginAt: null,
    };
    try {
      await store.users.insertOne(user);
    } catch (err) {
      // A concurrent registration won the race for the same name or address.
      if (err instanceof DuplicateKeyError) {
        const nameTaken = (await store.users.findOne({ usernameLower })) !== null;
        throw new HttpError(409, nameTaken ? USERNAME_TAKEN : EMAIL_TAKEN);
      }
      throw err;
    }
    await ctx.events.publish(
      [{ type: 'user.registered.v1', data: { userId: user._id, username, email: emailLower, role: 'staff', createdAt: user.createdAt } }],
      { actorId: user._id, actorEmail: emailLower, serverId: null, action: 'user.registered', details: { username } },
    );
    return reply.code(201).send({ message: REGISTERED, id: user._id });
  });

  typed.post('/auth/login', { schema: { body: LoginBody } }, async (request) => {
    const { username, password } = request.body;
    const accountKey = `login:acct:${username.toLowerCase()}`;
    await ctx.limiter.consume(`login:ip:${clientIp(request)}`, ctx.limits.loginPerIp);
    await ctx.limiter.assertOpen(accountKey, ctx.limits.loginPerAccount);
    const user = await store.users.findOne({ usernameLower: username.toLowerCase() });
    const ok = await verifyPassword(password, user?.passwordHash ?? ctx.dummyPasswordHash);
    if (user === null || !ok) {
      await ctx.limiter.consume(accountKey, ctx.limits.loginPerAccount).catch(() => undefined);
      throw new HttpError(401, LOGIN_FAILED);
    }
    if (!user.active) throw new HttpError(403, ACCOUNT_DISABLED);
    await ctx.limiter.clear(accountKey);
    if (user.twoFactorEnabled) {
      const preToken = generateOpaqueToken();
      await store.preTokens.insertOne({
        _id: sha256Hex(preToken),
        userId: user._id,
        expiresAt: Date.now() + PRE_TOKEN_TTL_MS,
        tokenVersion: user.tokenVersion,
        failedAttempts: 0,
      });
      return { twofa_required: true, pre_token: preToken };
    }
    return loginAnswer(user);
  });

  typed.post('/auth/2fa-login', { schema: { body: TwoFactorLoginBody } }, async (request) => {
    const { token, code } = request.body;
    const preHash = sha256Hex(token);
    const pre = await store.preTokens.findOne({ _id: preHash });
    if (pre === null || pre.expiresAt <= Date.now()) {
      if (pre !== null) await store.preTokens.deleteOne({ _id: preHash });
      throw new HttpError(401, PRE_TOKEN_INVALID);
    }
    if (!/^\d{6}$/.test(code)) throw new HttpError(400, INCOMPLETE_2FA_CODE);
    const limitKey = `2fa:acct:${pre.userId}`;
    await ctx.limiter.assertOpen(limitKey, ctx.limits.twoFactorPerAccount);
    const user = await store.users.findOne({ _id: pre.userId });
    if (user === null || !user.active || user.tokenVersion !== pre.tokenVersion || !user.twoFactorEnabled || user.totpSecretSealed === null) {
      await store.preTokens.deleteOne({ _id: preHash });
      throw new HttpError(401, PRE_TOKEN_INVALID);
    }
    const secret = ctx.secrets.open(user.totpSecretSealed, totpPurpose(user._id));
    const check = await checkTotp(secret, code, user.totpLastStep, ctx.now());
    if (!check.valid) {
      await ctx.limiter.consume(limitKey, ctx.limits.twoFactorPerAccount).catch(() => undefined);
      const updated = await store.preTokens.findOneAndUpdate({ _id: preHash }, { $inc: { failedAttempts: 1 } });
      if (updated !== null && updated.failedAttempts >= PRE_TOKEN_MAX_FAILURES) await store.preTokens.deleteOne({ _id: preHash });
      throw new HttpError(401, INVALID_2FA_CODE);
    }
    // Single use: only the request that deletes the pre-token may finish the login.
    if ((await store.preTokens.deleteOne({ _id: preHash })) !== 1) throw new HttpError(401, PRE_TOKEN_INVALID);
    // Recording the time step only if it moved forward keeps two racing requests from both using one code.
    const stepped = await store.users.updateOne(
      { _id: user._id, totpLastStep: user.totpLastStep },
      { $set: { totpLastStep: check.timeStep } },
    );
    if (stepped.matched !== 1) throw new HttpError(401, INVALID_2FA_CODE);
    await ctx.limiter.clear(limitKey);
    return loginAnswer(user);
  });

  typed.post('/auth/forgot-password', { schema: { body: ForgotBody } }, async (request) => {
    const email = request.body.email.trim().toLowerCase();
    await ctx.limiter.consume(`reset:ip:${clientIp(request)}`, ctx.limits.resetPerIp);
    await ctx.limiter.consume(`forgot:acct:${sha256Hex(email)}`, ctx.limits.forgotPerAccount);
    const user = await store.users.findOne({ email });
    // Same work and same answer whether or not the address is known; the mail goes out in the background.
    const token = generateOpaqueToken();
    const tokenHash = sha256Hex(token);
    if (user !== null && user.active) {
      await store.resetTokens.deleteMany({ userId: user._id });
      await store.resetTokens.insertOne({ _id: tokenHash, userId: user._id, expiresAt: Date.now() + RESET_TOKEN_TTL_MS });
      // The link is built from the configured public URL, never from the request's Host header.
      const link = `${ctx.publicUrl.replace(/\/+$/, '')}/reset-password/${token}`;
      ctx.sendMailInBackground({
        to: user.email,
        subject: 'Reset your Skald password',
        text: `Hello ${user.username},\n\nSomeone asked to reset the password of your Skald account. To choose a new password, open:\n\n${link}\n\nThe link works once and expires in 30 minutes. If you did not ask for this, ignore this mail.\n`,
      });
    }
    return { message: FORGOT_ANSWER };
  });

  typed.post('/auth/reset-password', { schema: { body: ResetBody } }, async (request) => {
    await ctx.limiter.consume(`reset:ip:${clientIp(request)}`, ctx.limits.resetPerIp);
    const tokenHash = sha256Hex(request.body.token);
    const record = await store.resetTokens.findOne({ _id: tokenHash });
    // Single use: whoever deletes the row owns the reset.
    const claimed = record !== null && (await store.resetTokens.deleteOne({ _id: tokenHash })) === 1;
    if (record === null || !claimed || record.expiresAt <= Date.now()) throw new HttpError(400, RESET_INVALID);
    const user = await store.users.findOne({ _id: record.userId });
    if (user === null || !user.active) throw new HttpError(400, RESET_INVALID);
    const passwordHash = await hashPassword(request.body.password, ctx.passwordCost);
    await store.users.updateOne({ _id: user._id }, { $set: { passwordHash } });
    await store.resetTokens.deleteMany({ userId: user._id });
    // A reset only sets the password: 2FA stays on, so the next login still asks for a code.
    await revokeSessions(ctx, user, 'password-reset', { action: 'user.password-reset', details: 'Password reset by e-mail link' });
    return { message: PASSWORD_CHANGED };
  });

  typed.get('/auth/me', async (request) => {
    const user = await ctx.currentUser(request);
    return { user: userView(user), servers: await serversOfUser(store, user._id) };
  });

  typed.post('/auth/logout', async (request) => {
    const user = await ctx.currentUser(request);
    await revokeSessions(ctx, user, 'logout', { action: 'user.logout', details: 'Signed out (all sessions)' });
    return { message: 'Logged out.' };
  });

  typed.post('/auth/refresh', async (request) => {
    const user = await ctx.currentUser(request);
    return { token: ctx.tokens.issue(user) };
  });
}
