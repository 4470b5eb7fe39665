/**
 * TOTP (RFC 6238) with otplib 13: 6 digits, 30 s period, one step of clock drift either way.
 * Replay protection: the last accepted time step is stored per user and passed as afterTimeStep,
 * so a code (or an older one) is accepted once only.
 */
import { generateSecret, generateURI, verify } from 'otplib';

export const TOTP_ISSUER = 'Skald';
export const INVALID_2FA_CODE = 'Invalid 2FA code';
const TOLERANCE_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(secret: string, accountLabel: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: accountLabel, secret });
}

export type TotpCheck = { readonly valid: true; readonly timeStep: number } | { readonly valid: false };

export async function checkTotp(secret: string, code: string, lastTimeStep: number | null, nowMs: number = Date.now()): Promise<TotpCheck> {
  if (!/^\d{6}$/.test(code)) return { valid: false };
  const epoch = Math.floor(nowMs / 1000);
  try {
    const result = await verify({
      secret,
      token: code,
      epoch,
      epochTolerance: TOLERANCE_SECONDS,
      ...(lastTimeStep !== null && lastTimeStep >= 0 ? { afterTimeStep: lastTimeStep } : {}),
    });
    return result.valid && 'timeStep' in result ? { valid: true, timeStep: result.timeStep } : { valid: false };
  } catch {
    // otplib throws on out-of-range afterTimeStep (e.g. a clock moved backwards): treat as a refusal.
    return { valid: false };
  }
}

/** Additional authenticated data binding a sealed seed to its user (a seed copied to another row fails to open). */
export function totpPurpose(userId: string): string {
  return `totp:${userId}`;
}
