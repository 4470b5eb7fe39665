import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import Type from 'typebox';
import type { ServerRole } from '@skald/contracts';
import { authPlugin, createHttpApp, guard, isGuard, moveGuardsBeforeValidation, requireServerRole, requireSiteRole, sendError, serverAccessOf, signAccessToken } from '../src/index.ts';
import type { KeyMaterial, ServerRoleSource } from '../src/index.ts';

const pair = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const keys: KeyMaterial = { publicKeyPem: pair.publicKey, privateKeyPem: pair.privateKey, issuer: 'skald', audience: 'skald-api' };

/** Server s1: owner-1 owns it, member-1 is a plain user; stranger-1 is a member of nothing. */
const memberships: ServerRoleSource = {
  async roleOf(userId, serverId) {
    const roles: Record<string, ServerRole> = { 'owner-1': 'owner', 'member-1': 'user' };
    return serverId === 's1' ? (roles[userId] ?? null) : null;
  },
};

const auth = (sub: string, role: 'user' | 'admin' = 'user') => ({ authorization: `Bearer ${signAccessToken(keys, { sub, role, tv: 0 }, 600)}` });

/** The order in which the hooks of /ordered ran, and what the guard saw of the body. */
const ran: string[] = [];
let bodySeenByGuard: unknown;

const recordingGuard = guard(async (request: FastifyRequest) => {
  ran.push('guard');
  bodySeenByGuard = request.body;
  return undefined;
});

let app: FastifyInstance;

