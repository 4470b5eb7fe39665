/**
 * Sign-in (docs/spec/part-1.txt section 3): username and password, then, for accounts with 2FA, a second step with a
 * single-use pre-token and a TOTP code. Wrong passwords and codes count against per-account limits.
 */
import { UserSignedInEvent, identityMessage } from '@skald/contracts';
import type { LoginAnswer, SessionAnswer } from '@skald/contracts/api';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { generateOpaqueToken, sha256Hex } from './opaque-tokens.ts';
import { verifyPassword } from './passwords.ts';
import type { UserDoc } from './store.ts';
import { INVALID_2FA_CODE, checkTotp, totpPurpose } from './totp.ts';
import { serversOfUser } from './views.ts';

export const LOGIN_FAILED = 'Invalid username or password.';
export const ACCOUNT_DISABLED = 'This account is disabled.';
export const PRE_TOKEN_INVALID = 'Your 2FA session has expired. Please log in again.';
export const INCOMPLETE_2FA_CODE = 'Please enter the complete 6-digit code';

export const PRE_TOKEN_TTL_MS = 5 * 60_000;
/** Wrong codes allowed on one pre-token before it dies (the per-account limit applies too). */
const PRE_TOKEN_MAX_FAILURES = 3;

type LoginContext = Pick<AuthContext, 'store' | 'events' | 'tokens' | 'limiter' | 'limits' | 'dummyPasswordHash'>;

/** The failed-login window of an account; also guards the current-password check of PATCH /user/password. */
export function loginAccountKey(usernameLower: string): string {
  return `login:acct:${usernameLower}`;
}

/**
 * A fresh access token and the user's servers; records the sign-in time and publishes it (user.signed-in:
 * the admin area's "Last login", a full value keyed by the user).
 */
export async function startSession(ctx: Pick<AuthContext, 'store' | 'events' | 'tokens'>, user: UserDoc): Promise<SessionAnswer> {
  const at = new Date().toISOString();
  await ctx.store.users.updateOne({ _id: user._id }, { $set: { lastLoginAt: at } });
  await ctx.events.publish([identityMessage(UserSignedInEvent, { userId: user._id, at })]);
  return { token: ctx.tokens.issue(user), servers: await serversOfUser(ctx.store, user._id) };
}

/** Step one. Unknown users cost the same time as known ones and get the same 401. */
export async function login(ctx: LoginContext, input: { readonly username: string; readonly password: string; readonly ip: string }): Promise<LoginAnswer> {
  const usernameLower = input.username.toLowerCase();
  const accountKey = loginAccountKey(usernameLower);
  await ctx.limiter.consume(`login:ip:${input.ip}`, ctx.limits.loginPerIp);
  await ctx.limiter.assertOpen(accountKey, ctx.limits.loginPerAccount);
  const user = await ctx.store.users.findOne({ usernameLower });
  const ok = await verifyPassword(input.password, user?.passwordHash ?? ctx.dummyPasswordHash);
  if (user === null || !ok) {
    await ctx.limiter.consume(accountKey, ctx.limits.loginPerAccount).catch(() => undefined);
    throw new HttpError(401, LOGIN_FAILED);
  }
  if (!user.active) throw new HttpError(403, ACCOUNT_DISABLED);
  await ctx.limiter.clear(accountKey);
  if (!user.twoFactorEnabled) return startSession(ctx, user);
  const preToken = generateOpaqueToken();
  await ctx.store.preTokens.insertOne({
    _id: sha256Hex(preToken),
    userId: user._id,
    expiresAt: Date.now() + PRE_TOKEN_TTL_MS,
    tokenVersion: user.tokenVersion,
    failedAttempts: 0,
  });
  return { twofa_required: true, pre_token: preToken };
}

/** Step two: the pre-token from step one and a TOTP code (replays and older codes refused). */
export async function completeTwoFactorLogin(
  ctx: Pick<AuthContext, 'store' | 'events' | 'tokens' | 'limiter' | 'limits' | 'secrets' | 'now'>,
  input: { readonly preToken: string; readonly code: string },
): Promise<SessionAnswer> {
  const { store } = ctx;
  const preHash = sha256Hex(input.preToken);
  const pre = await store.preTokens.findOne({ _id: preHash });
  if (pre === null || pre.expiresAt <= Date.now()) {
    if (pre !== null) await store.preTokens.deleteOne({ _id: preHash });
    throw new HttpError(401, PRE_TOKEN_INVALID);
  }
  if (!/^\d{6}$/.test(input.code)) throw new HttpError(400, INCOMPLETE_2FA_CODE);
  const limitKey = `2fa:acct:${pre.userId}`;
  await ctx.limiter.assertOpen(limitKey, ctx.limits.twoFactorPerAccount);
  const user = await store.users.findOne({ _id: pre.userId });
  if (user === null || !user.active || user.tokenVersion !== pre.tokenVersion || !user.twoFactorEnabled || user.totpSecretSealed === null) {
    await store.preTokens.deleteOne({ _id: preHash });
    throw new HttpError(401, PRE_TOKEN_INVALID);
  }
  const secret = ctx.secrets.open(user.totpSecretSealed, totpPurpose(user._id));
  const check = await checkTotp(secret, input.code, user.totpLastStep, ctx.now());
  if (!check.valid) {
    await ctx.limiter.consume(limitKey, ctx.limits.twoFactorPerAccount).catch(() => undefined);
    const updated = await store.preTokens.findOneAndUpdate({ _id: preHash }, { $inc: { failedAttempts: 1 } });
    if (updated !== null && updated.failedAttempts >= PRE_TOKEN_MAX_FAILURES) await store.preTokens.deleteOne({ _id: preHash });
    throw new HttpError(401, INVALID_2FA_CODE);
  }
  // Single use: only the request that deletes the pre-token may finish the login.
  if ((await store.preTokens.deleteOne({ _id: preHash })) !== 1) throw new HttpError(401, PRE_TOKEN_INVALID);
  // Recording the time step only if it moved forward keeps two racing requests from both using one code.
  const stepped = await store.users.updateOne({ _id: user._id, totpLastStep: user.totpLastStep }, { $set: { totpLastStep: check.timeStep } });
  if (stepped.matched !== 1) throw new HttpError(401, INVALID_2FA_CODE);
  await ctx.limiter.clear(limitKey);
  return startSession(ctx, user);
}
