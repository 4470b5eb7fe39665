/**
 * TARGET=gateway: proxies /api/<path> to SERVICE_URL_<OWNER>/<path> (owner from the route table),
 * passing the request id, with a timeout; upstream failures answer 502/504 in the JSON error shape.
 * Bodies are streamed, not parsed, but capped by the same per-route limits as all-in-one.
 */
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import replyFrom from '@fastify/reply-from';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SkaldConfig } from '@skald/config';
import { HttpError, REQUEST_ID_HEADER, SERVICE_NAMES, sendError } from '@skald/service-kit';
import type { ServiceName } from '@skald/service-kit';
import { bodyLimitFor, routeResolver } from './route-table.ts';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade'];

function apiPath(url: string): string {
  const path = url.slice('/api'.length);
  return path.startsWith('/') ? path : `/${path}`;
}

/** Counts bytes and fails the stream once the limit is passed (bodies without Content-Length). */
function limitStream(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) callback(new HttpError(413, 'Request body is too large'));
      else callback(null, chunk);
    },
  });
}

export async function registerProxy(app: FastifyInstance, config: SkaldConfig): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request, payload, done) => {
      const limit = bodyLimitFor(request.method, apiPath(request.url), config.bodyLimitBytes);
      const declared = Number(request.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > limit) {
        done(new HttpError(413, 'Request body is too large'), undefined);
        return;
      }
      done(null, payload.pipe(limitStream(limit)));
    });
    await scope.register(replyFrom, { disableRequestLogging: true, http: { requestOptions: { timeout: config.upstreamTimeoutMs } } });

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = apiPath(request.url);
      const owner = routeResolver.resolve(request.method, path);
      if (!owner) return sendError(reply, 404, 'Not Found', `Route ${request.method} ${path.split('?')[0]} not found`);
      const upstream = config.serviceUrls[owner.service];
      return reply.from(`${upstream}${path}`, {
        timeout: config.upstreamTimeoutMs,
        rewriteRequestHeaders: (_req, headers) => {
          const kept = Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name.toLowerCase()));
          return { ...Object.fromEntries(kept), [REQUEST_ID_HEADER]: request.id, 'x-forwarded-for': request.ip };
        },
        onError: (errorReply, { error }) => {
          const timedOut = (error as { statusCode?: number }).statusCode === 504;
          // The raw error: the logger's err serializer writes its message, code and stack (redacted) once.
          request.log.warn({ upstream: owner.service, err: error }, 'upstream request failed');
          void sendError(
            errorReply as FastifyReply,
            timedOut ? 504 : 502,
            timedOut ? 'The service took too long to answer. Please try again.' : 'The service is unavailable. Please try again shortly.',
            `${owner.service} ${timedOut ? 'timed out' : 'unreachable'}`,
          );
        },
      });
    };
    scope.all('/api/*', handler);
    scope.all('/api', handler);
  });
}

type HealthState = 'ok' | 'not ready' | 'unreachable';

async function probe(url: string, timeoutMs: number): Promise<HealthState> {
  try {
    const response = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok ? 'ok' : 'not ready';
  } catch {
    return 'unreachable';
  }
}

/** GET /api/health asks every upstream's /ready; GET /api/<service>/health asks one. */
export function registerProxyHealth(app: FastifyInstance, config: SkaldConfig): void {
  const timeoutMs = Math.min(2_000, config.upstreamTimeoutMs);
  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/ready', { logLevel: 'warn' }, async () => ({ status: 'ready' }));
  app.get('/api/health', { logLevel: 'warn' }, async (_request, reply) => {
    const states = await Promise.all(SERVICE_NAMES.map(async (name) => [name, await probe(config.serviceUrls[name], timeoutMs)] as const));
    const ok = states.every(([, s]) => s === 'ok');
    const body = { status: ok ? 'ok' : 'degraded', services: Object.fromEntries(states) };
    return reply.code(ok ? 200 : 503).send(ok ? body : { error: 'Service not ready', message: 'Some services are not ready', ...body });
  });
  for (const name of SERVICE_NAMES) {
    app.get(`/api/${name}/health`, { logLevel: 'warn' }, async (_request, reply) => {
      const state = await probe(config.serviceUrls[name as ServiceName], timeoutMs);
      return state === 'ok'
        ? { status: 'ok', service: name }
        : reply.code(503).send({ error: 'Service not ready', message: `${name} is ${state}`, status: state, service: name });
    });
  }
}
