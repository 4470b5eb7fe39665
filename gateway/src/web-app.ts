/**
 * Serves the built web app (web/dist) at / with an SPA fallback: any GET outside /api that is not
 * a file answers index.html so client-side routes (/dashboard, /reset-password/<token>) load.
 * Without a build, / answers a short text saying how to build it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { handleNotFound } from '@skald/service-kit';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export const WEB_NOT_BUILT_TEXT = 'Skald is running. The web app is not built yet: run `npm run build:web` (npm start does it for you).\n';

export function webAppAvailable(webDist: string): boolean {
  return existsSync(`${webDist}/index.html`);
}

export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  if (!webAppAvailable(webDist)) {
    app.get('/', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(WEB_NOT_BUILT_TEXT));
    return;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    // The build writes `.br` and `.gz` beside each text file (web/vite.config.ts): served as they are to
    // clients that accept them, with Vary: accept-encoding, so no answer compresses an asset per request.
    preCompressed: true,
    setHeaders: (res, path) => {
      // Vite fingerprints everything under assets/; index.html must be revalidated to pick up new builds.
      res.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

/** Not-found handler for the gateway: SPA fallback for browser navigation, JSON 404 for the API. */
export function spaNotFoundHandler(webDist: string) {
  const available = webAppAvailable(webDist);
  return (request: FastifyRequest, reply: FastifyReply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
    if (available && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return handleNotFound(request, reply);
  };
}
