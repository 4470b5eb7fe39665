import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createHttpApp, loadOrCreateKeys, shutdown, signAccessToken } from '../src/index.ts';

describe('loadOrCreateKeys', () => {
  it('generates 0600 key files once and reuses them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-keys-'));
    try {
      const first = loadOrCreateKeys(dir);
      const second = loadOrCreateKeys(dir);
      expect(second.keys.publicKeyPem).toBe(first.keys.publicKeyPem);
      expect(second.secretsKey).toBe(first.secretsKey);
      expect(Buffer.from(first.secretsKey, 'base64')).toHaveLength(32);
      for (const file of ['jwt-private.pem', 'jwt-public.pem', 'secrets.key']) {
        expect(statSync(join(dir, 'keys', file)).mode & 0o777).toBe(0o600);
      }
      expect(statSync(join(dir, 'keys')).mode & 0o777).toBe(0o700);
      expect(signAccessToken(first.keys, { sub: 'u', role: 'user', tv: 0 }, 60).split('.')).toHaveLength(3);
    } finally {
      // Private keys: never left behind in the shared temp folder.
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shutdown', () => {
  it('lets an in-flight request finish, then runs the steps in order', async () => {
    const app = createHttpApp({ logLevel: 'silent' });
    const order: string[] = [];
    // Shutdown starts only once the request is inside its handler: a fixed sleep raced a loaded machine.
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    app.get('/slow', async () => {
      arrived();
      await new Promise((resolve) => setTimeout(resolve, 300));
      order.push('request finished');
      return { ok: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.status);
    await requestArrived;
    const clean = await shutdown({
      app,
      timeoutMs: 5_000,
      log: pino({ level: 'silent' }),
      steps: [
        { name: 'modules', run: async () => void order.push('modules stopped') },
        { name: 'adapters', run: async () => void order.push('adapters closed') },
      ],
    });
    expect(await inFlight).toBe(200);
    expect(clean).toBe(true);
    expect(order).toEqual(['request finished', 'modules stopped', 'adapters closed']);
  });

  it('keeps going after a failing step and reports it', async () => {
    const order: string[] = [];
    const clean = await shutdown({
      timeoutMs: 1_000,
      log: pino({ level: 'silent' }),
      steps: [
        { name: 'bad', run: async () => Promise.reject(new Error('nope')) },
        { name: 'good', run: async () => void order.push('closed') },
      ],
    });
    expect(clean).toBe(false);
    expect(order).toEqual(['closed']);
  });
});