beforeAll(async () => {
  app = createHttpApp({ logLevel: 'silent' });
  await app.register(async (scope) => {
    await scope.register(authPlugin, { keys, isRevoked: () => false });
    const body = Type.Object({ serverId: Type.String(), name: Type.String({ minLength: 1 }) }, { additionalProperties: false });
    scope.post('/rename', { preHandler: [scope.authenticate, requireServerRole(memberships, 'admin')], schema: { body } }, async (request) => ({ serverId: serverAccessOf(request).serverId }));
    scope.get(
      '/count',
      { preHandler: [scope.authenticate, requireServerRole(memberships, 'user')], schema: { querystring: Type.Object({ serverId: Type.String(), page: Type.Integer({ minimum: 1 }) }) } },
      async (request) => ({ page: (request.query as { page: unknown }).page }),
    );
    scope.put(
      '/staff/:id',
      { preHandler: [scope.authenticate, requireSiteRole('admin')], schema: { params: Type.Object({ id: Type.String({ maxLength: 3 }) }), body: Type.Object({ on: Type.Boolean() }) } },
      async () => ({ ok: true }),
    );
    scope.post(
      '/ordered',
      {
        preValidation: async () => {
          ran.push('route preValidation');
        },
        preHandler: [scope.authenticate, recordingGuard],
        schema: { body: Type.Object({ n: Type.Integer() }) },
      },
      async () => {
        ran.push('handler');
        return {};
      },
    );
    // A route without guards keeps its preHandler where it was: after validation, which coerced the query.
    scope.get(
      '/plain',
      {
        preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
          if (typeof (request.query as { n: unknown }).n !== 'number') return sendError(reply, 500, 'not validated yet');
          return undefined;
        },
        schema: { querystring: Type.Object({ n: Type.Integer() }) },
      },
      async () => ({ ok: true }),
    );
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('guards run before validation (one rule of createHttpApp)', () => {
  it('without a token: 401, with no body, an empty one or a wrong one', async () => {
    for (const payload of [undefined, {}, { serverId: 42 }, { serverId: 's1', name: '', extra: true }]) {
      const response = await app.inject({ method: 'POST', url: '/rename', ...(payload ? { payload } : {}) });
      expect(response.statusCode, JSON.stringify(payload)).toBe(401);
    }
    expect((await app.inject({ method: 'GET', url: '/count' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'PUT', url: '/staff/far-too-long' })).statusCode).toBe(401);
  });

  it("another tenant's member: 404 for the server named in the body, whatever else the body lacks", async () => {
    for (const payload of [{ serverId: 's1' }, { serverId: 's1', name: 7 }]) {
      const response = await app.inject({ method: 'POST', url: '/rename', headers: auth('stranger-1'), payload });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Server not found.', message: 'Server not found.' });
    }
    expect((await app.inject({ method: 'GET', url: '/count?serverId=s1&page=zero', headers: auth('stranger-1') })).statusCode).toBe(404);
  });

  it('a server id that is missing or not text names no server: 404 for a signed-in caller, before the schema', async () => {
    for (const payload of [undefined, {}, { serverId: 42, name: 'x' }, { serverId: ['s1'], name: 'x' }, { serverId: '', name: 'x' }]) {
      const response = await app.inject({ method: 'POST', url: '/rename', headers: auth('owner-1'), ...(payload ? { payload } : {}) });
      expect(response.statusCode, JSON.stringify(payload)).toBe(404);
    }
    // A repeated query parameter is a list, not a server id.
    expect((await app.inject({ method: 'GET', url: '/count?serverId=s1&serverId=s1&page=1', headers: auth('owner-1') })).statusCode).toBe(404);
  });

  it('below the role: 403 before the schema; a non-staff caller on a staff route: 403 before the params are checked', async () => {
    expect((await app.inject({ method: 'POST', url: '/rename', headers: auth('member-1'), payload: {} })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/rename', headers: auth('member-1'), payload: { serverId: 's1' } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: '/staff/far-too-long', headers: auth('member-1') })).statusCode).toBe(403);
  });

  it('a caller who passes gets the schema: 400 for the shape, then the handler with the validated request', async () => {
    const missing = await app.inject({ method: 'POST', url: '/rename', headers: auth('owner-1'), payload: { serverId: 's1' } });
    expect(missing.statusCode).toBe(400);
    const unknown = await app.inject({ method: 'POST', url: '/rename', headers: auth('owner-1'), payload: { serverId: 's1', name: 'x', extra: 1 } });
    expect(unknown.statusCode).toBe(400);
    const renamed = await app.inject({ method: 'POST', url: '/rename', headers: auth('owner-1'), payload: { serverId: 's1', name: 'x' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ serverId: 's1' });
    // The query was coerced by validation after the guard read its server id as text.
    const counted = await app.inject({ method: 'GET', url: '/count?serverId=s1&page=2', headers: auth('member-1') });
    expect(counted.json()).toEqual({ page: 2 });
    expect((await app.inject({ method: 'PUT', url: '/staff/far-too-long', headers: auth('staff-1', 'admin'), payload: { on: true } })).statusCode).toBe(400);
    expect((await app.inject({ method: 'PUT', url: '/staff/abc', headers: auth('staff-1', 'admin'), payload: { on: true } })).statusCode).toBe(200);
  });

  it("guards run first, before the route's own preValidation hooks, and see the parsed body as sent", async () => {
    ran.length = 0;
    const refused = await app.inject({ method: 'POST', url: '/ordered', headers: auth('owner-1'), payload: { n: 'one' } });
    expect(refused.statusCode).toBe(400);
    expect(ran).toEqual(['guard', 'route preValidation']);
    expect(bodySeenByGuard).toEqual({ n: 'one' });
    ran.length = 0;
    expect((await app.inject({ method: 'POST', url: '/ordered', headers: auth('owner-1'), payload: { n: 1 } })).statusCode).toBe(200);
    expect(ran).toEqual(['guard', 'route preValidation', 'handler']);
    ran.length = 0;
    expect((await app.inject({ method: 'POST', url: '/ordered', payload: { n: 'one' } })).statusCode).toBe(401);
    expect(ran).toEqual([]);
  });

  it('leaves the preHandler of a route without guards after validation', async () => {
    expect((await app.inject({ method: 'GET', url: '/plain?n=3' })).statusCode).toBe(200);
  });

  it('refuses at start-up a route whose preHandler mixes a guard with a hook not marked guard()', async () => {
    const broken = createHttpApp({ logLevel: 'silent' });
    const unmarked = async () => undefined;
    const failing = async () => {
      await broken.register(async (scope) => {
        await scope.register(authPlugin, { keys, isRevoked: () => false });
        scope.post('/mixed', { preHandler: [scope.authenticate, unmarked] }, async () => ({}));
      });
      await broken.ready();
    };
    await expect(failing()).rejects.toThrow(/POST \/mixed: a preHandler hook next to the route's guards is not marked guard\(\)/);
    await broken.close();
  });

  it('moves the guards of a route definition, keeping their order and the route preValidation after them', () => {
    const first = guard(async () => undefined);
    const second = guard(async () => undefined);
    const own = async () => undefined;
    const route = { method: 'GET', url: '/x', handler: async () => ({}), preHandler: [first, second], preValidation: own } as unknown as RouteOptions;
    moveGuardsBeforeValidation(route);
    expect(route.preValidation).toEqual([first, second, own]);
    expect(route.preHandler).toEqual([]);
    expect(isGuard(first)).toBe(true);
    expect(isGuard(own)).toBe(false);
  });
});
