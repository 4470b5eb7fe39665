/**
 * The request rules createHttpApp gives every route:
 *  - bodies are typed JSON: no coercion ({"name":["x"]}, 42, "true" are refused, not converted) and no
 *    unknown field, each a 400 naming the field, before the handler runs;
 *  - query strings keep their text-to-number coercion (?page=2) but refuse unknown parameters too;
 *  - a JSON body that is not valid UTF-8 is a 400 (it was decoded to U+FFFD and accepted);
 *  - an answer whose schema carries a secret field is sent with Cache-Control: no-store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHttpApp, schemaCarriesSecret } from '../src/index.ts';

let app: FastifyInstance;
const handled: unknown[] = [];

const Body = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 64 },
    count: { type: 'integer' },
    enabled: { type: 'boolean' },
    settings: { type: 'object', additionalProperties: false, properties: { colour: { type: 'string' } } },
  },
} as const;

const TokenAnswer = { type: 'object', properties: { token: { type: 'string' } } } as const;

beforeAll(async () => {
  app = createHttpApp({ logLevel: 'silent' });
  app.post('/things', { schema: { body: Body } }, async (request) => {
    handled.push(request.body);
    return { stored: request.body };
  });
  app.get(
    '/page',
    { schema: { querystring: { type: 'object', additionalProperties: false, properties: { page: { type: 'integer' }, q: { type: 'string' } } } } },
    async (request) => ({ query: request.query }),
  );
  app.post('/session', { schema: { response: { 200: TokenAnswer } } }, async () => ({ token: 'tok' }));
  app.post(
    '/guarded-session',
    {
      onRequest: async (_request, reply) => {
        await reply.code(401).send({ error: 'no', message: 'no' });
      },
      schema: {
        response: {
          200: { anyOf: [TokenAnswer, { type: 'object', properties: { pre_token: { type: 'string' } } }] },
          401: { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
    async () => ({ token: 'tok' }),
  );
  app.get('/plain', { schema: { response: { 200: { type: 'object', properties: { name: { type: 'string' } } } } } }, async () => ({ name: 'x' }));
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

async function post(payload: unknown) {
  return app.inject({ method: 'POST', url: '/things', payload: payload as Record<string, unknown> });
}

describe('typed bodies', () => {
  it('refuses a wrong type with a 400 naming the field instead of coercing it', async () => {
    const before = handled.length;
    const cases: [unknown, string][] = [
      [{ name: ['Coerced'] }, 'Server name must be text.'],
      [{ name: 42 }, 'Server name must be text.'],
      [{ name: true }, 'Server name must be text.'],
      [{ name: 'ok', count: '5' }, 'Count must be a whole number.'],
      [{ name: 'ok', enabled: 'true' }, 'Enabled must be true or false.'],
      [{ name: 'ok', settings: { colour: 7 } }, 'Colour must be text.'],
    ];
    for (const [payload, error] of cases) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error).toBe(error);
    }
    expect(handled.length).toBe(before);
  });

  it('refuses unknown fields, nested ones included, with a 400 naming them', async () => {
    const before = handled.length;
    const top = await post({ name: 'ok', role: 'admin' });
    expect(top.statusCode).toBe(400);
    expect(top.json().error).toBe('Unknown field: role.');
    const nested = await post({ name: 'ok', settings: { colour: 'red', owner: 'me' } });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().error).toBe('Unknown field: settings.owner.');
    expect(handled.length).toBe(before);
  });

  it('accepts a well-typed body as sent', async () => {
    const response = await post({ name: 'ok', count: 3, enabled: false, settings: { colour: 'red' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().stored).toEqual({ name: 'ok', count: 3, enabled: false, settings: { colour: 'red' } });
  });
});

describe('query strings', () => {
  it('still read numbers from text', async () => {
    const response = await app.inject({ method: 'GET', url: '/page?page=2&q=x' });
    expect(response.statusCode).toBe(200);
    expect(response.json().query).toEqual({ page: 2, q: 'x' });
  });

  it('refuse unknown parameters and non-numbers by name', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/page?page=2&jwt=abc' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('Unknown field: jwt.');
    const text = await app.inject({ method: 'GET', url: '/page?page=two' });
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toBe('Page must be a whole number.');
  });
});

describe('UTF-8 JSON bodies', () => {
  it('refuses invalid UTF-8 with a 400 and never stores a replacement character', async () => {
    const before = handled.length;
    // {"name":"<0xff 0xfe>"}: two bytes that are not UTF-8.
    const payload = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Request body is not valid UTF-8', message: 'Request body is not valid UTF-8' });
    // A truncated multi-byte sequence (the first byte of é) too.
    const truncated = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xc3]), Buffer.from('"}')]);
    expect((await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: truncated })).statusCode).toBe(400);
    expect(handled.length).toBe(before);
  });

  it('keeps valid multi-byte text as sent, and still refuses broken JSON and prototype poisoning', async () => {
    const response = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: Buffer.from('{"name":"café ✓ 🎮"}') });
    expect(response.statusCode).toBe(200);
    expect(response.json().stored).toEqual({ name: 'café ✓ 🎮' });
    const broken = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(broken.json().error).toBe('Request body is not valid JSON');
    const poisoned = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{"name":"x","__proto__":{"admin":true}}' });
    expect(poisoned.statusCode).toBe(400);
  });
});

describe('answers carrying a secret', () => {
  it('are sent with Cache-Control: no-store, refusals of the route included', async () => {
    const session = await app.inject({ method: 'POST', url: '/session' });
    expect(session.headers['cache-control']).toBe('no-store');
    const refused = await app.inject({ method: 'POST', url: '/guarded-session' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const plain = await app.inject({ method: 'GET', url: '/plain' });
    expect(plain.headers['cache-control']).toBeUndefined();
  });

  it('are recognised in unions, arrays and content maps', () => {
    expect(schemaCarriesSecret({ anyOf: [{ type: 'object', properties: { pre_token: {} } }] })).toBe(true);
    expect(schemaCarriesSecret({ type: 'array', items: { properties: { api_key: {} } } })).toBe(true);
    expect(schemaCarriesSecret({ content: { 'application/json': { schema: { properties: { secret: {} } } } } })).toBe(true);
    expect(schemaCarriesSecret({ properties: { name: {}, tokens: {} } })).toBe(false);
  });
});
