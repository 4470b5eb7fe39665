/**
 * TARGET=gateway: GET /api/openapi.json merges the documents the upstream services generate (each
 * serves /openapi.json, see src/openapi.ts). The gateway has no routes of its own to describe and loads
 * no service code. Each upstream contributes only the operations the route table sends to it (what this
 * gateway actually proxies there); one that does not answer is left out and named in info.description.
 */
import type { FastifyInstance } from 'fastify';
import type { SkaldConfig } from '@skald/config';
import { isOpenApiDocument, mergeOpenApiDocuments, SERVICE_NAMES } from '@skald/service-kit';
import type { OpenApiDocument, ServiceName, UpstreamOpenApi } from '@skald/service-kit';
import { OPENAPI_DOCUMENT_PATH, SKALD_VERSION } from './openapi.ts';
import { serviceFor } from './route-table.ts';

/** A complete document is kept this long; one missing a service is fetched again sooner. */
export const OPENAPI_CACHE_MS = 30_000;
export const OPENAPI_PARTIAL_CACHE_MS = 5_000;

const HTTP_METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The operations of `document` the route table gives to `service` (path-level fields kept with them). */
function ownedBy(service: ServiceName, document: OpenApiDocument): OpenApiDocument {
  const paths = Object.entries(document.paths).flatMap(([path, item]) => {
    const kept = Object.entries(item).filter(([key]) => !HTTP_METHODS.has(key) || serviceFor(key.toUpperCase(), path) === service);
    return kept.some(([key]) => HTTP_METHODS.has(key)) ? [[path, Object.fromEntries(kept)] as const] : [];
  });
  return { ...document, paths: Object.fromEntries(paths) };
}

async function fetchUpstream(service: ServiceName, baseUrl: string, timeoutMs: number): Promise<UpstreamOpenApi> {
  try {
    const response = await fetch(`${baseUrl}${OPENAPI_DOCUMENT_PATH}`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      return { service, failure: `answered ${response.status}` };
    }
    const body: unknown = await response.json();
    return isOpenApiDocument(body) ? { service, document: ownedBy(service, body) } : { service, failure: 'not an OpenAPI document' };
  } catch (error) {
    return { service, failure: error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable' };
  }
}

async function collectOpenApi(config: SkaldConfig, timeoutMs: number): Promise<{ document: OpenApiDocument; complete: boolean }> {
  const upstreams = await Promise.all(SERVICE_NAMES.map((name) => fetchUpstream(name, config.serviceUrls[name], timeoutMs)));
  return { document: mergeOpenApiDocuments(SKALD_VERSION, upstreams, '/api'), complete: upstreams.every((u) => 'document' in u) };
}

export function registerProxyOpenApi(app: FastifyInstance, config: SkaldConfig): void {
  const timeoutMs = Math.min(2_000, config.upstreamTimeoutMs);
  // Concurrent requests share the collection under way instead of each asking every upstream.
  let cached: { expires: number; readonly result: ReturnType<typeof collectOpenApi> } | undefined;
  app.get('/api/openapi.json', async () => {
    let entry = cached;
    if (!entry || Date.now() >= entry.expires) {
      const fresh = { expires: Number.POSITIVE_INFINITY, result: collectOpenApi(config, timeoutMs) };
      cached = entry = fresh;
      fresh.result.then(
        ({ complete }) => {
          fresh.expires = Date.now() + (complete ? OPENAPI_CACHE_MS : OPENAPI_PARTIAL_CACHE_MS);
        },
        () => {
          fresh.expires = 0;
        },
      );
    }
    return (await entry.result).document;
  });
}
