/**
 * Two-factor authentication (spec 001 §4: disabled -> setup (QR) -> verify -> enabled -> disable with a code).
 * The spec's payload names the 6-digit code `token`. Enabling or disabling revokes every older access
 * token; the answer carries a fresh one, which the client stores.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import QRCode from 'qrcode';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from '../context.ts';
import { CodeBody } from '../schemas.ts';
import type { UserDoc } from '../store.ts';
import { checkTotp, newTotpSecret, totpPurpose, totpUri } from '../totp.ts';
import { publishUserUpdated, revokeSessions } from '../user-changes.ts';
import { INVALID_2FA_CODE } from './account-routes.ts';

export const TWO_FACTOR_ALREADY_ON = '2FA is already enabled.';
export const TWO_FACTOR_NOT_ON = '2FA is not enabled.';
export const SETUP_FIRST = 'Start the 2FA setup first.';
export const CODE_REQUIRED = 'Please enter your 2FA code.';
export const ACTIVATED = '2FA successfully activated';
export const DISABLED = '2FA is disabled';

export async function registerTwoFactorRoutes(app: FastifyInstance, ctx: AuthContext): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;

  /** Checks a code against a seed with replay protection and the per-account wrong-code limit. */
  async function acceptCode(user: UserDoc, sealed: string, code: string): Promise<number> {
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

  typed.get('/2fa/setup', async (request) => {
    const user = await ctx.currentUser(request);
    if (user.twoFactorEnabled) throw new HttpError(400, TWO_FACTOR_ALREADY_ON);
    const secret = newTotpSecret();
    await store.users.updateOne({ _id: user._id }, { $set: { totpPendingSealed: ctx.secrets.seal(secret, totpPurpose(user._id)) } });
    const otpauthUrl = totpUri(secret, user.email);
    // `qr` is a PNG data URL; `secret` and `otpauth_url` are for manual entry; `token` is the caller's
    // (unchanged) session as a fresh access token, since the spec's client stores a token after setup.
    return { qr: await QRCode.toDataURL(otpauthUrl), secret, otpauth_url: otpauthUrl, token: ctx.tokens.issue(user) };
  });

  typed.post('/2fa/verify', { schema: { body: CodeBody } }, async (request) => {
    const user = await ctx.currentUser(request);
    if (user.twoFactorEnabled) throw new HttpError(400, TWO_FACTOR_ALREADY_ON);
    if (user.totpPendingSealed === null) throw new HttpError(400, SETUP_FIRST);
    const timeStep = await acceptCode(user, user.totpPendingSealed, request.body.token);
    await store.users.updateOne(
      { _id: user._id },
      { $set: { twoFactorEnabled: true, totpSecretSealed: user.totpPendingSealed, totpPendingSealed: null, totpLastStep: timeStep } },
    );
    const enabled: UserDoc = { ...user, twoFactorEnabled: true };
    await publishUserUpdated(ctx, enabled, { action: 'user.2fa-enabled', details: '2FA enabled' });
    const updated = await revokeSessions(ctx, enabled, '2fa-enabled');
    return { message: ACTIVATED, token: ctx.tokens.issue(updated) };
  });

  typed.delete('/2fa/disable', { schema: { body: CodeBody } }, async (request) => {
    const user = await ctx.currentUser(request);
    if (!user.twoFactorEnabled || user.totpSecretSealed === null) throw new HttpError(400, TWO_FACTOR_NOT_ON);
    await acceptCode(user, user.totpSecretSealed, request.body.token);
    await store.users.updateOne(
      { _id: user._id },
      { $set: { twoFactorEnabled: false, totpSecretSealed: null, totpPendingSealed: null, totpLastStep: null } },
    );
    const disabled: UserDoc = { ...user, twoFactorEnabled: false };
    await publishUserUpdated(ctx, disabled, { action: 'user.2fa-disabled', details: '2FA disabled' });
    const updated = await revokeSessions(ctx, disabled, '2fa-disabled');
    return { message: DISABLED, token: ctx.tokens.issue(updated) };
  });
}
