/**
 * Everything the auth rules share, built once per service instance (auth-service.ts). Domain functions
 * take the pieces they need (`Pick<AuthContext, 'store' | 'events'>`), never the Fastify request.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { SecretBox } from '@skald/service-kit';
import type { IdentityPublisher } from './identity-publisher.ts';
import type { TokenIssuer } from './access-tokens.ts';
import type { MailQueue } from './mail-queue.ts';
import type { ScryptCost } from './passwords.ts';
import type { AttemptLimiter, AuthRateLimits } from './rate-limits.ts';
import type { AuthStore } from './store.ts';

export interface AuthContext {
  readonly store: AuthStore;
  readonly events: IdentityPublisher;
  readonly tokens: TokenIssuer;
  readonly limiter: AttemptLimiter;
  readonly limits: AuthRateLimits;
  readonly secrets: SecretBox;
  readonly passwordCost: ScryptCost;
  /** Verified against for unknown usernames so both cases cost the same time. */
  readonly dummyPasswordHash: string;
  readonly publicUrl: string;
  readonly mail: MailQueue;
  readonly log: FastifyBaseLogger;
  /** Clock for TOTP checks (epoch ms); injectable so tests can step through 30 s periods. */
  readonly now: () => number;
}

/** Who made a change, for the audit entry. */
export interface Actor {
  readonly id: string;
  readonly email: string;
}
