import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import type { ServiceModule } from '@skald/service-kit';
import { assertRouteOwned, bodyLimitFor, LOG_BATCH_BODY_LIMIT, PHOTO_BODY_LIMIT, serviceFor } from '../src/route-table.ts';
import { mountService } from '../src/mount-service.ts';

describe('route table', () => {
  it.each([
    ['POST', '/logs', 'ingestion'],
    ['POST', '/photologs', 'ingestion'],
    ['GET', '/logs/my', 'logs'],
    ['GET', '/logs/my/combined?serverId=1', 'logs'],
    ['GET', '/logs/stats', 'logs'],
    ['DELETE', '/logs/cleanup', 'logs'],
    ['GET', '/photologs/my', 'logs'],
    ['GET', '/photologs/image/abc', 'logs'],
    ['GET', '/server/usage/srv1', 'logs'],
    ['PUT', '/settings/colors', 'logs'],
    ['GET', '/settings/levels', 'logs'],
    ['GET', '/auth/me', 'auth'],
    ['POST', '/auth/login', 'auth'],
    ['PATCH', '/user/password', 'auth'],
    ['GET', '/2fa/setup', 'auth'],
    ['POST', '/server/servers', 'auth'],
    ['PATCH', '/settings/server-name', 'auth'],
    ['POST', '/settings/api-key/reset?serverId=1', 'auth'],
    ['GET', '/manage/server/1/users', 'auth'],
    ['POST', '/webhooks/w1/replay/d1', 'webhooks'],
    ['GET', '/backups/s1/download/b1', 'backups'],
    ['GET', '/tiers/current-tier/s1', 'billing'],
    ['POST', '/billing/create-checkout-session', 'billing'],
    ['GET', '/admin/servers/1/logs', 'logs'],
    ['GET', '/admin/servers/1/photologs', 'logs'],
    ['GET', '/admin/servers/1/users', 'admin'],
    ['POST', '/admin/servers/1/users', 'auth'],
    ['DELETE', '/admin/servers/1/users/u1', 'auth'],
    ['PUT', '/admin/users/u1/role', 'auth'],
    ['PUT', '/admin/users/u1/active', 'auth'],
    ['GET', '/admin/users', 'admin'],
    ['PUT', '/admin/servers/1/tier', 'billing'],
    ['PUT', '/admin/servers/1/suspend', 'billing'],
    ['GET', '/admin/servers/1/tier', 'admin'],
    ['PUT', '/admin/servers/1/tier/extra', 'admin'],
    ['PUT', '/admin/servers/1/users/u1', 'auth'],
    ['GET', '/server/srv1/audit-logs', 'admin'],
    ['GET', '/exports/logs/pdf', 'logs'],
    ['GET', '/exports/auditlogs', 'logs'],
    ['GET', '/exports/custom', 'logs'],
    ['GET', '/exports/status', 'logs'],
    ['GET', '/admin/logs', 'admin'],
    ['HEAD', '/logs/my', 'logs'],
  ])('%s %s -> %s', (method, path, service) => {
    expect(serviceFor(method, path)).toBe(service);
  });

  it('is segment-aware and refuses unknown paths', () => {
    expect(serviceFor('GET', '/logsfoo')).toBeNull();
    expect(serviceFor('GET', '/server/usage-x')).toBeNull();
    expect(serviceFor('GET', '/server')).toBeNull();
    expect(serviceFor('GET', '/settings/other')).toBeNull();
    expect(serviceFor('POST', '/logs/extra')).toBe('logs');
  });

  it('gives the ingestion routes their larger body limits only', () => {
    expect(bodyLimitFor('POST', '/logs', 1024)).toBe(LOG_BATCH_BODY_LIMIT);
    expect(bodyLimitFor('POST', '/photologs', 1024)).toBe(PHOTO_BODY_LIMIT);
    expect(bodyLimitFor('PUT', '/settings/colors', 1024)).toBe(1024);
  });

  it('assertRouteOwned throws on drift with a message naming both sides', () => {
    expect(() => assertRouteOwned('logs', ['GET'], '/logs/my')).not.toThrow();
    expect(() => assertRouteOwned('logs', ['GET'], '/webhooks')).toThrow(/service "logs" registered GET \/webhooks.*"webhooks"/);
    expect(() => assertRouteOwned('auth', ['POST'], '/nothing')).toThrow(/no service/);
  });
});

function fakeModule(name: ServiceModule['name'], register: ServiceModule['routes']): ServiceModule {
  return { name, routes: register, start: async () => undefined, stop: async () => undefined, ready: async () => true };
}

describe('mountService', () => {
  it('refuses to start when a service registers a route outside its table entries', async () => {
    const app = Fastify();
    await expect(
      mountService(app, fakeModule('logs', async (scope) => void scope.get('/auth/me', async () => ({}))), { prefix: '/api', defaultBodyLimit: 1024 }),
    ).rejects.toThrow(/Route table drift/);
    await app.close();
  });

  it('mounts owned routes under the prefix and applies table body limits', async () => {
    const app = Fastify();
    await mountService(
      app,
      fakeModule('ingestion', async (scope) => {
        scope.post('/logs', async (request) => ({ size: JSON.stringify(request.body).length }));
      }),
      { prefix: '/api', defaultBodyLimit: 1024 },
    );
    const body = JSON.stringify(Array.from({ length: 100 }, () => ({ message: 'x'.repeat(100) })));
    const response = await app.inject({ method: 'POST', url: '/api/logs', payload: body, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(200);
    await app.close();
  });
});
