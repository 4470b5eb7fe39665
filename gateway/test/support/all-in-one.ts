/**
 * The all-in-one process for tests that go through the whole stack (gateway, every service, embedded
 * adapters): every log line it writes captured, the process's key material (to sign tokens with a chosen
 * age), and helpers that sign up, create servers and send photo forms through the public routes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '@skald/config';
import { loadOrCreateKeys } from '@skald/service-kit';
import type { KeyMaterial } from '@skald/service-kit';
import { buildAllInOne } from '../../src/all-in-one.ts';
import type { RunningProcess } from '../../src/launcher-app.ts';

export const TEST_PASSWORD = 'Vq7#mZ2!pL9x-Rt4wK';

/**
 * The tests' scrypt cost, through the configuration as every test server gets it (INSECURE_TEST_PASSWORD_HASHING,
 * allowed with NODE_ENV=test only: docs/DECISIONS.md, "Sessions"); spread into loadConfig's input. At the
 * production cost each sign-up, login and the dummy hash at start take about half a second of CPU, most of what
 * a test of a few accounts spends; no test through the all-in-one reads the cost a hash was made at.
 */
export const FAST_PASSWORDS_ENV = { NODE_ENV: 'test', INSECURE_TEST_PASSWORD_HASHING: 'true' } as const;

export interface SignedUp {
  readonly token: string;
  readonly userId: string;
  readonly username: string;
}

export interface AllInOne {
  readonly running: RunningProcess;
  /** Every log line written so far, raw JSON text in order. */
  readonly lines: string[];
  readonly keys: KeyMaterial;
  inject(request: InjectOptions): Promise<LightMyRequestResponse>;
  signUp(username: string): Promise<SignedUp>;
  createServer(token: string, name: string): Promise<{ id: string; api_key: string }>;
  close(): Promise<void>;
}

export interface AllInOneOptions {
  /** Default 'info'. */
  readonly logLevel?: string;
  /** Serve a tiny web build so the SPA fallback answers browser routes. Default false. */
  readonly withWebApp?: boolean;
  /** Routes to add to the app before it starts (test-only routes outside the services). */
  readonly extraRoutes?: (running: RunningProcess) => void;
  /** More configuration variables (e.g. STRIPE_*). */
  readonly env?: Readonly<Record<string, string>>;
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** The claims of a token we signed (no verification: tests read their own tokens). */
export function claimsOf(token: string): { sub: string; role: string; tv: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; role: string; tv: number };
}

export async function startAllInOne(options: AllInOneOptions = {}): Promise<AllInOne> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-aio-test-'));
  const web = join(dir, 'web');
  if (options.withWebApp) {
    mkdirSync(web, { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root">skald-app</div>');
  }
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const config = loadConfig({ ...FAST_PASSWORDS_ENV, ...options.env, DATA_DIR: join(dir, 'data'), LOG_LEVEL: options.logLevel ?? 'info' });
  const running = await buildAllInOne(config, { logStream, webDist: web });
  options.extraRoutes?.(running);
  await running.start();
  // The all-in-one generated its key pair under DATA_DIR/keys; loading it again gives the same keys.
  const { keys } = loadOrCreateKeys(config.dataDir, { issuer: config.jwt.issuer, audience: config.jwt.audience });
  const inject = (request: InjectOptions) => running.app.inject(request);

  return {
    running,
    lines,
    keys,
    inject,
    async signUp(username) {
      const registered = await inject({ method: 'POST', url: '/api/auth/register', payload: { username, email: `${username}@example.test`, password: TEST_PASSWORD } });
      if (registered.statusCode !== 201) throw new Error(`register ${username}: ${registered.statusCode} ${registered.body}`);
      const login = await inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: TEST_PASSWORD } });
      const token = (login.json() as { token?: string }).token;
      if (login.statusCode !== 200 || !token) throw new Error(`login ${username}: ${login.statusCode} ${login.body}`);
      return { token, userId: claimsOf(token).sub, username };
    },
    async createServer(token, name) {
      const created = await inject({ method: 'POST', url: '/api/server/servers', headers: bearer(token), payload: { name } });
      if (created.statusCode !== 201) throw new Error(`create server ${name}: ${created.statusCode} ${created.body}`);
      return created.json() as { id: string; api_key: string };
    },
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body for inject(). */
export function multipartForm(parts: readonly ({ name: string; value: string } | { name: string; filename: string; type: string; data: Buffer })[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----skaldtest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`), part.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
