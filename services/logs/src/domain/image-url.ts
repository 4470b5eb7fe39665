/**
 * Signed, expiring image URLs for photo logs.
 *
 * An <img> tag cannot send the Authorization header, so the list answers (which ARE authenticated and
 * role-checked) embed a capability: an HMAC over the log id, the variant and the object key, with an expiry.
 * The image route checks the signature and the expiry and never needs a session.
 *
 * Expiry is bucketed (a URL is valid for 10 to 20 minutes) so that the screens polling every 5 s get the
 * SAME URL for ten minutes and the browser cache keeps working.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type ImageVariant = 'full' | 'thumb';

export const IMAGE_URL_BUCKET_MS = 10 * 60_000;

interface TokenPayload {
  /** Object key. */
  readonly k: string;
  readonly v: ImageVariant;
  /** Expiry, epoch ms. */
  readonly e: number;
}

export interface ImageUrlSigner {
  /** Relative URL (prefix + /photologs/image/<id>?t=...) for the log's object. */
  url(logId: string, variant: ImageVariant, objectKey: string, now: number): string;
  /** The object key if the token is authentic, unexpired and for this log id; otherwise null. */
  verify(logId: string, token: string, now: number): { objectKey: string; variant: ImageVariant } | null;
}

/**
 * @param secretsKey deps.secretsKey (base64). A purpose-specific subkey is derived from it so a signature
 *   made here can never be confused with any other use of the secrets key.
 * @param pathPrefix where the service's routes are mounted for browsers, '/api' behind the gateway.
 */
export function createImageUrlSigner(secretsKey: string, pathPrefix: string): ImageUrlSigner {
  const key = createHmac('sha256', Buffer.from(secretsKey, 'base64')).update('skald/logs/image-url/v1').digest();
  const sign = (logId: string, payload: string): Buffer => createHmac('sha256', key).update(`${logId}.${payload}`).digest();

  return {
    url(logId, variant, objectKey, now) {
      const expires = (Math.floor(now / IMAGE_URL_BUCKET_MS) + 2) * IMAGE_URL_BUCKET_MS;
      const body: TokenPayload = { k: objectKey, v: variant, e: expires };
      const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
      const token = `${payload}.${sign(logId, payload).toString('base64url')}`;
      return `${pathPrefix}/photologs/image/${encodeURIComponent(logId)}?t=${token}`;
    },
    verify(logId, token, now) {
      const dot = token.indexOf('.');
      if (dot <= 0) return null;
      const payload = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      const expected = sign(logId, payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const parsed = parsePayload(payload);
      if (!parsed || parsed.e < now) return null;
      return { objectKey: parsed.k, variant: parsed.v };
    },
  };
}

function parsePayload(payload: string): TokenPayload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const { k, v, e } = value as Record<string, unknown>;
    if (typeof k !== 'string' || (v !== 'full' && v !== 'thumb') || typeof e !== 'number') return null;
    return { k, v, e };
  } catch {
    return null;
  }
}
