/**
 * TARGET=all: the gateway and every service in ONE process with the embedded adapters.
 * Services are mounted in-process under /api (route ownership checked against the route table).
 */
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { SkaldConfig } from '@skald/config';
import { createSharedAdapters } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import { ALL_TOPICS } from '@skald/contracts';
import type { DocumentStore } from '@skald/ports';
import { createHttpApp, isReady, SERVICE_NAMES } from '@skald/service-kit';
import type { ServiceModule, ServiceName } from '@skald/service-kit';
import { mountService } from './mount-service.ts';
import { resolveKeys, serviceDeps } from './process-deps.ts';
import { registerOpenApi } from './openapi.ts';
import { registerSecurity } from './security.ts';
import { loadServiceFactory } from './service-registry.ts';
import type { FactoryOverrides } from './service-registry.ts';
import { DEFAULT_WEB_DIST, registerWebApp, spaNotFoundHandler } from './web-app.ts';

export interface LauncherOptions {
  readonly logStream?: DestinationStream;
  readonly webDist?: string;
  /** Replace service factories (tests). */
  readonly factories?: FactoryOverrides;
  /** Which services to run; default all. */
  readonly services?: readonly ServiceName[];
  /** Replace adapter creation (tests: failing or instrumented adapters). Default createSharedAdapters. */
  readonly createAdapters?: typeof createSharedAdapters;
}

export interface RunningProcess {
  readonly app: FastifyInstance;
  readonly modules: readonly ServiceModule[];
  /** Makes the app ready and starts consumers/workers; call after adding any extra routes. */
  start(): Promise<void>;
  /** Ordered shutdown steps (after app.close): modules, then document stores, then shared adapters. */
  readonly shutdownSteps: readonly { readonly name: string; readonly run: () => Promise<void> }[];
  /** app.close() + every shutdown step (tests). */
  close(): Promise<void>;
}

export async function buildAllInOne(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  const app = createHttpApp({
    logLevel: config.logLevel,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    bodyLimit: config.bodyLimitBytes,
    requestTimeoutMs: config.requestTimeoutMs,
    notFoundHandler: spaNotFoundHandler(webDist),
  });
  const keys = resolveKeys(config);
  let shared: SharedAdapters | undefined;
  const docStores: DocumentStore[] = [];
  const modules: ServiceModule[] = [];
  const closeStores = async () => {
    for (const docs of docStores.splice(0)) await docs.close();
    await shared?.close();
  };
  try {
    shared = await (options.createAdapters ?? createSharedAdapters)(config, { publishLine: (line) => app.log.info({ outbox: line }, 'mail written to the outbox') });
    await shared.bus.ensureTopics(ALL_TOPICS);
    for (const name of options.services ?? SERVICE_NAMES) {
      const factory = await loadServiceFactory(name, options.factories);
      const { deps, docs } = await serviceDeps(config, name, shared, keys, app.log);
      docStores.push(docs);
      modules.push(await factory(deps));
    }
    await registerSecurity(app, config.corsOrigins);
    registerAllInOneHealth(app, modules);
    registerOpenApi(app);
    for (const module of modules) await mountService(app, module, { prefix: '/api', defaultBodyLimit: config.bodyLimitBytes });
    await registerWebApp(app, webDist);
  } catch (error) {
    await closeStores().catch(() => undefined);
    throw error;
  }

  const shutdownSteps = [
    ...modules.map((m) => ({ name: `stop ${m.name}`, run: () => m.stop() })),
    { name: 'close adapters', run: closeStores },
  ];
  let started = false;
  return {
    app,
    modules,
    shutdownSteps,
    async start() {
      await app.ready();
      for (const module of modules) await module.start();
      started = true;
    },
    async close() {
      await app.close();
      for (const step of started ? shutdownSteps : shutdownSteps.slice(-1)) await step.run();
    },
  };
}

/** GET /api/health: { status, services: { auth: 'ok', ... } }; GET /api/<service>/health per service. */
function registerAllInOneHealth(app: FastifyInstance, modules: readonly ServiceModule[]): void {
  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  const overall = async () => {
    const states = await Promise.all(modules.map(async (m) => [m.name, (await isReady(m)) ? 'ok' : 'not ready'] as const));
    const services = Object.fromEntries(states);
    const ok = states.every(([, s]) => s === 'ok');
    return { ok, body: { status: ok ? 'ok' : 'degraded', services } };
  };
  app.get('/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const { ok, body } = await overall();
    return reply.code(ok ? 200 : 503).send(ok ? body : { error: 'Service not ready', message: 'Some services are not ready', ...body });
  });
  app.get('/api/health', { logLevel: 'warn' }, async (_request, reply) => {
    const { ok, body } = await overall();
    return reply.code(ok ? 200 : 503).send(ok ? body : { error: 'Service not ready', message: 'Some services are not ready', ...body });
  });
  for (const module of modules) {
    app.get(`/api/${module.name}/health`, { logLevel: 'warn' }, async (_request, reply) => {
      const ok = await isReady(module);
      return ok
        ? { status: 'ok', service: module.name }
        : reply.code(503).send({ error: 'Service not ready', message: `${module.name} is not ready`, status: 'not ready', service: module.name });
    });
  }
}
