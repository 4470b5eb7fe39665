import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@skald/config';
import { buildGateway } from '../src/gateway-only.ts';
import type { RunningProcess } from '../src/launcher-app.ts';

let upstream: FastifyInstance;
let gateway: RunningProcess;
const seen: { url: string; requestId: string | undefined; bytes: number }[] = [];

beforeAll(async () => {
  upstream = Fastify({ bodyLimit: 20 * 1024 * 1024 });
  upstream.get('/ready', async () => ({ status: 'ready' }));
  upstream.get('/logs/my', async (request) => {
    seen.push({ url: request.url, requestId: request.headers['x-request-id'] as string | undefined, bytes: 0 });
    return [{ id: 'l1' }];
  });
  upstream.post('/logs', async (request) => {
    seen.push({ url: request.url, requestId: request.headers['x-request-id'] as string | undefined, bytes: JSON.stringify(request.body).length });
    return { id: 'new' };
  });
  upstream.get('/auth/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return {};
  });
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
  const config = loadConfig({
    TARGET: 'gateway',
    SERVICE_URL_LOGS: base,
    SERVICE_URL_INGESTION: base,
    SERVICE_URL_AUTH: base,
    SERVICE_URL_WEBHOOKS: 'http://127.0.0.1:1',
    UPSTREAM_TIMEOUT_MS: '500',
    CORS_ORIGINS: 'https://app.skald.example',
    LOG_LEVEL: 'silent',
  });
  gateway = await buildGateway(config, { webDist: '/nonexistent' });
  await gateway.start();
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('distributed gateway', () => {
  it('proxies /api/<path> to the owning service with the request id and query', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/logs/my?serverId=s1', headers: { 'x-request-id': 'req-12345678' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ id: 'l1' }]);
    expect(response.headers['x-request-id']).toBe('req-12345678');
    expect(seen.at(-1)).toMatchObject({ url: '/logs/my?serverId=s1', requestId: 'req-12345678' });
  });

  it('streams a batch body above the default 1 MB limit to ingestion, refuses above the route limit', async () => {
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ message: `m${i} ${'x'.repeat(2000)}` })));
    expect(batch.length).toBeGreaterThan(1_048_576);
    const ok = await gateway.app.inject({ method: 'POST', url: '/api/logs', payload: batch, headers: { 'content-type': 'application/json' } });
    expect(ok.statusCode).toBe(200);
    expect(seen.at(-1)?.bytes).toBe(batch.length);
    const tooBig = await gateway.app.inject({ method: 'POST', url: '/api/logs', payload: 'x'.repeat(6 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toBe('Request body is too large');
    const settings = await gateway.app.inject({ method: 'PUT', url: '/api/settings/colors', payload: 'x'.repeat(1_100_000), headers: { 'content-type': 'application/json' } });
    expect(settings.statusCode).toBe(413);
  });

  it('502 in the JSON shape when the upstream is unreachable, 504 when it is too slow', async () => {
    const down = await gateway.app.inject({ method: 'GET', url: '/api/webhooks?serverId=1' });
    expect(down.statusCode).toBe(502);
    expect(Object.keys(down.json()).sort()).toEqual(['error', 'message']);
    const slow = await gateway.app.inject({ method: 'GET', url: '/api/auth/slow' });
    expect(slow.statusCode).toBe(504);
    expect(slow.json().error).toMatch(/took too long/);
  });

  it('404 for paths no service owns', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('Not Found');
  });

  it('health reports each upstream', async () => {
    const all = await gateway.app.inject({ method: 'GET', url: '/api/health' });
    expect(all.statusCode).toBe(503);
    expect(all.json().services).toMatchObject({ logs: 'ok', auth: 'ok', webhooks: 'unreachable' });
    expect((await gateway.app.inject({ method: 'GET', url: '/api/logs/health' })).json()).toEqual({ status: 'ok', service: 'logs' });
    expect((await gateway.app.inject({ method: 'GET', url: '/api/webhooks/health' })).statusCode).toBe(503);
  });

  it('sets security headers and CORS only for allowed origins', async () => {
    const allowed = await gateway.app.inject({ method: 'GET', url: '/api/logs/my', headers: { origin: 'https://app.skald.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.skald.example');
    const evil = await gateway.app.inject({ method: 'GET', url: '/api/logs/my', headers: { origin: 'https://evil.example' } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await gateway.app.inject({
      method: 'OPTIONS',
      url: '/api/logs/my',
      headers: { origin: 'https://app.skald.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.skald.example');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Authorization/i);
    const evilPreflight = await gateway.app.inject({
      method: 'OPTIONS',
      url: '/api/logs/my',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(evilPreflight.headers['access-control-allow-origin']).toBeUndefined();
    const page = await gateway.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('npm run build:web');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});
