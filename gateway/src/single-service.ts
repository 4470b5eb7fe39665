/**
 * TARGET=<service>: one service alone on its port, routes at the spec's paths (no /api), with
 * /health and /ready. Behind the gateway, which forwards the request id and client address.
 */
import type { SkaldConfig } from '@skald/config';
import { createSharedAdapters } from '@skald/adapters';
import { ALL_TOPICS } from '@skald/contracts';
import { registerAdapterMetrics, registerHealthRoutes } from '@skald/service-kit';
import type { ServiceName } from '@skald/service-kit';
import { createLauncherApp, runningProcess } from './launcher-app.ts';
import type { LauncherOptions, RunningProcess } from './launcher-app.ts';
import { mountService } from './mount-service.ts';
import { registerServiceOpenApi } from './openapi.ts';
import { resolveKeys, serviceDeps } from './process-deps.ts';
import { loadServiceFactory } from './service-registry.ts';

export async function buildSingleService(config: SkaldConfig, name: ServiceName, options: LauncherOptions = {}): Promise<RunningProcess> {
  const app = createLauncherApp(config, options, { trustProxy: true });
  const keys = resolveKeys(config, name);
  const factory = await loadServiceFactory(name, options.factories);
  const shared = await (options.createAdapters ?? createSharedAdapters)(config, { publishLine: (line) => app.log.info({ outbox: line }, 'mail written to the outbox') });
  let docsClose: () => Promise<void> = async () => undefined;
  try {
    await shared.bus.ensureTopics(ALL_TOPICS);
    registerAdapterMetrics(app.metrics, shared);
    const { deps, close } = await serviceDeps(config, name, shared, keys, app.log);
    docsClose = close;
    const module = await factory(deps);
    registerHealthRoutes(app, [module]);
    await registerServiceOpenApi(app);
    await mountService(app, module, { prefix: '', defaultBodyLimit: config.bodyLimitBytes });
    return runningProcess(app, [module], [
      { name: `stop ${name}`, run: () => module.stop() },
      { name: 'close adapters', run: async () => { await docsClose(); await shared.close(); } },
    ]);
  } catch (error) {
    await docsClose().catch(() => undefined);
    await shared.close().catch(() => undefined);
    throw error;
  }
}
