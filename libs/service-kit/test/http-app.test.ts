import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createHttpApp, HttpError, redactUrl } from '../src/index.ts';

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  },
});

let app: FastifyInstance;

beforeAll(async () => {
  app = createHttpApp({ logLevel: 'debug', logStream: capture, bodyLimit: 1024 });
  app.post(
    '/register',
    {
      schema: {
        body: {
          type: 'object',
          required: ['username', 'password'],
          additionalProperties: false,
          properties: { username: { type: 'string', minLength: 3 }, password: { type: 'string' } },
        },
      },
    },
    async (request) => {
      request.log.info({ body: request.body }, 'registering');
      return { ok: true };
    },
  );
  app.get('/taken', async () => {
    throw new HttpError(409, 'That server name is already taken.');
  });
  app.get('/busy', async () => {
    throw new HttpError(503, 'the queue at db-7.internal is full', { headers: { 'retry-after': '5' }, extra: { retryAfter: 5 } });
  });
  app.get('/limited', async () => {
    throw new HttpError(429, 'Log limit reached', { headers: { 'retry-after': '60' }, extra: { usage: { used: 3 } } });
  });
  app.get('/boom', async () => {
    throw new Error('database password=hunter2 exploded');
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('createHttpApp error shape', () => {
  it('4xx messages pass through as { error, message }', async () => {
    const response = await app.inject({ method: 'GET', url: '/taken' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'That server name is already taken.', message: 'That server name is already taken.' });
  });

  it('5xx are masked and the detail stays in the log', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal Server Error', message: 'Internal Server Error' });
    expect(response.body).not.toContain('hunter2');
  });

  it('extra fields sit beside error and message; headers are kept, also on a masked 5xx', async () => {
    const limited = await app.inject({ method: 'GET', url: '/limited' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json()).toEqual({ usage: { used: 3 }, error: 'Log limit reached', message: 'Log limit reached' });
    const busy = await app.inject({ method: 'GET', url: '/busy' });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    // The text is masked (it may name internals); the declared extra fields are for clients and stay.
    expect(busy.json()).toEqual({ retryAfter: 5, error: 'Service Unavailable', message: 'Service Unavailable' });
  });

  it('validation errors answer 400 naming the field', async () => {
    const short = await app.inject({ method: 'POST', url: '/register', payload: { username: 'ab', password: 'x' } });
    expect(short.statusCode).toBe(400);
    // The sentence a person reads, in both fields (the register screen shows `message`, docs/spec/part-1.txt section 8).
    expect(short.json()).toEqual({ error: 'Username must be at least 3 characters.', message: 'Username must be at least 3 characters.' });
    const missing = await app.inject({ method: 'POST', url: '/register', payload: { username: 'abc' } });
    expect(missing.json().error).toBe('Please enter your password.');
  });

  it('413 for a body over the limit, 404 in the same shape', async () => {
    const big = await app.inject({ method: 'POST', url: '/register', payload: { username: 'x'.repeat(2000), password: 'p' } });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('Request body is too large');
    const missing = await app.inject({ method: 'GET', url: '/nowhere?apiKey=SECRETKEY123' });
    expect(missing.statusCode).toBe(404);
    expect(Object.keys(missing.json()).sort()).toEqual(['error', 'message']);
  });
});

describe('request ids', () => {
  it('generates one and echoes it', async () => {
    const response = await app.inject({ method: 'GET', url: '/taken' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts a well-formed incoming id and replaces a malformed one', async () => {
    const kept = await app.inject({ method: 'GET', url: '/taken', headers: { 'x-request-id': 'gw-1234abcd' } });
    expect(kept.headers['x-request-id']).toBe('gw-1234abcd');
    const replaced = await app.inject({ method: 'GET', url: '/taken', headers: { 'x-request-id': 'bad id\n{"level":60}' } });
    // A fresh UUID replaces it (not a substring check: hex UUIDs can contain "bad").
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('log redaction', () => {
  it('no secret from the URL, headers or body reaches a log line', async () => {
    lines.length = 0;
    await app.inject({
      method: 'POST',
      url: '/register?apiKey=SECRETKEY123&x=1',
      headers: { authorization: 'Bearer SECRETKEY123', 'x-api-key': 'SECRETKEY123', cookie: 'sid=SECRETKEY123' },
      payload: { username: 'alice', password: 'SECRETKEY123' },
    });
    await app.inject({ method: 'GET', url: '/nowhere/else?token=SECRETKEY123' });
    await app.inject({ method: 'GET', url: '/boom?apiKey=SECRETKEY123' });
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.join('\n')).toContain('apiKey=[REDACTED]');
    expect(lines.join('\n')).toContain('"password":"[REDACTED]"');
    for (const line of lines) expect(line).not.toContain('SECRETKEY123');
  });

  it('redactUrl replaces every secret query value', () => {
    expect(redactUrl('/logs?apiKey=abc&level=info&token=t&API_KEY=z')).toBe('/logs?apiKey=[REDACTED]&level=info&token=[REDACTED]&API_KEY=[REDACTED]');
    expect(redactUrl('/logs?level=info')).toBe('/logs?level=info');
  });
});
