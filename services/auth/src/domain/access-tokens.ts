/**
 * Access tokens: signed with the service kit's signAccessToken (EdDSA), verified here against the
 * auth service's OWN user records (authoritative: token version and active flag), so a token dies
 * inside the auth service the moment its user changes password, toggles 2FA, logs out or is disabled.
 * Other services verify through the service kit's JWT plugin + the identity read model's isRevoked.
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AUTH_INVALID_MESSAGE, AUTH_REQUIRED_MESSAGE, HttpError, signAccessToken } from '@skald/service-kit';
import type { AccessClaims, KeyMaterial } from '@skald/service-kit';
import type { UserDoc } from './store.ts';

export interface TokenIssuer {
  issue(user: Pick<UserDoc, '_id' | 'siteRole' | 'tokenVersion'>): string;
  /** Verifies signature, algorithm, issuer, audience and expiry; returns the claims or null. */
  verify(token: string, nowMs?: number): AccessClaims | null;
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function createTokenIssuer(keys: KeyMaterial, ttlSeconds: number): TokenIssuer {
  const publicKey: KeyObject = createPublicKey(keys.publicKeyPem);
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error('the JWT public key must be Ed25519');
  return {
    issue(user) {
      return signAccessToken(keys, { sub: user._id, role: user.siteRole, tv: user.tokenVersion }, ttlSeconds);
    },
    verify(token, nowMs = Date.now()) {
      const parts = token.split('.');
      if (parts.length !== 3) return null;
      const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
      const header = decodeJson(headerPart);
      // Algorithm pinned: no `none`, no HMAC with the public key as secret.
      if (header?.['alg'] !== 'EdDSA') return null;
      const ok = verifySignature(null, Buffer.from(`${headerPart}.${payloadPart}`), publicKey, Buffer.from(signaturePart, 'base64url'));
      if (!ok) return null;
      const p = decodeJson(payloadPart);
      if (p === null) return null;
      const now = Math.floor(nowMs / 1000);
      if (typeof p['sub'] !== 'string' || typeof p['tv'] !== 'number' || typeof p['exp'] !== 'number' || typeof p['iat'] !== 'number') return null;
      if (p['iss'] !== keys.issuer || p['aud'] !== keys.audience || p['exp'] <= now) return null;
      const role = p['role'];
      if (role !== 'staff' && role !== 'moderator' && role !== 'admin' && role !== 'superadmin') return null;
      return {
        sub: p['sub'],
        role,
        tv: p['tv'],
        iat: p['iat'],
        exp: p['exp'],
        iss: keys.issuer,
        aud: keys.audience,
        jti: typeof p['jti'] === 'string' ? p['jti'] : '',
      };
    },
  };
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/** Resolves the signed-in user or throws 401; `findUser` reads the auth store. */
export async function authenticate(
  request: FastifyRequest,
  tokens: TokenIssuer,
  findUser: (id: string) => Promise<UserDoc | null>,
): Promise<UserDoc> {
  // Same 401 texts as the service kit's JWT plugin, so every service answers alike.
  const token = bearerToken(request);
  if (token === null) throw new HttpError(401, AUTH_REQUIRED_MESSAGE);
  const claims = tokens.verify(token);
  if (claims === null) throw new HttpError(401, AUTH_INVALID_MESSAGE);
  const user = await findUser(claims.sub);
  if (user === null || !user.active || claims.tv !== user.tokenVersion) throw new HttpError(401, AUTH_INVALID_MESSAGE);
  return user;
}
