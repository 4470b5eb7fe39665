/**
 * Two-factor authentication (docs/spec/part-2.txt section 4: disabled -> setup (QR) -> verify -> enabled -> disable with a
 * code). Enabling or disabling revokes every older access token; the caller gets a fresh one.
 */
import type { TwoFactorSetupAnswer } from '@skald/contracts/api';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { publishUserUpdated, revokeSessions } from './sessions.ts';
import type { UserDoc } from './store.ts';
import { INVALID_2FA_CODE, checkTotp, newTotpSecret, totpPurpose, totpUri } from './totp.ts';

export const TWO_FACTOR_ALREADY_ON = '2FA is already enabled.';
export const TWO_FACTOR_NOT_ON = '2FA is not enabled.';
export const SETUP_FIRST = 'Start the 2FA setup first.';
export const CODE_REQUIRED = 'Please enter your 2FA code.';
export const ACTIVATED = '2FA successfully activated';
export const DISABLED = '2FA is disabled';

type CodeContext = Pick<AuthContext, 'limiter' | 'limits' | 'secrets' | 'now'>;
type ChangeContext = Pick<AuthContext, 'store' | 'events'> & CodeContext;

/** Checks a code against a sealed seed with replay protection and the per-account wrong-code limit; returns its time step. */
async function acceptCode(ctx: CodeContext, user: UserDoc, sealed: string, code: string): Promise<number> {
  if (code.trim() === '') throw new HttpError(400, CODE_REQUIRED);
  const limitKey = `2fa:acct:${user._id}`;
  await ctx.limiter.assertOpen(limitKey, ctx.limits.twoFactorPerAccount);
  const check = await checkTotp(ctx.secrets.open(sealed, totpPurpose(user._id)), code.trim(), user.totpLastStep, ctx.now());
  if (!check.valid) {
    await ctx.limiter.consume(limitKey, ctx.limits.twoFactorPerAccount).catch(() => undefined);
    throw new HttpError(400, INVALID_2FA_CODE);
  }
  await ctx.limiter.clear(limitKey);
  return check.timeStep;
}

/**
 * A new seed, kept sealed as pending until verified. `qr` is a PNG data URL; `secret` and `otpauth_url`
 * are for manual entry; `token` is the caller's (unchanged) session as a fresh access token, since the
 * spec's client stores a token after setup.
 */
export async function startTwoFactorSetup(ctx: Pick<AuthContext, 'store' | 'secrets' | 'tokens'>, user: UserDoc): Promise<TwoFactorSetupAnswer> {
  if (user.twoFactorEnabled) throw new HttpError(400, TWO_FACTOR_ALREADY_ON);
  const secret = newTotpSecret();
  await ctx.store.users.updateOne({ _id: user._id }, { $set: { totpPendingSealed: ctx.secrets.seal(secret, totpPurpose(user._id)) } });
  const otpauthUrl = totpUri(secret, user.email);
  // Loaded on the first 2FA setup, not at start-up (idle RSS).
  const { default: QRCode } = await import('qrcode');
  return { qr: await QRCode.toDataURL(otpauthUrl), secret, otpauth_url: otpauthUrl, token: ctx.tokens.issue(user) };
}

/** Turns 2FA on with a code of the pending seed; returns the user as now stored (new token version). */
export async function enableTwoFactor(ctx: ChangeContext, user: UserDoc, code: string): Promise<UserDoc> {
  if (user.twoFactorEnabled) throw new HttpError(400, TWO_FACTOR_ALREADY_ON);
  if (user.totpPendingSealed === null) throw new HttpError(400, SETUP_FIRST);
  const timeStep = await acceptCode(ctx, user, user.totpPendingSealed, code);
  await ctx.store.users.updateOne(
    { _id: user._id },
    { $set: { twoFactorEnabled: true, totpSecretSealed: user.totpPendingSealed, totpPendingSealed: null, totpLastStep: timeStep } },
  );
  const enabled: UserDoc = { ...user, twoFactorEnabled: true };
  await publishUserUpdated(ctx, enabled, { action: 'user.2fa-enabled', details: '2FA enabled' });
  return revokeSessions(ctx, enabled, '2fa-enabled');
}

/** Turns 2FA off with a valid code; returns the user as now stored (new token version). */
export async function disableTwoFactor(ctx: ChangeContext, user: UserDoc, code: string): Promise<UserDoc> {
  if (!user.twoFactorEnabled || user.totpSecretSealed === null) throw new HttpError(400, TWO_FACTOR_NOT_ON);
  await acceptCode(ctx, user, user.totpSecretSealed, code);
  await ctx.store.users.updateOne({ _id: user._id }, { $set: { twoFactorEnabled: false, totpSecretSealed: null, totpPendingSealed: null, totpLastStep: null } });
  const disabled: UserDoc = { ...user, twoFactorEnabled: false };
  await publishUserUpdated(ctx, disabled, { action: 'user.2fa-disabled', details: '2FA disabled' });
  return revokeSessions(ctx, disabled, '2fa-disabled');
}
