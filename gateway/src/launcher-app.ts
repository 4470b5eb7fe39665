/** The HTTP app every launcher mode (all-in-one, gateway alone, one service) starts from. */
import type { FastifyInstance } from 'fastify';
import type { SkaldConfig } from '@skald/config';
import { createHttpApp } from '@skald/service-kit';
import type { HttpAppOptions } from '@skald/service-kit';
import type { LauncherOptions } from './all-in-one.ts';

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
