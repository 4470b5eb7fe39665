/**
 * The proxy-only gateway's own log lines: an upstream failure is logged with the error itself (message,
 * code and stack from the logger's one serializer, not just a code), and no credential in a proxied URL
 * reaches a line, whether the upstream answered or not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@skald/config';
import { buildGateway } from '../src/gateway-only.ts';
import type { RunningProcess } from '../src/launcher-app.ts';

const SECRET = 'SECRETproxyVALUE';
const lines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    callback();
  },
});

let upstream: FastifyInstance;
let gateway: RunningProcess;

beforeAll(async () => {
  upstream = Fastify();
  upstream.get('/photologs/image/:id', async () => ({ ok: true }));
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
  const config = loadConfig({
    TARGET: 'gateway',
    SERVICE_URL_LOGS: base,
    SERVICE_URL_INGESTION: 'http://127.0.0.1:1',
    SERVICE_URL_AUTH: base,
    UPSTREAM_TIMEOUT_MS: '500',
    LOG_LEVEL: 'info',
  });
  gateway = await buildGateway(config, { webDist: '/nonexistent', logStream });
  await gateway.start();
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('proxy-only gateway logging', () => {
  it('logs an upstream failure with its message, code and stack', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: `/api/logs?apiKey=${SECRET}`, payload: { message: 'x' } });
    expect(response.statusCode).toBe(502);
    const line = lines.find((l) => l['reqId'] === response.headers['x-request-id'] && l['msg'] === 'upstream request failed');
    expect(line).toMatchObject({ upstream: 'ingestion' });
    const err = line!['err'] as { message: string; stack: string; errorCode?: string };
    expect(err.message).not.toBe('');
    expect(err.message).not.toBe('[object Object]');
    expect(err.errorCode).toBeDefined();
    expect(err.stack).toMatch(/\n\s+at /);
  });

  it('never logs a credential from a proxied URL', async () => {
    const image = await gateway.app.inject({ method: 'GET', url: `/api/photologs/image/abc?t=${SECRET}` });
    expect(image.statusCode).toBe(200);
    const me = await gateway.app.inject({ method: 'GET', url: `/api/auth/me?jwt=${SECRET}&token=${SECRET}` });
    expect(me.statusCode).toBe(404);
    await gateway.app.inject({ method: 'GET', url: `/api/nothing-here?key=${SECRET}` });
    const text = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(text).toContain('/api/photologs/image/abc?t=[REDACTED]');
    expect(text).not.toContain(SECRET);
  });
});
