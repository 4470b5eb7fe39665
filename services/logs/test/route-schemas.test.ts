/**
 * Every route describes itself for the generated OpenAPI document (the gateway builds /api/openapi.json
 * from the route schemas with @fastify/swagger): tags, a summary, its parameters and every answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createHttpApp } from '@skald/service-kit';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { createLogsServiceWith } from '../src/logs-service.ts';

const TAGS = ['logs', 'photologs', 'settings', 'usage', 'exports', 'admin', 'players', 'saved-searches', 'cases'];
const routes: { method: string; url: string; schema: FastifySchema | undefined }[] = [];
let deps: TestDeps;
let app: FastifyInstance;

beforeAll(async () => {
  deps = await createTestDeps({ service: 'logs' });
  app = createHttpApp({ logLevel: 'silent' });
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'logs', version: '0' } } });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, schema: route.schema });
  });
  const module = await createLogsServiceWith(deps);
  await app.register(async (scope) => module.routes(scope));
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await deps.cleanup();
});

describe('logs route schemas', () => {
  it('give every route a tag, a summary and its answers, errors included', () => {
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'DELETE /cases/:id',
      'DELETE /logs/cleanup',
      'DELETE /players/:playerId',
      'DELETE /saved-searches/:id',
      'GET /admin/servers/:id/logs',
      'GET /admin/servers/:id/photologs',
      'GET /cases',
      'GET /cases/:id',
      'GET /cases/:id/pdf',
      'GET /exports/:type',
      'GET /exports/:type/pdf',
      'GET /exports/custom',
      'GET /exports/status',
      'GET /logs/:id/context',
      'GET /logs/my',
      'GET /logs/my/combined',
      'GET /logs/my/histogram',
      'GET /logs/stats',
      'GET /logs/tail',
      'GET /photologs/image/:id',
      'GET /photologs/my',
      'GET /photologs/my/histogram',
      'GET /players',
      'GET /players/:playerId',
      'GET /players/:playerId/logs',
      'GET /players/by-identifier/:identifier',
      'GET /saved-searches',
      'GET /server/usage/:id',
      'GET /settings/colors',
      'GET /settings/levels',
      'PATCH /cases/:id',
      'POST /cases',
      'POST /cases/:id/logs',
      'POST /saved-searches',
      'PUT /settings/colors',
    ]);
    for (const { method, url, schema } of routes) {
      const where = `${method} ${url}`;
      expect(schema?.tags?.length, where).toBe(1);
      expect(TAGS, where).toContain(schema?.tags?.[0]);
      expect(schema?.summary, where).toEqual(expect.any(String));
      const statuses = Object.keys(schema?.response ?? {});
      expect(statuses, where).toEqual(expect.arrayContaining([(url === '/saved-searches' || url === '/cases') && method === 'POST' ? '201' : '200', '400', '404']));
      // The image route is authorised by its signed URL alone; every other route needs an access token.
      if (url !== '/photologs/image/:id') expect(statuses, where).toContain('401');
    }
  });

  it('generate one OpenAPI operation per route', () => {
    const document = app.swagger() as { paths: Record<string, Record<string, { tags?: string[]; responses?: Record<string, unknown> }>> };
    expect(Object.keys(document.paths).sort()).toEqual([
      '/admin/servers/{id}/logs',
      '/admin/servers/{id}/photologs',
      '/cases',
      '/cases/{id}',
      '/cases/{id}/logs',
      '/cases/{id}/pdf',
      '/exports/custom',
      '/exports/status',
      '/exports/{type}',
      '/exports/{type}/pdf',
      '/logs/cleanup',
      '/logs/my',
      '/logs/my/combined',
      '/logs/my/histogram',
      '/logs/stats',
      '/logs/tail',
      '/logs/{id}/context',
      '/photologs/image/{id}',
      '/photologs/my',
      '/photologs/my/histogram',
      '/players',
      '/players/by-identifier/{identifier}',
      '/players/{playerId}',
      '/players/{playerId}/logs',
      '/saved-searches',
      '/saved-searches/{id}',
      '/server/usage/{id}',
      '/settings/colors',
      '/settings/levels',
    ]);
    expect(Object.keys(document.paths['/logs/stats']?.['get']?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '404']));
    const tail = document.paths['/logs/tail']?.['get']?.responses as Record<string, { content?: Record<string, unknown> }> | undefined;
    expect(Object.keys(tail?.['200']?.content ?? {})).toEqual(['text/event-stream']);
    expect(Object.keys(tail ?? {})).toContain('429');
  });
});
