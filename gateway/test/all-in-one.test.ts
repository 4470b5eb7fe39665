import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@skald/config';
import { SERVICE_NAMES } from '@skald/service-kit';
import { buildAllInOne } from '../src/all-in-one.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { FAST_PASSWORDS_ENV } from './support/all-in-one.ts';

let dir: string;
let running: RunningProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skald-aio-'));
  const web = join(dir, 'web');
  mkdirSync(join(web, 'assets'), { recursive: true });
  writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root">skald-app</div>');
  writeFileSync(join(web, 'assets', 'app-123.js'), 'console.log(1)');
  running = await buildAllInOne(loadConfig({ ...FAST_PASSWORDS_ENV, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', CORS_ORIGINS: 'https://ok.example' }), { webDist: web });
  await running.start();
});

afterAll(async () => {
  await running.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('all-in-one gateway', () => {
  it('reports every service under /api/health and /api/<service>/health', async () => {
    const health = await running.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', services: Object.fromEntries(SERVICE_NAMES.map((n) => [n, 'ok'])) });
    for (const name of SERVICE_NAMES) {
      expect((await running.app.inject({ method: 'GET', url: `/api/${name}/health` })).json()).toEqual({ status: 'ok', service: name });
    }
  });

  it('mounts the services under /api with the spec paths', async () => {
    const me = await running.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(401);
    expect(Object.keys(me.json()).sort()).toEqual(['error', 'message']);
    const ingest = await running.app.inject({ method: 'POST', url: '/api/logs', payload: { message: 'x' } });
    expect(ingest.statusCode).toBe(401);
  });

  it('serves the web app with an SPA fallback, and JSON 404 under /api', async () => {
    const root = await running.app.inject({ method: 'GET', url: '/' });
    expect(root.body).toContain('skald-app');
    expect(root.headers['cache-control']).toBe('no-cache');
    const deep = await running.app.inject({ method: 'GET', url: '/reset-password/some-token' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('skald-app');
    const asset = await running.app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const api404 = await running.app.inject({ method: 'GET', url: '/api/unknown/thing' });
    expect(api404.statusCode).toBe(404);
    expect(api404.json().error).toBe('Not Found');
    const post404 = await running.app.inject({ method: 'POST', url: '/not-a-page' });
    expect(post404.statusCode).toBe(404);
  });

  // The document's content is checked route by route in openapi.test.ts.
  it('serves the OpenAPI document generated from the routes at /api/openapi.json', async () => {
    const response = await running.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    // Paths as browsers call them, so no server URL prefix.
    expect(doc.servers).toBeUndefined();
    expect(Object.keys(doc.paths)).toContain('/api/logs/my');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
  });

  it('applies security headers and the CORS allow-list', async () => {
    const ok = await running.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://ok.example' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://ok.example');
    const evil = await running.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    expect(evil.headers['referrer-policy']).toBe('no-referrer');
    expect(evil.headers['strict-transport-security']).toBeDefined();
  });

  it('allows a 1000-log batch body on POST /api/logs but not on other routes', async () => {
    const batch = JSON.stringify(Array.from({ length: 1000 }, () => ({ message: 'y'.repeat(1500) })));
    const big = await running.app.inject({ method: 'POST', url: '/api/logs', payload: batch, headers: { 'content-type': 'application/json', 'x-api-key': 'nope' } });
    expect(big.statusCode).not.toBe(413);
    const elsewhere = await running.app.inject({ method: 'POST', url: '/api/auth/login', payload: batch, headers: { 'content-type': 'application/json' } });
    expect(elsewhere.statusCode).toBe(413);
  });
});
