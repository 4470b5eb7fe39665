/**
 * Request logging of createHttpApp: one "request completed" line per request (redacted URL, status,
 * response time) instead of Fastify's two, and per-request loggers that honour levels (route logLevel,
 * app level) whether or not their pino child has been created yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { createHttpApp } from '../src/index.ts';
import { accessLine } from '../src/access-log.ts';
import { serializeRequest } from '../src/redaction.ts';

const lines: Record<string, unknown>[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    callback();
  },
});

let app: FastifyInstance;

beforeAll(async () => {
  app = createHttpApp({ logLevel: 'info', logStream: capture });
  app.get('/quiet', async (request) => {
    request.log.debug('debug line never written at info');
    return { ok: true };
  });
  app.get('/talk', async (request) => {
    request.log.info({ step: 1 }, 'handler line');
    return { ok: true };
  });
  app.get('/health-like', { logLevel: 'warn' }, async (request) => {
    request.log.info('suppressed by the route level');
    return { ok: true };
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('request logging', () => {
  it('writes exactly one completion line per request, with the redacted URL, status and time', async () => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url: '/quiet?apiKey=SECRET1234&x=1' });
    expect(response.statusCode).toBe(200);
    expect(lines.map((l) => l['msg'])).toEqual(['request completed']);
    const [line] = lines;
    expect(line!['reqId']).toBe(response.headers['x-request-id']);
    expect(line!['req']).toMatchObject({ method: 'GET', url: '/quiet?apiKey=[REDACTED]&x=1' });
    expect(line!['res']).toEqual({ statusCode: 200 });
    expect(typeof line!['responseTime']).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('SECRET1234');
  });

  it('writes the completion line without redaction but with nothing to redact: no headers, the URL redacted', async () => {
    lines.length = 0;
    await app.inject({
      method: 'GET',
      url: '/quiet?token=TOKEN5678&password=PASS9999',
      headers: { authorization: 'Bearer BEARER4321', 'x-api-key': 'KEY8765', cookie: 'sid=COOKIE1111' },
    });
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]!).sort()).toEqual(['hostname', 'level', 'msg', 'pid', 'req', 'reqId', 'res', 'responseTime', 'time']);
    expect(Object.keys(lines[0]!['req'] as object).sort()).toEqual(['method', 'remoteAddress', 'url']);
    for (const secret of ['TOKEN5678', 'PASS9999', 'BEARER4321', 'KEY8765', 'COOKIE1111']) expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('binds the request id to lines the handler writes', async () => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url: '/talk' });
    const handlerLine = lines.find((l) => l['msg'] === 'handler line');
    expect(handlerLine).toMatchObject({ reqId: response.headers['x-request-id'], step: 1, level: 30 });
  });

  it('honours a route log level: nothing below warn, not even the completion line', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/health-like' });
    expect(lines).toEqual([]);
  });

  it('assembles the completion line byte for byte as pino writes it, odd characters in the URL included', async () => {
    let captured: FastifyRequest | undefined;
    const probe = createHttpApp({ logLevel: 'silent' });
    probe.get('/*', async (request) => {
      captured = request;
      return {};
    });
    await probe.inject({ method: 'GET', url: '/a%22b/\u00e9?q="x"&token=T0K3N', headers: { 'x-request-id': 'req-0123456789' } });
    await probe.close();
    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.toString('utf8');
        callback();
      },
    });
    pino({ level: 'info', timestamp: () => ',"time":1700000000123' }, sink).info(
      { reqId: captured!.id, req: serializeRequest(captured!), res: { statusCode: 418 }, responseTime: 1.25 },
      'request completed',
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(accessLine(1700000000123, captured!, 418, 1.25)).toBe(written);
    expect(written).not.toContain('T0K3N');
  });

  it('follows a later change of the app level', async () => {
    app.log.level = 'debug';
    try {
      lines.length = 0;
      await app.inject({ method: 'GET', url: '/quiet' });
      expect(lines.map((l) => l['msg'])).toEqual(['debug line never written at info', 'request completed']);
    } finally {
      app.log.level = 'info';
    }
  });
});
