/** Picks what a process runs from config.target and starts listening with graceful shutdown. */
import type { SkaldConfig } from '@skald/config';
import { installGracefulShutdown, registerProcessMetrics, startMetricsServer } from '@skald/service-kit';
import { buildAllInOne } from './all-in-one.ts';
import type { LauncherOptions, RunningProcess } from './launcher-app.ts';

export async function buildProcess(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  if (config.target === 'all') return buildAllInOne(config, options);
  // The other modes are loaded only when chosen: the proxying gateway pulls in @fastify/reply-from
  // and undici (~30 MB RSS) that the all-in-one process never uses.
  if (config.target === 'gateway') {
    const { buildGateway } = await import('./gateway-only.ts');
    return buildGateway(config, options);
  }
  const { buildSingleService } = await import('./single-service.ts');
  return buildSingleService(config, config.target, options);
}

export async function launch(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  const started = Date.now();
  const running = await buildProcess(config, options);
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
