/** Picks what a process runs from config.target and starts listening with graceful shutdown. */
import type { SkaldConfig } from '@skald/config';
import { installGracefulShutdown, registerProcessMetrics, startMetricsServer } from '@skald/service-kit';
import type { LauncherOptions, RunningProcess } from './launcher-app.ts';

/** What a mode's module builds: the process for the configuration, not started. */
export type ModeBuilder = (config: SkaldConfig, options: LauncherOptions) => Promise<RunningProcess>;

/**
 * Loads the module of the mode `target` chooses, and only it: the all-in-one pulls in every service and
 * adapter, which the proxying gateway must never load (gateway/test/gateway-only-imports.test.ts walks
 * from main.ts), and the proxying gateway pulls in @fastify/reply-from and undici (~30 MB RSS) that the
 * all-in-one never uses. Separate from the build so that main.ts can flush the compile cache once the
 * module graph is loaded and before the stores open.
 */
export async function loadMode(target: SkaldConfig['target']): Promise<ModeBuilder> {
  if (target === 'all') return (await import('./all-in-one.ts')).buildAllInOne;
  if (target === 'gateway') return (await import('./gateway-only.ts')).buildGateway;
  const { buildSingleService } = await import('./single-service.ts');
  return (config, options) => buildSingleService(config, target, options);
}

export async function buildProcess(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  const build = await loadMode(config.target);
  return build(config, options);
}

/** Builds (with `build`, loaded by loadMode, when given), starts and listens. */
export async function launch(config: SkaldConfig, options: LauncherOptions = {}, build?: ModeBuilder): Promise<RunningProcess> {
  const started = Date.now();
  const running = build === undefined ? await buildProcess(config, options) : await build(config, options);
  await running.start();
  registerProcessMetrics(running.app.metrics);
  // The requested port first: a metrics listener on METRICS_PORT=0 takes any free port, which could be the
  // one PORT names while it is still unbound (seen in a test: EADDRINUSE on PORT at start).
  const address = await running.app.listen({ host: config.host, port: config.port });
  const metrics = await startMetricsServer({ registry: running.app.metrics, host: config.host, port: config.metricsPort, log: running.app.log });
  installGracefulShutdown({
    app: running.app,
    steps: [...running.shutdownSteps, { name: 'close the metrics listener', run: () => metrics.close() }],
    timeoutMs: config.shutdownTimeoutMs,
    log: running.app.log,
  });
  running.app.log.info(
    { target: config.target, mode: config.mode, dataDir: config.dataDir, adapters: config.adapters, startupMs: Date.now() - started },
    `Skald (${config.target}) listening on ${address}`,
  );
  // After the listening line, so an operator reading the start-up log sees them next to the address.
  for (const warning of config.startupWarnings) running.app.log.warn(warning);
  return running;
}
