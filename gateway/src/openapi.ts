/**
 * GET /api/openapi.json: one OpenAPI 3.1 document merged from the services that publish one
 * (export `<service>OpenApi` from services/<service>/src/index.ts, e.g. `logsOpenApi`). Paths and
 * component entries are merged; a service without a description is simply absent.
 */
import type { FastifyInstance } from 'fastify';
import { SERVICE_NAMES } from '@skald/service-kit';
import { SERVICE_FACTORIES } from './service-registry.ts';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mergeOpenApi(documents: readonly Json[]): Json {
  const paths: Json = {};
  const components: Record<string, Json> = {};
  for (const doc of documents) {
    if (isObject(doc.paths)) Object.assign(paths, doc.paths);
    if (isObject(doc.components)) {
      for (const [section, entries] of Object.entries(doc.components)) {
        if (isObject(entries)) components[section] = { ...components[section], ...entries };
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Skald API', version: '1.0.0', description: 'Every path is relative to /api. Errors are { "error": string, "message": string }.' },
    servers: [{ url: '/api' }],
    paths,
    components,
  };
}

async function collect(): Promise<Json> {
  const documents: Json[] = [];
  for (const name of SERVICE_NAMES) {
    try {
      const mod = (await import(SERVICE_FACTORIES[name].pkg)) as Json;
      const doc = mod[`${name}OpenApi`];
      if (isObject(doc)) documents.push(doc);
    } catch {
      // A service that cannot be loaded here contributes nothing; its health check reports it.
    }
  }
  return mergeOpenApi(documents);
}

export function registerOpenApi(app: FastifyInstance): void {
  let cached: Promise<Json> | undefined;
  app.get('/api/openapi.json', async () => (cached ??= collect()));
}
