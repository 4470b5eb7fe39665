/**
 * TARGET=all: the gateway and every service in ONE process with the embedded adapters.
 * Services are mounted in-process under /api (route ownership checked against the route table).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SkaldConfig } from '@skald/config';
import { createSharedAdapters } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import { ALL_TOPICS } from '@skald/contracts';
import { isReady, registerAdapterMetrics, SERVICE_NAMES } from '@skald/service-kit';
import type { ServiceModule } from '@skald/service-kit';
import { createLauncherApp, runningProcess } from './launcher-app.ts';
import type { LauncherOptions, RunningProcess } from './launcher-app.ts';
import { mountService } from './mount-service.ts';
import { resolveKeys, serviceDeps } from './process-deps.ts';
import { registerCompression } from './compression.ts';
import { registerAllInOneOpenApi } from './openapi.ts';
import { registerPublicConfig } from './public-config.ts';
import { registerSecurity } from './security.ts';
import { loadServiceFactory } from './service-registry.ts';
import { DEFAULT_WEB_DIST, registerWebApp, spaNotFoundHandler } from './web-app.ts';

export async function buildAllInOne(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  const app = createLauncherApp(config, options, { notFoundHandler: spaNotFoundHandler(webDist) });
  const keys = resolveKeys(config);
  let shared: SharedAdapters | undefined;
  const serviceStores: (() => Promise<void>)[] = [];
  const modules: ServiceModule[] = [];
  const closeStores = async () => {
    for (const close of serviceStores.splice(0)) await close();
    await shared?.close();
  };
  try {
    shared = await (options.createAdapters ?? createSharedAdapters)(config, { publishLine: (line) => app.log.info({ outbox: line }, 'mail written to the outbox') });
    await shared.bus.ensureTopics(ALL_TOPICS);
    registerAdapterMetrics(app.metrics, shared);
    for (const name of options.services ?? SERVICE_NAMES) {
      const factory = await loadServiceFactory(name, options.factories);
      const { deps, close } = await serviceDeps(config, name, shared, keys, app.log);
      serviceStores.push(close);
      modules.push(await factory(deps));
    }
    await registerSecurity(app, config.corsOrigins);
    // Before any route: the plugin attaches itself to the routes declared after it.
    await registerCompression(app);
    registerAllInOneHealth(app, modules);
    await registerAllInOneOpenApi(app);
    registerPublicConfig(app, config);
    for (const module of modules) await mountService(app, module, { prefix: '/api', defaultBodyLimit: config.bodyLimitBytes });
    await registerWebApp(app, webDist);
  } catch (error) {
    await closeStores().catch(() => undefined);
    throw error;
  }

  return runningProcess(app, modules, [
    ...modules.map((m) => ({ name: `stop ${m.name}`, run: () => m.stop() })),
    { name: 'close adapters', run: closeStores },
  ]);
}

/** GET /api/health: { status, services: { auth: 'ok', ... } }; GET /api/<service>/health per service. */
function registerAllInOneHealth(app: FastifyInstance, modules: readonly ServiceModule[]): void {
  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  // /ready (probes) and /api/health (people, the web app) give the same answer.
  const overall = async (_request: unknown, reply: FastifyReply) => {
    const states = await Promise.all(modules.map(async (m) => [m.name, (await isReady(m)) ? 'ok' : 'not ready'] as const));
    const body = { status: 'ok', services: Object.fromEntries(states) };
    if (states.every(([, state]) => state === 'ok')) return body;
    return reply.code(503).send({ error: 'Service not ready', message: 'Some services are not ready', ...body, status: 'degraded' });
  };
  app.get('/ready', { logLevel: 'warn' }, overall);
  app.get('/api/health', { logLevel: 'warn' }, overall);
  for (const module of modules) {
    app.get(`/api/${module.name}/health`, { logLevel: 'warn' }, async (_request, reply) => {
      const ok = await isReady(module);
      return ok
        ? { status: 'ok', service: module.name }
        : reply.code(503).send({ error: 'Service not ready', message: `${module.name} is not ready`, status: 'not ready', service: module.name });
    });
  }
}
