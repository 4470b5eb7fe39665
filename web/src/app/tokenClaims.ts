/**
 * What the web app reads from its access token: who it is for and when it was issued and expires. The
 * signature is the server's business; the app only needs the times to renew before expiry.
 */
export interface TokenTimes {
  readonly subject: string | null;
  /** Epoch ms. */
  readonly issuedAt: number;
  /** Epoch ms. */
  readonly expiresAt: number;
}

function decodeSegment(segment: string): unknown {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as unknown;
}

/** The token's times, or null for anything that is not a JWT with numeric iat and exp. */
export function readTokenTimes(token: string | null): TokenTimes | null {
  const segment = token?.split('.')[1];
  if (!segment) return null;
  try {
    const claims = decodeSegment(segment);
    if (typeof claims !== 'object' || claims === null) return null;
    const { sub, iat, exp } = claims as Record<string, unknown>;
    if (typeof iat !== 'number' || typeof exp !== 'number' || exp <= iat) return null;
    return { subject: typeof sub === 'string' ? sub : null, issuedAt: iat * 1000, expiresAt: exp * 1000 };
  } catch {
    return null;
  }
}

/** The user a token belongs to (null when unreadable): tells a renewal from another account's sign-in. */
export function tokenSubject(token: string | null): string | null {
  return readTokenTimes(token)?.subject ?? null;
}
