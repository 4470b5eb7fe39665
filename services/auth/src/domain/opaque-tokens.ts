/**
 * Random secrets handed to clients (API keys, reset tokens, 2FA pre-tokens) and their stored form.
 * Each carries 256 bits of randomness, so a plain SHA-256 is a safe stored form: there is nothing
 * to brute-force, and a lookup by hash needs a deterministic hash (a salted KDF would not allow it).
 * API keys are hashed with the contracts' hashApiKey, the one rule ingestion reads them with.
 */
import { createHash, randomBytes } from 'node:crypto';

/** API keys look like `sk_<43 base64url chars>`; the prefix lets secret scanners spot leaked keys. */
export function generateApiKey(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

export function generateOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex: the stored form of reset tokens and pre-tokens, and the rate-limit key of an e-mail address. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
