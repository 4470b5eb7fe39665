/**
 * Standard Webhooks signing (standardwebhooks.com, spec v1): a per-webhook secret `whsec_<base64 of 32
 * random bytes>`, and headers webhook-id, webhook-timestamp (seconds) and webhook-signature
 * `v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<body>">`. Receivers verify with the `standardwebhooks`
 * library (or Svix's) and dedupe on webhook-id, which stays the same on retries and replays.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export function signingHeaders(secret: string, id: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureOf(secret, id, timestamp, body) };
}
