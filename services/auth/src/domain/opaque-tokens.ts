/**
 * Random secrets handed to clients (API keys, reset tokens, 2FA pre-tokens) and their stored form.
 * Each carries 256 bits of randomness, so a plain SHA-256 is a safe stored form: there is nothing
 * to brute-force, and a lookup by hash needs a deterministic hash (a salted KDF would not allow it).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API keys look like `sk_<43 base64url chars>`; the prefix lets secret scanners spot leaked keys. */
export function generateApiKey(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

export function generateOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex: the form stored for API keys (and published as keyHash), reset tokens and pre-tokens. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
