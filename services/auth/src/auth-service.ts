/**
 * The auth service: users, sessions, 2FA, servers, API keys and memberships (issue 3).
 * Routes use the spec's paths without /api (the gateway adds it). See docs/IDENTITY.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Subscription } from '@skald/ports';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { createTokenIssuer } from './access-tokens.ts';
import type { AuthContext } from './context.ts';
import { createMailQueue, currentUserResolver } from './context.ts';
import { createIdentityPublisher } from './events.ts';
import { startIdentityConsumer } from './identity-consumer.ts';
import { OWASP_SCRYPT_COST, makeDummyHash } from './passwords.ts';
import type { ScryptCost } from './passwords.ts';
import { DEFAULT_RATE_LIMITS, createAttemptLimiter } from './rate-limits.ts';
import type { AuthRateLimits } from './rate-limits.ts';
import { registerAccountRoutes } from './routes/account-routes.ts';
import { registerManageRoutes } from './routes/manage-routes.ts';
import { registerServerRoutes } from './routes/server-routes.ts';
import { registerTwoFactorRoutes } from './routes/two-factor-routes.ts';
import { registerUserRoutes } from './routes/user-routes.ts';
import { createSecretBox } from './secret-box.ts';
import { openAuthStore } from './store.ts';

export { promoteUser, setSiteRole } from './site-roles.ts';
export { openAuthStore } from './store.ts';
export type { AuthStore, UserDoc, ServerDoc, MembershipDoc } from './store.ts';

/** Access tokens live one hour; the web client renews with POST /auth/refresh (see docs/IDENTITY.md). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface AuthServiceOptions {
  /** scrypt cost; default OWASP (N=2^17). Tests lower it to keep the CPU free. */
  readonly passwordCost?: ScryptCost;
  readonly rateLimits?: Partial<AuthRateLimits>;
  readonly accessTokenTtlSeconds?: number;
  /** Clock for TOTP checks (epoch ms); default Date.now. */
  readonly now?: () => number;
}

export interface AuthServiceModule extends ServiceModule {
  /** Waits for reset mails queued in the background (tests, shutdown). */
  flushMail(): Promise<void>;
}

const SWEEP_INTERVAL_MS = 10 * 60_000;

export async function buildAuthService(deps: ServiceDeps, options: AuthServiceOptions = {}): Promise<AuthServiceModule> {
  const store = await openAuthStore(deps.docs);
  const events = createIdentityPublisher(deps.bus);
  const tokens = createTokenIssuer(deps.keys, options.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS);
  const passwordCost = options.passwordCost ?? OWASP_SCRYPT_COST;
  const ctx: AuthContext = {
    store,
    events,
    tokens,
    limiter: createAttemptLimiter(deps.counters),
    limits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    secrets: createSecretBox(deps.secretsKey),
    passwordCost,
    dummyPasswordHash: await makeDummyHash(passwordCost),
    publicUrl: deps.publicUrl,
    log: deps.log,
    now: options.now ?? Date.now,
    ...createMailQueue(deps.mailer, deps.log),
    currentUser: currentUserResolver(store, tokens),
  };
  let consumer: Subscription | null = null;
  let sweeper: NodeJS.Timeout | null = null;

  async function sweepExpired(): Promise<void> {
    const now = Date.now();
    await store.preTokens.deleteMany({ expiresAt: { $lte: now } });
    await store.resetTokens.deleteMany({ expiresAt: { $lte: now } });
  }

  return {
    name: 'auth',
    async routes(app: FastifyInstance) {
      await registerAccountRoutes(app, ctx);
      await registerUserRoutes(app, ctx);
      await registerTwoFactorRoutes(app, ctx);
      await registerServerRoutes(app, ctx);
      await registerManageRoutes(app, ctx);
    },
    async start() {
      consumer = await startIdentityConsumer(deps.bus, store, events);
      sweeper = setInterval(() => {
        sweepExpired().catch((err: unknown) => deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'token sweep failed'));
      }, SWEEP_INTERVAL_MS);
      sweeper.unref();
    },
    async stop() {
      if (sweeper !== null) clearInterval(sweeper);
      sweeper = null;
      const current = consumer;
      consumer = null;
      if (current !== null) await current.stop();
      await ctx.flushMail();
    },
    async ready() {
      return true;
    },
    flushMail: () => ctx.flushMail(),
  };
}

export const createAuthService: ServiceFactory = (deps) => buildAuthService(deps);
