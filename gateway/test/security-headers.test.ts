/**
 * Security headers computed once (helmet run at startup, not per request): every answer carries the
 * full set, except the public ingestion endpoints, whose JSON answers for game servers keep only the
 * transport/content ones (HSTS, nosniff, Referrer-Policy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { HELMET_OPTIONS, registerSecurity, securityHeaders } from '../src/security.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  await registerSecurity(app, ['https://ok.example']);
  app.post('/api/logs', async (_request, reply) => reply.code(201).send({ id: '1' }));
  app.get('/api/logs/my', async () => ({ logs: [] }));
  app.get('/', async (_request, reply) => reply.type('text/html').send('<!doctype html>'));
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe('security headers', () => {
  it('computes the helmet headers once, CSP included', () => {
    const names = securityHeaders(HELMET_OPTIONS).map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['content-security-policy', 'strict-transport-security', 'x-content-type-options', 'referrer-policy', 'x-frame-options']));
  });

  it('gives HTML and ordinary API answers the full set', async () => {
    for (const url of ['/', '/api/logs/my', '/nowhere']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('gives POST /api/logs only the transport and content headers', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/logs', payload: { message: 'x' } });
    expect(response.statusCode).toBe(201);
    expect(response.headers['strict-transport-security']).toBeDefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['content-security-policy']).toBeUndefined();
    expect(response.headers['x-frame-options']).toBeUndefined();
  });

  it('runs no CORS on POST /api/logs (game servers are no browsers), even for an allowed origin', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/logs', payload: { message: 'x' }, headers: { origin: 'https://ok.example' } });
    expect(response.statusCode).toBe(201);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['vary']).toBeUndefined();
  });

  it('still applies the CORS allow-list', async () => {
    const ok = await app.inject({ method: 'GET', url: '/api/logs/my', headers: { origin: 'https://ok.example' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://ok.example');
    const evil = await app.inject({ method: 'GET', url: '/api/logs/my', headers: { origin: 'https://evil.example' } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });
});
