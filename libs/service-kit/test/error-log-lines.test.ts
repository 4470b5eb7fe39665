/**
 * Error lines carry the error itself: callers log the raw error under `err` and the logger's one
 * serializer (redaction.ts serializeError) turns it into { type, message, stack, ... } once. When the
 * error handler serialised it first, pino's serializer ran a second time over a plain object and every
 * line read `"err":{"type":"object","message":"[object Object]","stack":""}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createHttpApp, serializeError } from '../src/index.ts';

type Line = Record<string, unknown> & { readonly msg?: string; readonly reqId?: string };
type ErrorPart = { readonly type?: string; readonly message?: string; readonly stack?: string; readonly errorCode?: string; readonly cause?: ErrorPart };

const lines: Line[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
    callback();
  },
});

let app: FastifyInstance;

beforeAll(async () => {
  app = createHttpApp({ logLevel: 'info', logStream: capture });
  app.get('/boom', async () => {
    throw new Error('disk full while writing /var/data?token=SECRETabc', { cause: new Error('ENOSPC underneath') });
  });
  app.post('/named', { schema: { body: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } } }, async () => ({ ok: true }));
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

function errorLineOf(reqId: string, msg: string): ErrorPart {
  const line = lines.find((l) => l.reqId === reqId && l.msg === msg);
  expect(line, `a "${msg}" line for ${reqId}`).toBeDefined();
  return line!['err'] as ErrorPart;
}

describe('error log lines', () => {
  it('a 5xx line has the real type, message, stack and cause (secrets redacted)', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    const err = errorLineOf(response.headers['x-request-id'] as string, 'request failed');
    expect(err.type).toBe('Error');
    expect(err.message).toBe('disk full while writing /var/data?token=[REDACTED]');
    expect(err.stack).toMatch(/^Error: disk full/);
    expect(err.stack).toContain('error-log-lines.test.ts');
    expect(err.cause?.message).toBe('ENOSPC underneath');
    expect(JSON.stringify(lines)).not.toContain('SECRETabc');
    expect(JSON.stringify(lines)).not.toContain('[object Object]');
  });

  it('a refused request (bad JSON) logs the parser error with its code', async () => {
    const response = await app.inject({ method: 'POST', url: '/named', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(response.statusCode).toBe(400);
    const err = errorLineOf(response.headers['x-request-id'] as string, 'request refused');
    expect(err.errorCode).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
    expect(err.message).toMatch(/JSON/);
    expect(err.stack).toContain('Error');
  });

  it('a validation failure logs the validation error itself', async () => {
    const response = await app.inject({ method: 'POST', url: '/named', payload: { name: 7 } });
    expect(response.statusCode).toBe(400);
    const err = errorLineOf(response.headers['x-request-id'] as string, 'request validation failed');
    expect(err.message).toContain('must be string');
    expect(err.errorCode).toBe('FST_ERR_VALIDATION');
  });

  it('serializeError keeps whatever a thrown non-Error says, once', () => {
    expect(serializeError({ message: 'plain object thrown', code: 'E_PLAIN' })).toMatchObject({ type: 'Object', message: 'plain object thrown', errorCode: 'E_PLAIN' });
    expect(serializeError('a string?apiKey=SECRETabc')).toMatchObject({ type: 'string', message: 'a string?apiKey=[REDACTED]' });
  });
});
