/** Everything the auth routes share, built once per service instance. */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Mail, Mailer } from '@skald/ports';
import type { TokenIssuer } from './access-tokens.ts';
import { authenticate } from './access-tokens.ts';
import type { IdentityPublisher } from './events.ts';
import type { ScryptCost } from './passwords.ts';
import type { AttemptLimiter, AuthRateLimits } from './rate-limits.ts';
import type { SecretBox } from './secret-box.ts';
import type { AuthStore, UserDoc } from './store.ts';

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
  readonly log: FastifyBaseLogger;
  /** Clock for TOTP checks (epoch ms); injectable so tests can step through 30 s periods. */
  readonly now: () => number;
  /** Sends mail without making the request wait (same answer time for known and unknown e-mails). */
  sendMailInBackground(mail: Mail): void;
  /** Resolves once background mail has been handed to the mailer (tests, shutdown). */
  flushMail(): Promise<void>;
  currentUser(request: FastifyRequest): Promise<UserDoc>;
}

export function createMailQueue(mailer: Mailer, log: FastifyBaseLogger): Pick<AuthContext, 'sendMailInBackground' | 'flushMail'> {
  const pending = new Set<Promise<void>>();
  return {
    sendMailInBackground(mail) {
      const task = mailer
        .send(mail)
        .catch((err: unknown) => log.error({ err: err instanceof Error ? err.message : String(err) }, 'sending mail failed'))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async flushMail() {
      await Promise.all([...pending]);
    },
  };
}

export function currentUserResolver(store: AuthStore, tokens: TokenIssuer): (request: FastifyRequest) => Promise<UserDoc> {
  return (request) => authenticate(request, tokens, (id) => store.users.findOne({ _id: id }));
}
