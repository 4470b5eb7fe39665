/**
 * Compression: precompressed web assets, API answers above the threshold compressed when
 * the client asks, identity when it does not, never a photo; caching headers unchanged. Both modes: the
 * all-in-one with its real services, the proxy-only gateway in front of a stand-in upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { loadConfig } from '@skald/config';
import { buildAllInOne } from '../src/all-in-one.ts';
import { buildGateway } from '../src/gateway-only.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { FAST_PASSWORDS_ENV } from './support/all-in-one.ts';

const BOTH = { 'accept-encoding': 'br, gzip' };
const ASSET = `console.log(${JSON.stringify('skald '.repeat(2_000))});\n`;
const INDEX = `<!doctype html><div id="root">skald-app</div>${'<!-- padding -->'.repeat(100)}`;

function decoded(response: LightMyRequestResponse): string {
  const body = response.rawPayload;
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  if (encoding === undefined) return body.toString('utf8');
  throw new Error(`unexpected content-encoding ${String(encoding)}`);
}

/** A web build as `npm run build:web` leaves it: every text file beside its `.br` and `.gz`. */
function writeWebDist(dir: string): string {
  const web = join(dir, 'web');
  mkdirSync(join(web, 'assets'), { recursive: true });
  for (const [name, text] of [['index.html', INDEX], ['assets/app-123.js', ASSET]] as const) {
    writeFileSync(join(web, name), text);
    writeFileSync(join(web, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(web, `${name}.gz`), gzipSync(text));
  }
  return web;
}

describe('compression, all-in-one', () => {
  let dir: string;
  let running: RunningProcess;
  const inject = (options: InjectOptions): Promise<LightMyRequestResponse> => running.app.inject(options);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-compress-'));
    running = await buildAllInOne(loadConfig({ ...FAST_PASSWORDS_ENV, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' }), { webDist: writeWebDist(dir) });
    await running.start();
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a hashed asset precompressed (br, else gzip), identity when not asked, immutable either way', async () => {
    const br = await inject({ method: 'GET', url: '/assets/app-123.js', headers: BOTH });
    expect(br.headers['content-encoding']).toBe('br');
    expect(decoded(br)).toBe(ASSET);
    expect(br.rawPayload.length).toBeLessThan(ASSET.length / 10);
    const gzip = await inject({ method: 'GET', url: '/assets/app-123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(ASSET);
    const plain = await inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(ASSET);
    for (const response of [br, gzip, plain]) {
      expect(response.headers['content-type']).toContain('javascript');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['vary']).toContain('accept-encoding');
    }
  });

  it('serves index.html precompressed at / and for a deep link, never cached without revalidation', async () => {
    for (const url of ['/', '/dashboard']) {
      const response = await inject({ method: 'GET', url, headers: BOTH });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(decoded(response)).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('compresses a large API answer when asked, sends it as is when not, and leaves small answers alone', async () => {
    const asked = await inject({ method: 'GET', url: '/api/openapi.json', headers: BOTH });
    expect(asked.headers['content-encoding']).toBe('br');
    expect(asked.headers['vary']).toContain('accept-encoding');
    const plain = await inject({ method: 'GET', url: '/api/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(decoded(asked))).toEqual(plain.json());
    expect(asked.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gzipOnly = await inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    const small = await inject({ method: 'GET', url: '/api/health', headers: BOTH });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('leaves the ingestion answers (the hot path) uncompressed with their no-store, and never compresses a photo', async () => {
    const password = 'a-long-password-for-compress';
    await inject({ method: 'POST', url: '/api/auth/register', payload: { username: 'squeeze', password, email: 'squeeze@example.com' } });
    const token = (await inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'squeeze', password } })).json<{ token: string }>().token;
    const authorization = `Bearer ${token}`;
    const created = await inject({ method: 'POST', url: '/api/server/servers', headers: { authorization }, payload: { name: 'Squeeze' } });
    const { id: serverId, api_key: apiKey } = created.json<{ id: string; api_key: string }>();

    // A batch answers 500 ids: well above the threshold, yet sent as is.
    const batch = await inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': apiKey, ...BOTH }, payload: Array.from({ length: 500 }, (_, i) => ({ message: `m${i}` })) });
    expect(batch.statusCode).toBe(201);
    expect(batch.rawPayload.length).toBeGreaterThan(10_000);
    expect(batch.headers['content-encoding']).toBeUndefined();
    expect(batch.headers['cache-control']).toBe('no-store');
    expect(batch.json<{ ids: string[] }>().ids).toHaveLength(500);

    // Noise does not compress: a photo of well over the threshold whatever its format.
    const noise = randomBytes(96 * 96 * 3);
    const png = await sharp(noise, { raw: { width: 96, height: 96, channels: 3 } }).png().toBuffer();
    const boundary = '----skald-compress';
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="shot.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await inject({ method: 'POST', url: '/api/photologs', headers: { 'x-api-key': apiKey, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: form });
    expect(upload.statusCode).toBe(201);
    let imagePath: string | null = null;
    for (let i = 0; i < 100 && imagePath === null; i += 1) {
      const page = await inject({ method: 'GET', url: `/api/photologs/my?serverId=${serverId}`, headers: { authorization } });
      imagePath = page.json<{ photologs: { image_path: string | null }[] }>().photologs[0]?.image_path ?? null;
      if (imagePath === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(imagePath).not.toBeNull();
    const photo = await inject({ method: 'GET', url: imagePath!, headers: BOTH });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.rawPayload.length).toBeGreaterThan(4096);
    expect(photo.headers['content-encoding']).toBeUndefined();
  });
});

describe('compression, proxy-only gateway', () => {
  let upstream: FastifyInstance;
  let gateway: RunningProcess;
  const big = { logs: Array.from({ length: 300 }, (_, i) => ({ id: `log-${i}`, message: 'player joined the server' })) };
  const image = Buffer.alloc(50_000, 7);

  beforeAll(async () => {
    upstream = Fastify();
    upstream.get('/ready', async () => ({ status: 'ready' }));
    upstream.get('/logs/my', async () => big);
    upstream.get('/logs/stats', async () => ({ total: 1 }));
    upstream.get('/photologs/image/x', async (_request, reply) => reply.type('image/webp').send(image));
    upstream.post('/logs', async (_request, reply) => reply.code(201).send({ ids: big.logs.map((log) => log.id) }));
    await upstream.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
    gateway = await buildGateway(loadConfig({ TARGET: 'gateway', SERVICE_URL_LOGS: base, SERVICE_URL_INGESTION: base, LOG_LEVEL: 'silent' }), { webDist: '/nonexistent' });
    await gateway.start();
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('compresses a large proxied answer when asked, not a small one, not when unasked, never an image or an ingestion answer', async () => {
    const asked = await gateway.app.inject({ method: 'GET', url: '/api/logs/my', headers: BOTH });
    expect(asked.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(asked))).toEqual(big);
    const plain = await gateway.app.inject({ method: 'GET', url: '/api/logs/my' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(big);
    const small = await gateway.app.inject({ method: 'GET', url: '/api/logs/stats', headers: BOTH });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ total: 1 });
    const photo = await gateway.app.inject({ method: 'GET', url: '/api/photologs/image/x', headers: BOTH });
    expect(photo.headers['content-encoding']).toBeUndefined();
    expect(photo.rawPayload.equals(image)).toBe(true);
    const ingestion = await gateway.app.inject({ method: 'POST', url: '/api/logs', headers: BOTH, payload: [{ message: 'x' }] });
    expect(ingestion.statusCode).toBe(201);
    expect(ingestion.rawPayload.length).toBeGreaterThan(1024);
    expect(ingestion.headers['content-encoding']).toBeUndefined();
  });
});
