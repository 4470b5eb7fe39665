/**
 * GET /api/public-config: the support address the public pages show, from SUPPORT_EMAIL,
 * served by the gateway itself in both modes (the proxy-only gateway answers it, never an upstream).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@skald/config';
import { buildAllInOne } from '../src/all-in-one.ts';
import { buildGateway } from '../src/gateway-only.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { FAST_PASSWORDS_ENV } from './support/all-in-one.ts';

const opened: RunningProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const running of opened.splice(0)) await running.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function proxyGateway(env: Record<string, string>): Promise<RunningProcess> {
  // No upstream listens here: an answer proves the gateway served the path itself.
  const running = await buildGateway(loadConfig({ TARGET: 'gateway', SERVICE_URL_AUTH: 'http://127.0.0.1:9', LOG_LEVEL: 'silent', ...env }), { webDist: '/nonexistent' });
  opened.push(running);
  return running;
}

describe('GET /api/public-config', () => {
  it('answers SUPPORT_EMAIL in the proxy-only gateway, without a token, cacheable for a while', async () => {
    const gateway = await proxyGateway({ SUPPORT_EMAIL: 'help@skald.example' });
    const res = await gateway.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ supportEmail: 'help@skald.example' });
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers null when SUPPORT_EMAIL is not set', async () => {
    const gateway = await proxyGateway({});
    expect((await gateway.app.inject({ method: 'GET', url: '/api/public-config' })).json()).toEqual({ supportEmail: null });
  });

  it('is served by the all-in-one process too, and left out of its OpenAPI document like the other gateway routes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-public-config-'));
    dirs.push(dir);
    const running = await buildAllInOne(loadConfig({ ...FAST_PASSWORDS_ENV, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', SUPPORT_EMAIL: 'support@skald.test' }), { webDist: '/nonexistent' });
    opened.push(running);
    await running.start();
    expect((await running.app.inject({ method: 'GET', url: '/api/public-config' })).json()).toEqual({ supportEmail: 'support@skald.test' });
    const openapi = (await running.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(openapi.paths)).not.toContain('/api/public-config');
  });

  it('refuses a SUPPORT_EMAIL that is not an e-mail address at start-up, naming the variable', () => {
    expect(() => loadConfig({ TARGET: 'gateway', SUPPORT_EMAIL: 'not an address' })).toThrow(/SUPPORT_EMAIL/);
  });
});
