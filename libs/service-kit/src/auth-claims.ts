/**
 * The access-token claims every service reads and the auth service signs (EdDSA / Ed25519).
 * Signing lives here (not in the auth service) so the shape and the algorithm cannot drift
 * from what the verifying plugin (auth-plugin.ts) pins.
 */
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { siteRoleFrom } from '@skald/contracts';
import type { SiteRole } from '@skald/contracts';
import type { KeyMaterial } from './service-module.ts';

/** The only algorithm Skald signs with and the only one verifiers accept. */
export const ACCESS_TOKEN_ALGORITHM = 'EdDSA';

export interface AccessClaims {
  /** User id. */
  readonly sub: string;
  /** Site-wide role. */
  readonly role: SiteRole;
  /** Token version: the user's counter, bumped on password change, 2FA change, logout-all; older tokens are revoked. */
  readonly tv: number;
  /** Issued at, epoch seconds. */
  readonly iat: number;
  /** Expiry, epoch seconds. */
  readonly exp: number;
  readonly iss: string;
  readonly aud: string;
  /** Unique token id (lets a deny list name one token). */
  readonly jti: string;
}

export type AccessClaimsInput = Pick<AccessClaims, 'sub' | 'role' | 'tv'>;

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/**
 * Signs an access token for the claims with the auth service's private key.
 * `now` is injectable for tests (epoch ms).
 */
export function signAccessToken(keys: KeyMaterial, claims: AccessClaimsInput, ttlSeconds: number, now = Date.now()): string {
  if (!keys.privateKeyPem) throw new Error('signAccessToken needs the private key (auth service only)');
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new Error('ttlSeconds must be a positive integer');
  const iat = Math.floor(now / 1000);
  const payload: AccessClaims = {
    sub: claims.sub,
    role: claims.role,
    tv: claims.tv,
    iat,
    exp: iat + ttlSeconds,
    iss: keys.issuer,
    aud: keys.audience,
    jti: randomUUID(),
  };
  const signingInput = `${base64url(JSON.stringify({ alg: ACCESS_TOKEN_ALGORITHM, typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
  const signature = sign(null, Buffer.from(signingInput), createPrivateKey(keys.privateKeyPem));
  return `${signingInput}.${base64url(signature)}`;
}

/** Narrows a verified JWT payload to AccessClaims (a token signed with our key but another shape is refused). */
export function toAccessClaims(payload: unknown): AccessClaims | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  // A token signed before the default role's rename says `staff`: it reads as today's name.
  const role = siteRoleFrom(p.role);
  if (typeof p.sub !== 'string' || role === null || typeof p.tv !== 'number') return null;
  if (typeof p.iat !== 'number' || typeof p.exp !== 'number') return null;
  if (typeof p.iss !== 'string' || typeof p.aud !== 'string') return null;
  return {
    sub: p.sub,
    role,
    tv: p.tv,
    iat: p.iat,
    exp: p.exp,
    iss: p.iss,
    aud: p.aud,
    jti: typeof p.jti === 'string' ? p.jti : '',
  };
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
    user: AccessClaims;
  }
}
