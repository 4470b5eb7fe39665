import { describe, expect, it, beforeAll, afterAll, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { loadConfig } from '@skald/config';
import { loadOrCreateKeys, SERVICE_NAMES } from '@skald/service-kit';
import type { ServiceFactory, ServiceName } from '@skald/service-kit';
import { EMBEDDED_ADAPTERS_ENV } from '@skald/testing';
import { buildAllInOne } from '../src/all-in-one.ts';
import { buildGateway } from '../src/gateway-only.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { OPENAPI_PARTIAL_CACHE_MS } from '../src/openapi-proxy.ts';
import { registerServiceOpenApi } from '../src/openapi.ts';
import { serviceFor } from '../src/route-table.ts';
import { loadServiceFactory } from '../src/service-registry.ts';
import { buildSingleService } from '../src/single-service.ts';

const ROOT_VERSION: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

interface ResponseSchema {
  readonly type?: string;
  readonly properties?: Record<string, unknown>;
  readonly items?: { readonly type?: string; readonly properties?: Record<string, unknown> };
}
interface Operation {
  readonly summary?: string;
  readonly tags?: readonly string[];
  readonly security?: unknown;
  readonly parameters?: readonly { readonly name: string; readonly in: string; readonly required?: boolean }[];
  readonly responses?: Record<string, { readonly content?: Record<string, { readonly schema?: ResponseSchema }> }>;
}
interface Document {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly security?: unknown;
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: { readonly securitySchemes: Record<string, unknown> };
}

/** Every operation of a document as 'GET /api/logs/my'. */
function operations(doc: Document): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => METHODS.includes(key)).map((m) => `${m.toUpperCase()} ${path}`));
}

/** Fastify's ':id' as OpenAPI's '{id}'. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('all-in-one: GET /api/openapi.json generated from the route schemas', () => {
  let dir: string;
  let running: RunningProcess;
  let doc: Document;
  /** What each service registered, seen from inside its own scope (so the test does not trust the generator). */
  const registered: { readonly service: ServiceName; readonly method: string; readonly url: string }[] = [];

  const recording = (name: ServiceName): ServiceFactory => async (deps) => {
    const module = await (await loadServiceFactory(name))(deps);
    return {
      name: module.name,
      routes: async (scope) => {
        scope.addHook('onRoute', (route) => {
          for (const method of [route.method].flat().map(String)) if (method !== 'HEAD') registered.push({ service: name, method, url: route.url });
        });
        await module.routes(scope);
      },
      start: () => module.start(),
      stop: () => module.stop(),
      ready: () => module.ready(),
    };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-openapi-'));
    const factories = Object.fromEntries(SERVICE_NAMES.map((name) => [name, recording(name)]));
    running = await buildAllInOne(loadConfig({ DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' }), { webDist: join(dir, 'no-web'), factories });
    await running.start();
    const response = await running.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });

  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is an OpenAPI 3.1 document titled Skald API, versioned like the root package.json', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Skald API');
    expect(doc.info.version).toBe(ROOT_VERSION);
    expect(doc.info.description).toMatch(/\?apiKey= query parameter still works but is deprecated/);
  });

  it('describes exactly the routes the services registered, at the /api paths browsers call', () => {
    expect(registered.length).toBeGreaterThan(0);
    const expected = registered.map((r) => {
      // The route table owns every one of them (mountService refuses the others): no route outside the table.
      expect(serviceFor(r.method, r.url.slice('/api'.length))).toBe(r.service);
      return `${r.method} ${openApiPath(r.url)}`;
    });
    expect(operations(doc).sort()).toEqual([...new Set(expected)].sort());
  });

  it('leaves out the gateway routes: health, readiness, the document itself and the web app', () => {
    for (const path of ['/health', '/ready', '/api/health', '/api/logs/health', '/api/auth/health', '/api/openapi.json', '/', '/*']) {
      expect(doc.paths[path], path).toBeUndefined();
    }
  });

  it('gives every operation a summary and tags', () => {
    const missing = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => {
        const lacks = [...(op.summary ? [] : ['summary']), ...(op.tags?.length ? [] : ['tags'])];
        return lacks.length ? [`${method.toUpperCase()} ${path}: no ${lacks.join(', no ')}`] : [];
      }),
    );
    expect(missing).toEqual([]);
  });

  it('documents the query parameters and the 200 answer of the log list', () => {
    const list = doc.paths['/api/logs/my']?.get;
    const query = (list?.parameters ?? []).filter((p) => p.in === 'query');
    expect(query.map((p) => p.name).sort()).toEqual(['dateFrom', 'dateTo', 'level', 'page', 'pageSize', 'resource', 'search', 'serverId', 'timeFrom', 'timeTo', 'timeZone', 'type']);
    // The histogram takes the same filters without the paging.
    const histogram = doc.paths['/api/logs/my/histogram']?.get;
    expect((histogram?.parameters ?? []).map((p) => p.name).sort()).toEqual(['dateFrom', 'dateTo', 'level', 'resource', 'search', 'serverId', 'timeFrom', 'timeTo', 'timeZone', 'type']);
    expect(Object.keys(histogram?.responses?.['200']?.content?.['application/json']?.schema?.properties ?? {})).toEqual(
      expect.arrayContaining(['step', 'timeZone', 'buckets', 'total', 'capped', 'countedFrom']),
    );
    expect(query.find((p) => p.name === 'serverId')?.required).toBe(true);
    const answer = list?.responses?.['200']?.content?.['application/json']?.schema;
    expect(answer).toMatchObject({ type: 'array', items: { type: 'object' } });
    expect(Object.keys(answer?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata', 'log_type', 'image_path', 'thumb_path']),
    );
  });

  it('declares bearer JWT for the web routes and the X-API-Key header for POST /api/logs', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/logs']?.post?.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/api/photologs']?.post?.security).toEqual([{ apiKey: [] }]);
    // Signing up and in, and recovering a password, need no session.
    for (const path of ['/api/auth/register', '/api/auth/login', '/api/auth/2fa-login', '/api/auth/forgot-password', '/api/auth/reset-password']) {
      expect(doc.paths[path]?.post?.security, path).toEqual([]);
    }
    expect(doc.paths['/api/auth/me']?.get?.security).toBeUndefined();
  });
});

