/**
 * No secret reaches a log line: the all-in-one app with a captured log stream receives requests
 * carrying SECRET values in ?apiKey=, Authorization, X-API-Key, Cookie and password fields, on a
 * 2xx route, a 401, a 404, a 413 and a 500, and none of the captured lines contains SECRET.
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '@skald/config';
import { buildAllInOne } from '@skald/gateway';
import type { RunningProcess } from '@skald/gateway';
import type { InjectOptions } from 'fastify';

const SECRET = 'SECRETs3cr3tVALUE';
const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  },
});

let dataDir: string;
let running: RunningProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'skald-redaction-'));
  running = await buildAllInOne(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'trace' }), { logStream: stream, webDist: join(dataDir, 'no-web') });
  // Test-only routes outside /api's service scopes: a 200 that logs its body, and a 500.
  running.app.post('/test/echo', async (request) => {
    request.log.info({ body: request.body, headers: request.headers }, 'echo');
    return { ok: true };
  });
  running.app.get('/test/boom', async () => {
    throw new Error(`failure while handling apiKey=${SECRET}`);
  });
  await running.start();
});

afterAll(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('log redaction (all-in-one)', () => {
  it('never logs a secret from URLs, headers or bodies', async () => {
    const app = running.app;
    const secretHeaders = { authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET, cookie: `session=${SECRET}` };
    const statuses: number[] = [];
    const send = async (options: InjectOptions) => {
      const response = await app.inject(options);
      statuses.push(response.statusCode);
      return response;
    };
    // 200: a route that logs the body and headers it got.
    await send({ method: 'POST', url: `/test/echo?apiKey=${SECRET}`, headers: secretHeaders, payload: { password: SECRET, newPassword: SECRET, token: SECRET, code: SECRET } });
    // 2xx/4xx through a real service route with a password field.
    await send({ method: 'POST', url: `/api/auth/login?apiKey=${SECRET}`, headers: secretHeaders, payload: { username: 'nobody', password: SECRET } });
    // 401: the public ingestion API with a bad key in the query and headers.
    await send({ method: 'POST', url: `/api/logs?apiKey=${SECRET}`, headers: secretHeaders, payload: { message: 'hello' } });
    await send({ method: 'GET', url: '/api/auth/me', headers: secretHeaders });
    // 404 with the key in the query (Fastify's default 404 log line would print it).
    await send({ method: 'GET', url: `/api/does-not-exist?apiKey=${SECRET}`, headers: secretHeaders });
    // 413: a body over the limit that carries the password.
    await send({ method: 'POST', url: `/api/auth/login?apiKey=${SECRET}`, headers: { ...secretHeaders, 'content-type': 'application/json' }, payload: JSON.stringify({ password: SECRET, pad: 'x'.repeat(1_200_000) }) });
    // 500: a handler whose error message embeds the key.
    await send({ method: 'GET', url: `/test/boom?apiKey=${SECRET}`, headers: secretHeaders });

    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(401);
    expect(statuses).toContain(404);
    expect(statuses).toContain(413);
    expect(statuses).toContain(500);
    expect(lines.length).toBeGreaterThan(10);
    const text = lines.join('\n');
    expect(text).toContain('[REDACTED]');
    const leaking = lines.filter((line) => line.includes(SECRET));
    expect(leaking).toEqual([]);
  });
});
