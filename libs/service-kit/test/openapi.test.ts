import { describe, expect, it, afterAll } from 'vitest';
import Fastify from 'fastify';
import Type from 'typebox';
import { API_KEY_SECURITY, isOpenApiDocument, mergeOpenApiDocuments, openApiBase, registerOpenApiGenerator } from '../src/index.ts';
import type { OpenApiDocument } from '../src/index.ts';

const doc = (paths: OpenApiDocument['paths'], components?: OpenApiDocument['components']): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 'Skald API', version: '1.2.3' },
  paths,
  ...(components ? { components } : {}),
});

describe('openApiBase', () => {
  it('names the API, its version and both security schemes, bearer by default', () => {
    const base = openApiBase('1.2.3', ['A note.']);
    expect(base).toMatchObject({ openapi: '3.1.0', info: { title: 'Skald API', version: '1.2.3' }, security: [{ bearer: [] }], paths: {} });
    expect(base.info.description).toMatch(/X-API-Key header; the \?apiKey= query parameter still works but is deprecated/);
    expect(base.info.description).toMatch(/A note\.$/);
    expect(base.components?.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
  });
});

describe('isOpenApiDocument', () => {
  it('accepts a document and refuses what is not one', () => {
    expect(isOpenApiDocument(doc({ '/a': { get: {} } }))).toBe(true);
    expect(isOpenApiDocument({ openapi: '3.1.0', info: { title: 'x' }, paths: {} })).toBe(false);
    expect(isOpenApiDocument({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: [] })).toBe(false);
    expect(isOpenApiDocument({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': 'no' } })).toBe(false);
    expect(isOpenApiDocument('<html>')).toBe(false);
  });
});

describe('registerOpenApiGenerator', () => {
  const app = Fastify();
  afterAll(() => app.close());

  it('describes the routes added after it under the prefix, with their security, and serves the document', async () => {
    app.get('/api/health', async () => ({ status: 'ok' }));
    await registerOpenApiGenerator(app, {
      version: '1.2.3',
      documentPath: '/api/openapi.json',
      pathPrefix: '/api',
      securityFor: (method, path) => (method === 'POST' && path === '/logs' ? API_KEY_SECURITY : undefined),
    });
    await app.register(
      async (scope) => {
        scope.get('/logs/:id', { schema: { tags: ['logs'], summary: 'One log', params: Type.Object({ id: Type.String() }) } }, async () => ({}));
        scope.post('/logs', { schema: { tags: ['ingestion'], summary: 'Send logs' } }, async () => ({}));
        scope.post('/auth/login', { schema: { tags: ['auth'], summary: 'Sign in', security: [] } }, async () => ({}));
        scope.get('/bare', async () => ({}));
      },
      { prefix: '/api' },
    );
    app.get('/*', async () => 'web app');

    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const generated = response.json();
    expect(generated.info).toMatchObject({ title: 'Skald API', version: '1.2.3' });
    expect(Object.keys(generated.paths).sort()).toEqual(['/api/auth/login', '/api/bare', '/api/logs', '/api/logs/{id}']);
    expect(generated.paths['/api/logs/{id}'].get).toMatchObject({ summary: 'One log', tags: ['logs'], parameters: [{ name: 'id', in: 'path', required: true }] });
    expect(generated.paths['/api/logs/{id}'].get.security).toBeUndefined();
    expect(generated.paths['/api/logs'].post.security).toEqual([{ apiKey: [] }]);
    expect(generated.paths['/api/auth/login'].post.security).toEqual([]);
    expect(generated.security).toEqual([{ bearer: [] }]);
  });
});

describe('mergeOpenApiDocuments', () => {
  it('puts the paths under the prefix, merges methods and components, names the missing upstreams', () => {
    const merged = mergeOpenApiDocuments(
      '1.2.3',
      [
        { service: 'logs', document: doc({ '/logs/my': { get: { summary: 'List' } }, '/photologs': { get: { summary: 'Photos' } } }) },
        { service: 'ingestion', document: doc({ '/photologs': { post: { summary: 'Send a photo' } } }) },
        { service: 'auth', failure: 'unreachable' },
        { service: 'admin', failure: 'answered 500' },
      ],
      '/api',
    );
    expect(merged.paths).toEqual({
      '/api/logs/my': { get: { summary: 'List' } },
      '/api/photologs': { get: { summary: 'Photos' }, post: { summary: 'Send a photo' } },
    });
    expect(merged.info.description).toMatch(/did not answer: auth \(unreachable\), admin \(answered 500\)\.$/);
    expect(Object.keys(merged.components?.securitySchemes ?? {}).sort()).toEqual(['apiKey', 'bearer']);
  });

  it('keeps equal components once and renames a different one with the same name, with its references', () => {
    const log = { type: 'object', properties: { id: { type: 'string' } } };
    const ref = (name: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } });
    const merged = mergeOpenApiDocuments(
      '1.2.3',
      [
        { service: 'logs', document: doc({ '/logs/my': { get: { responses: { 200: ref('def-0') } } } }, { schemas: { 'def-0': log, Log: log } }) },
        { service: 'auth', document: doc({ '/auth/me': { get: { responses: { 200: ref('def-0') } } } }, { schemas: { 'def-0': { type: 'string' }, Log: log } }) },
      ],
      '/api',
    );
    expect(merged.components?.schemas).toEqual({ 'def-0': log, Log: log, 'auth-def-0': { type: 'string' } });
    expect(merged.paths['/api/logs/my']).toEqual({ get: { responses: { 200: ref('def-0') } } });
    expect(merged.paths['/api/auth/me']).toEqual({ get: { responses: { 200: ref('auth-def-0') } } });
  });
});
