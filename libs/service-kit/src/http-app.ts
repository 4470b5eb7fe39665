/**
 * createHttpApp: the Fastify 5 instance every Skald process (gateway and each service) starts from,
 * with redacting logs, request ids, the JSON error shape, timeouts and body limits already set, and the
 * request rules every route follows: access decided before validation (guards.ts), typed bodies without
 * coercion or unknown fields (validation.ts), JSON bodies that are valid UTF-8 (json-body.ts),
 * secret-bearing answers never cached (no-store.ts), and request metrics per route pattern
 * (metrics/http-metrics.ts).
 */
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { AccessLogController } from './access-log.ts';
import { installBodyDrainBeforeClose } from './body-drain.ts';
import { installErrorHandlers } from './errors.ts';
import { installGuardsBeforeValidation } from './guards.ts';
import { registerStrictJsonParser } from './json-body.ts';
import { lazyChildLoggerFactory } from './lazy-logger.ts';
import { installHttpMetrics } from './metrics/http-metrics.ts';
import { installNoStoreForSecrets } from './no-store.ts';
import { redactPaths, REDACTED, serializeError, serializeRequest } from './redaction.ts';
import { genRequestId, REQUEST_ID_HEADER } from './request-id.ts';
import { buildPartValidator } from './validation.ts';

export interface HttpAppOptions {
  /** pino level; default 'info'. */
  readonly logLevel?: string;
  /** Where log lines go (tests capture them); default stdout. */
  readonly logStream?: DestinationStream;
  /** Default body limit in bytes; default 1 MiB. Routes may set their own. */
  readonly bodyLimit?: number;
  /** Whole-request timeout; also used as the connection timeout. Default 30 s. Must be non-zero (slow-client DoS). */
  readonly requestTimeoutMs?: number;
  /** Trust X-Forwarded-* (services behind the gateway). Default false. */
  readonly trustProxy?: boolean;
  /** Replaces the JSON 404 (the gateway's SPA fallback); must itself never log the raw URL. */
  readonly notFoundHandler?: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

export function loggerOptions(options: Pick<HttpAppOptions, 'logLevel' | 'logStream'>) {
  return {
    level: options.logLevel ?? 'info',
    redact: { paths: redactPaths(), censor: REDACTED },
    serializers: {
      req: serializeRequest,
      res: (reply: { readonly statusCode: number }) => ({ statusCode: reply.statusCode }),
      err: serializeError,
    },
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
}

export function createHttpApp(options: HttpAppOptions = {}): FastifyInstance {
  const timeout = options.requestTimeoutMs ?? 30_000;
  const accessLog = new AccessLogController();
  const app = Fastify({
    logger: loggerOptions(options),
    logController: accessLog,
    childLoggerFactory: lazyChildLoggerFactory,
    genReqId: genRequestId,
    bodyLimit: options.bodyLimit ?? 1_048_576,
    requestTimeout: timeout,
    connectionTimeout: timeout,
    keepAliveTimeout: 5_000,
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    schemaController: { compilersFactory: { buildValidator: buildPartValidator } },
  });
  accessLog.attach(app.log);
  // Callback style: an async hook costs a promise per request for nothing to await.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  // Every app counts its requests per route (app.metrics); launch.ts serves them on METRICS_PORT.
  installHttpMetrics(app);
  installErrorHandlers(app, options.notFoundHandler);
  registerStrictJsonParser(app);
  installGuardsBeforeValidation(app);
  installNoStoreForSecrets(app);
  // A 413 (or any answer that closes the connection) is sent once the client finished sending, within a bound.
  installBodyDrainBeforeClose(app);
  return app;
}
