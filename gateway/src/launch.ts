/** Picks what a process runs from config.target and starts listening with graceful shutdown. */
import type { SkaldConfig } from '@skald/config';
import { installGracefulShutdown } from '@skald/service-kit';
import { buildAllInOne } from './all-in-one.ts';
import type { LauncherOptions, RunningProcess } from './all-in-one.ts';
import { buildGateway } from './gateway-only.ts';
import { buildSingleService } from './single-service.ts';

export async function buildProcess(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  if (config.target === 'all') return buildAllInOne(config, options);
  if (config.target === 'gateway') return buildGateway(config, options);
  return buildSingleService(config, config.target, options);
}

export async function launch(config: SkaldConfig, options: LauncherOptions = {}): Promise<RunningProcess> {
  const started = Date.now();
  const running = await buildProcess(config, options);
  await running.start();
  installGracefulShutdown({ app: running.app, steps: running.shutdownSteps, timeoutMs: config.shutdownTimeoutMs, log: running.app.log });
  const address = await running.app.listen({ host: config.host, port: config.port });
  running.app.log.info(
    { target: config.target, mode: config.mode, dataDir: config.dataDir, adapters: config.adapters, startupMs: Date.now() - started },
    `Skald (${config.target}) listening on ${address}`,
  );
  return running;
}
