/**
 * What every launcher mode (all-in-one, gateway alone, one service) shares: its options, the HTTP app
 * it starts from and the handle on the built process. Kept apart from the modes so the proxy-only
 * gateway never loads the all-in-one module (and through it the adapters).
 */
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { SkaldConfig } from '@skald/config';
import type { createSharedAdapters } from '@skald/adapters';
import { createHttpApp, startIdleMemoryTrim } from '@skald/service-kit';
import type { HttpAppOptions, ServiceModule, ServiceName } from '@skald/service-kit';
import type { FactoryOverrides } from './service-registry.ts';

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

/**
 * The launcher's handle on a built process. The last shutdown step must release the adapters; it is the
 * only one close() runs if start() never ran (modules were never started).
 */
export function runningProcess(app: FastifyInstance, modules: readonly ServiceModule[], shutdownSteps: RunningProcess['shutdownSteps']): RunningProcess {
  let started = false;
  let idleTrim: { stop(): void } | null = null;
  return {
    app,
    modules,
    shutdownSteps,
    async start() {
      await app.ready();
      for (const module of modules) await module.start();
      started = true;
      // The young generation grown by start-up or a burst of load goes back once the process is idle.
      idleTrim = startIdleMemoryTrim();
    },
    async close() {
      idleTrim?.stop();
      await app.close();
      for (const step of started ? shutdownSteps : shutdownSteps.slice(-1)) await step.run();
    },
  };
}


/** Log level and stream, body limit and request timeout from the config; `extra` adds what the mode needs. */
export function createLauncherApp(config: SkaldConfig, options: LauncherOptions, extra: Pick<HttpAppOptions, 'notFoundHandler' | 'trustProxy'>): FastifyInstance {
  return createHttpApp({
    logLevel: config.logLevel,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    bodyLimit: config.bodyLimitBytes,
    requestTimeoutMs: config.requestTimeoutMs,
    ...extra,
  });
}
