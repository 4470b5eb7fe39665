/**
 * The auth service: users, sessions, 2FA, servers, API keys and memberships.
 * Routes use the spec's paths without /api (the gateway adds it). See docs/IDENTITY.md.
 */
import type { FastifyInstance } from 'fastify';
import { TOPICS } from '@skald/contracts';
import type { Subscription, Worker } from '@skald/ports';
import { authPlugin, createSecretBox } from '@skald/service-kit';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { ACCESS_TOKEN_TTL_SECONDS, createTokenIssuer } from './domain/access-tokens.ts';
import type { AuthContext } from './domain/context.ts';
import { createMailQueue } from './domain/mail-queue.ts';
import { membershipRoles } from './domain/memberships.ts';
import { OWASP_SCRYPT_COST, TEST_SCRYPT_COST, makeDummyHash } from './domain/passwords.ts';
import type { ScryptCost } from './domain/passwords.ts';
import { DEFAULT_RATE_LIMITS, createAttemptLimiter } from './domain/rate-limits.ts';
import type { AuthRateLimits } from './domain/rate-limits.ts';
import { sessionRevocationCheck } from './domain/sessions.ts';
import { openAuthStore } from './domain/store.ts';
import { startTokenSweep } from './domain/token-sweep.ts';
import { startIdentityConsumer } from './events/identity-consumer.ts';
import { createIdentityPublisher } from './domain/identity-publisher.ts';
import { currentUserLoader } from './http/current-user.ts';
import { registerAuthRoutes } from './http/routes.ts';

export interface AuthServiceOptions {
  /** scrypt cost; default OWASP (N=2^17). Tests lower it to keep the CPU free. */
  readonly passwordCost?: ScryptCost;
  readonly rateLimits?: Partial<AuthRateLimits>;
  readonly accessTokenTtlSeconds?: number;
  /** Clock for TOTP checks (epoch ms); default Date.now. */
  readonly now?: () => number;
  /** Period of the expired-token sweep; default 10 minutes. */
  readonly tokenSweepEveryMs?: number;
}

export interface AuthServiceModule extends ServiceModule {
  /** Waits for reset mails queued in the background (tests, shutdown). */
  flushMail(): Promise<void>;
}

export async function createAuthServiceWith(deps: ServiceDeps, options: AuthServiceOptions = {}): Promise<AuthServiceModule> {
  const store = await openAuthStore(deps.docs);
  const passwordCost = options.passwordCost ?? OWASP_SCRYPT_COST;
  const ctx: AuthContext = {
    store,
    events: createIdentityPublisher(deps.bus),
    tokens: createTokenIssuer(deps.keys, options.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS),
    limiter: createAttemptLimiter(deps.counters),
    limits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    secrets: createSecretBox(deps.secretsKey),
    passwordCost,
    dummyPasswordHash: await makeDummyHash(passwordCost),
    publicUrl: deps.publicUrl,
    mail: createMailQueue(deps.mailer, deps.log),
    log: deps.log,
    now: options.now ?? Date.now,
  };
  let consumer: Subscription | null = null;
  let sweep: Worker | null = null;

  return {
    name: 'auth',
    async routes(app: FastifyInstance) {
      // The same token verification as every service; revocation is read from auth's own users.
      await app.register(authPlugin, { keys: deps.keys, isRevoked: sessionRevocationCheck(store) });
      await registerAuthRoutes(app, { ...ctx, memberships: membershipRoles(store), currentUser: currentUserLoader(store) });
    },
    async start() {
      await deps.bus.ensureTopics([TOPICS.identity, TOPICS.audit]);
      consumer = await startIdentityConsumer(deps.bus, ctx);
      sweep = await startTokenSweep(deps.jobs, ctx, options.tokenSweepEveryMs);
    },
    async stop() {
      const worker = sweep;
      sweep = null;
      if (worker !== null) await worker.close();
      const current = consumer;
      consumer = null;
      if (current !== null) await current.stop();
      await ctx.mail.flush();
    },
    async ready() {
      return consumer !== null && sweep !== null;
    },
    flushMail: () => ctx.mail.flush(),
  };
}

/** The launcher's factory: the hashing cost comes from the process's configuration (ServiceDeps.passwordHashing). */
export const createAuthService: ServiceFactory = (deps) =>
  createAuthServiceWith(deps, deps.passwordHashing === 'test' ? { passwordCost: TEST_SCRYPT_COST } : {});
