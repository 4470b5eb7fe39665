/**
 * Access tokens: issued here with the service kit's signAccessToken (EdDSA). Verification is the service
 * kit's authPlugin, as in every service; the auth service gives it an isRevoked that reads its OWN user
 * records (sessions.ts), so a token dies here the moment its user changes password, toggles 2FA, logs
 * out, is disabled or gets another site role.
 */
import { signAccessToken } from '@skald/service-kit';
import type { KeyMaterial } from '@skald/service-kit';
import type { UserDoc } from './store.ts';

/** Access tokens live one hour; the web client renews with POST /auth/refresh (see docs/IDENTITY.md). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface TokenIssuer {
  issue(user: Pick<UserDoc, '_id' | 'siteRole' | 'tokenVersion'>): string;
}

export function createTokenIssuer(keys: KeyMaterial, ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS): TokenIssuer {
  return {
    issue(user) {
      return signAccessToken(keys, { sub: user._id, role: user.siteRole, tv: user.tokenVersion }, ttlSeconds);
    },
  };
}