describe('single service: GET /openapi.json', () => {
  let dir: string;
  let running: RunningProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-openapi-one-'));
    const { secretsKey } = loadOrCreateKeys(join(dir, 'secrets'));
    const config = loadConfig({
      TARGET: 'logs',
      DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'silent',
      JWT_PUBLIC_KEY_FILE: join(dir, 'secrets', 'keys', 'jwt-public.pem'),
      SECRETS_KEY: secretsKey,
      ...EMBEDDED_ADAPTERS_ENV,
    });
    running = await buildSingleService(config, 'logs');
    await running.start();
  });

  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('describes its own routes at the paths it serves, without /health and /ready', async () => {
    const response = await running.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc: Document = response.json();
    expect(doc.info.title).toBe('Skald API');
    expect(doc.paths['/logs/my']?.get).toBeDefined();
    for (const operation of operations(doc)) {
      const [method = '', path = ''] = operation.split(' ');
      expect(serviceFor(method, path.replace(/\{[^}]+\}/g, 'x')), operation).toBe('logs');
    }
    expect(doc.paths['/health']).toBeUndefined();
    expect(doc.paths['/ready']).toBeUndefined();
    expect(doc.paths['/openapi.json']).toBeUndefined();
  });
});

describe('gateway alone: GET /api/openapi.json merged from the upstreams', () => {
  let logs: FastifyInstance;
  let ingestion: FastifyInstance;
  let gateway: RunningProcess;
  const fetched: Partial<Record<ServiceName, number>> = {};

  /** A tiny upstream that generates its document exactly as a single-service process does. */
  async function upstream(service: ServiceName, routes: (app: FastifyInstance) => void): Promise<FastifyInstance> {
    const app = Fastify();
    app.addHook('onRequest', async (request) => {
      if (request.url === '/openapi.json') fetched[service] = (fetched[service] ?? 0) + 1;
    });
    await registerServiceOpenApi(app);
    routes(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return app;
  }
  const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const getDoc = async (): Promise<Document> => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    logs = await upstream('logs', (app) => {
      const query = Type.Object({ serverId: Type.String() });
      app.get('/logs/my', { schema: { tags: ['logs'], summary: 'Text logs', querystring: query, response: { 200: Type.Array(Type.Object({ id: Type.String() })) } } }, async () => []);
      // Not the logs service's path in the route table: the gateway would never send it there.
      app.get('/auth/me', { schema: { tags: ['auth'], summary: 'Not mine' } }, async () => ({}));
    });
    ingestion = await upstream('ingestion', (app) => {
      app.post('/logs', { schema: { tags: ['ingestion'], summary: 'Send logs' } }, async () => ({ id: 'x' }));
    });
    const closed = 'http://127.0.0.1:1';
    const config = loadConfig({
      TARGET: 'gateway',
      LOG_LEVEL: 'silent',
      SERVICE_URL_LOGS: urlOf(logs),
      SERVICE_URL_INGESTION: urlOf(ingestion),
      ...Object.fromEntries(SERVICE_NAMES.filter((n) => n !== 'logs' && n !== 'ingestion').map((n) => [`SERVICE_URL_${n.toUpperCase()}`, closed])),
    });
    gateway = await buildGateway(config, { webDist: '/nonexistent' });
    await gateway.start();
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await gateway?.close();
    await logs?.close();
    await ingestion?.close();
  });

  it('merges the upstream documents under /api, each with the operations the route table sends it', async () => {
    const doc = await getDoc();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Skald API', version: ROOT_VERSION });
    expect(operations(doc).sort()).toEqual(['GET /api/logs/my', 'POST /api/logs']);
    expect(doc.paths['/api/logs/my']?.get?.parameters).toEqual([expect.objectContaining({ name: 'serverId', in: 'query', required: true })]);
    expect(doc.paths['/api/logs']?.post?.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
  });

  it('names the upstreams that did not answer instead of failing the document', async () => {
    const doc = await getDoc();
    for (const name of ['auth', 'webhooks', 'backups', 'billing', 'admin']) expect(doc.info.description).toContain(`${name} (unreachable)`);
    expect(doc.info.description).not.toContain('logs (');
  });

  it('keeps the document for a short time, then asks again and survives an upstream going down', async () => {
    const before = fetched.logs ?? 0;
    await getDoc();
    expect(fetched.logs ?? 0).toBe(before);

    await ingestion.close();
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + OPENAPI_PARTIAL_CACHE_MS + 1);
    const doc = await getDoc();
    expect(fetched.logs).toBe(before + 1);
    expect(operations(doc)).toEqual(['GET /api/logs/my']);
    expect(doc.info.description).toContain('ingestion (unreachable)');
  });
});
