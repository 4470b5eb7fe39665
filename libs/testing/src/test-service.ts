/**
 * buildTestService: one service built by its real factory over createTestDeps, mounted on the service
 * kit's HTTP app (redacting logs, error shape, request ids: what every launcher uses), started, with
 *  - `tokenFor(user)` / `injectAs(user, request)`: requests carrying a real EdDSA access token signed with
 *    the test key pair, exactly as the auth service would sign it (no authentication seam in services);
 *  - `published`: every bus message published so far, captured by a consumer group of its own;
 *  - `identity`: publishes the identity facts a test needs (servers, keys, members) the way the auth
 *    service does, so the service's own read models learn them through its real consumer.
 * fastify/demo's `test/helper.ts`, for Skald.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { BusMessage, Subscription } from '@skald/ports';
import type { SiteRole } from '@skald/contracts';
import { ALL_TOPICS, DEFAULT_SITE_ROLE } from '@skald/contracts';
import { createHttpApp, signAccessToken } from '@skald/service-kit';
import type { ServiceDeps, ServiceModule } from '@skald/service-kit';
import { createIdentitySeeder } from './identity-seeder.ts';
import type { IdentitySeeder } from './identity-seeder.ts';
import { createTestDeps } from './test-deps.ts';
import type { TestDeps, TestDepsOptions } from './test-deps.ts';

export interface TestUser {
  readonly id: string;
  /** Site role in the token; default DEFAULT_SITE_ROLE (every registered user). */
  readonly role?: SiteRole;
  /** Token version; default 0 (a fresh account). */
  readonly tv?: number;
}

export interface TestService<M extends ServiceModule = ServiceModule> {
  readonly app: FastifyInstance;
  readonly module: M;
  readonly deps: TestDeps;
  readonly published: readonly BusMessage[];
  readonly identity: IdentitySeeder;
  tokenFor(user: TestUser, ttlSeconds?: number): string;
  inject(request: InjectOptions): Promise<LightMyRequestResponse>;
  injectAs(user: TestUser, request: InjectOptions): Promise<LightMyRequestResponse>;
  /** Stops the service, closes the app and the adapters, removes the folder. */
  close(): Promise<void>;
}

export interface TestServiceOptions extends TestDepsOptions {
  /** Call module.start() (consumers, jobs) before returning; default true. */
  readonly start?: boolean;
  /** Ready-made deps (e.g. two services sharing one folder); default createTestDeps(options). */
  readonly deps?: TestDeps;
  /** HTTP app log level; default 'silent'. */
  readonly logLevel?: string;
}

async function capturePublished(deps: ServiceDeps, into: BusMessage[]): Promise<Subscription> {
  return deps.bus.subscribe({
    group: `test.capture.${Math.random().toString(36).slice(2)}`,
    topics: ALL_TOPICS,
    handler: async (message) => {
      into.push(message);
    },
  });
}

export async function buildTestService<M extends ServiceModule>(
  factory: (deps: ServiceDeps) => Promise<M>,
  options: TestServiceOptions = {},
): Promise<TestService<M>> {
  const deps = options.deps ?? (await createTestDeps(options));
  const module = await factory(deps);
  const app = createHttpApp({ logLevel: options.logLevel ?? 'silent', ...(options.logStream ? { logStream: options.logStream } : {}) });
  await app.register(async (scope) => module.routes(scope));
  await app.ready();
  const published: BusMessage[] = [];
  const capture = await capturePublished(deps, published);
  if (options.start !== false) await module.start();

  const tokenFor = (user: TestUser, ttlSeconds = 3600): string =>
    signAccessToken(deps.keys, { sub: user.id, role: user.role ?? DEFAULT_SITE_ROLE, tv: user.tv ?? 0 }, ttlSeconds);

  return {
    app,
    module,
    deps,
    published,
    identity: createIdentitySeeder(deps.bus),
    tokenFor,
    inject: (request) => app.inject(request),
    injectAs: (user, request) =>
      app.inject({ ...request, headers: { ...request.headers, authorization: `Bearer ${tokenFor(user)}` } }),
    async close() {
      await capture.stop();
      await app.close();
      await module.stop();
      if (!options.deps) await deps.cleanup();
    },
  };
}
