/**
 * Compression of the gateway's answers, in both modes (nothing was compressed, so the
 * landing page moved 737 KB of JavaScript). Two paths:
 *   - the built web app is compressed once, at build time (web/vite.config.ts writes `.br` and `.gz` beside
 *     each file); @fastify/static serves them with `preCompressed` (web-app.ts), no CPU per request;
 *   - API answers above COMPRESS_THRESHOLD_BYTES are compressed on the fly (@fastify/compress, brotli at
 *     quality 4, else gzip) when the client asks for it. Smaller answers are sent as they are: compressing
 *     them costs more than it saves.
 * The game servers' ingestion routes (POST /api/logs, /api/photologs) are left out altogether: they are
 * the hottest path, their answers are ids (a batch's answer is a fraction of the logs the server just
 * sent), and in all-in-one the plugin's hook is not even attached to them.
 * Images are never compressed (photos are JPEG/PNG/WebP: compressed already), nor opaque
 * `application/octet-stream` bodies; an answer that already carries a Content-Encoding (a precompressed
 * asset) is left alone. Headers set by the routes (Cache-Control: no-store on ingestion and token answers,
 * immutable on hashed assets) pass through untouched; compressed answers add `Vary: accept-encoding`.
 */
import { Readable } from 'node:stream';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isMachineApiRoute, MACHINE_API_ROUTES } from './security.ts';

/** Below this many bytes an answer is sent uncompressed (the plugin's own threshold for buffered answers). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** Offered in this order of preference; the precompressed web assets exist in the same two. */
export const COMPRESS_ENCODINGS = ['br', 'gzip'] as const;

/**
 * Text types compressed on the fly. The plugin's default also matches `octet-stream`; here anything else
 * falls back to mime-db's `compressible` flag, which is false for JPEG, PNG and GIF and unknown (so false)
 * for WebP, and true for SVG.
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|^application\/javascript(?:;|$)/u;

function isIngestion(request: FastifyRequest): boolean {
  return request.method === 'POST' && MACHINE_API_ROUTES.has(request.url.split('?', 1)[0] ?? '');
}

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // All-in-one: the ingestion routes are real routes, declared after this; `compress: false` keeps the
  // plugin's hook off them (onRoute hooks run in registration order, so this one runs before the plugin's).
  app.addHook('onRoute', (route) => {
    if (isMachineApiRoute(route)) route.compress = false;
  });
  // Gateway mode proxies every /api path through one wildcard route, so the choice is made per request:
  // ingestion answers are left alone, and since the plugin checks its threshold only for answers it holds
  // in memory, a proxied answer (a stream) is judged by the upstream's Content-Length. `x-no-compression`
  // is the plugin's own per-request switch, read by its onSend hook, which runs after this one.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isIngestion(request)) request.headers['x-no-compression'] = 'ingestion';
    else if (payload instanceof Readable) {
      const length = Number(reply.getHeader('content-length'));
      if (Number.isFinite(length) && length < COMPRESS_THRESHOLD_BYTES) request.headers['x-no-compression'] = 'below threshold';
    }
    done(null, payload);
  });
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: [...COMPRESS_ENCODINGS],
    customTypes: COMPRESSIBLE,
  });
}
