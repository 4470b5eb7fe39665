/**
 * The child process of the photo-memory benchmark (photo-memory.bench.ts): memory is measured in a
 * process that does nothing else. Peak RSS comes from the kernel's high-water mark (VmHWM in
 * /proc/self/status, reset by writing 5 to /proc/self/clear_refs), so no short peak is missed.
 *
 *   node --expose-gc photo-memory-probe.ts decode <image file>
 *     one processPhoto() of the image; prints {"inputBytes", "peakDeltaBytes", "stored": "WxH"} and exits
 *   node --expose-gc photo-memory-probe.ts serve all|ingestion
 *     the all-in-one process, or the ingestion service alone, on a loopback port with one server and key;
 *     prints {"photoUrl", "apiKey"} and then answers IPC messages 'reset' (-> {rss}), 'peak' (-> {rss, hwm})
 *     and 'stop'
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createSharedAdapters } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import { loadConfig } from '@skald/config';
import { ApiKeyRotatedEvent, hashApiKey, publishEvent, ServerCreatedEvent } from '@skald/contracts';
import { processPhoto } from '@skald/ingestion-service/testing';
import { buildAllInOne } from '../../../gateway/src/all-in-one.ts';
import type { RunningProcess } from '../../../gateway/src/launcher-app.ts';
import { buildSingleService } from '../../../gateway/src/single-service.ts';
import { benchImage } from './photo-images.ts';

function statusKb(field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  if (line === undefined) throw new Error(`no ${field} in /proc/self/status (Linux only)`);
  return Number(line.split(/\s+/)[1]);
}

/** Settles the heap and resets the high-water mark to the current RSS; returns that RSS in bytes. */
function resetPeak(): number {
  globalThis.gc?.();
  writeFileSync('/proc/self/clear_refs', '5');
  return statusKb('VmRSS') * 1024;
}

function peakBytes(): number {
  return statusKb('VmHWM') * 1024;
}

async function decode(file: string): Promise<void> {
  const bytes = readFileSync(file);
  // A first tiny photo loads libvips and its codecs, which are not the decode's cost.
  await processPhoto(await benchImage({ format: 'png', width: 64, height: 64, alpha: true }));
  const before = resetPeak();
  const photo = await processPhoto(bytes);
  const peak = peakBytes();
  process.stdout.write(`${JSON.stringify({ inputBytes: bytes.length, peakDeltaBytes: peak - before, stored: `${photo.width}x${photo.height}` })}\n`);
}

/** A server and its key through the public routes, as a user would create them. */
async function signUp(app: FastifyInstance): Promise<string> {
  const credentials = { username: 'photo_bench', password: 'Vq7#mZ2!pL9x-Rt4wK' };
  await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...credentials, email: 'photo_bench@example.test' } });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: credentials });
  const token = login.json<{ token: string }>().token;
  const created = await app.inject({ method: 'POST', url: '/api/server/servers', headers: { authorization: `Bearer ${token}` }, payload: { name: 'Photo bench' } });
  return created.json<{ api_key: string }>().api_key;
}

async function keyAccepted(app: FastifyInstance, logsPath: string, apiKey: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const probe = await app.inject({ method: 'POST', url: logsPath, headers: { 'x-api-key': apiKey }, payload: [] });
    if (probe.statusCode !== 401) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the API key never reached ingestion');
}

const quiet = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

/** TARGET=all with the embedded adapters, as `npm start` runs it. */
async function allInOne(dir: string): Promise<{ running: RunningProcess; apiKey: string; prefix: string }> {
  const running = await buildAllInOne(loadConfig({ DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'error' }), { logStream: quiet(), webDist: dir });
  await running.start();
  const apiKey = await signUp(running.app);
  await keyAccepted(running.app, '/api/logs', apiKey);
  return { running, apiKey, prefix: '/api' };
}

/** TARGET=ingestion alone (embedded adapters here; the deployments use the real ones), fed the key's facts on its bus. */
async function ingestionAlone(dir: string): Promise<{ running: RunningProcess; apiKey: string; prefix: string }> {
  const publicKeyFile = join(dir, 'jwt-public.pem');
  writeFileSync(publicKeyFile, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
  const config = loadConfig({
    TARGET: 'ingestion', DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'error', EVENT_BUS: 'memory', DOC_STORE: 'sqlite', LOG_STORE: 'sqlite',
    OBJECT_STORE: 'fs', JOB_QUEUE: 'embedded', COUNTERS: 'memory', MAILER: 'outbox', JWT_PUBLIC_KEY_FILE: publicKeyFile,
    SECRETS_KEY: randomBytes(32).toString('base64'),
  });
  let shared: SharedAdapters | undefined;
  const running = await buildSingleService(config, 'ingestion', { logStream: quiet(), createAdapters: async (...args) => (shared = await createSharedAdapters(...args)) });
  await running.start();
  const apiKey = 'photo-bench-key-0123456789abcdef';
  await publishEvent(shared!.bus, ServerCreatedEvent, 'bench', { serverId: 'bench', name: 'Bench', ownerId: 'u', tier: 'legend', suspended: false, createdAt: new Date().toISOString() });
  await publishEvent(shared!.bus, ApiKeyRotatedEvent, 'bench', { serverId: 'bench', keyHash: hashApiKey(apiKey), previousKeyHash: null });
  await keyAccepted(running.app, '/logs', apiKey);
  return { running, apiKey, prefix: '' };
}

async function serve(target: string | undefined): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'skald-bench-photo-'));
  const { running, apiKey, prefix } = target === 'ingestion' ? await ingestionAlone(dir) : await allInOne(dir);
  // One small photo loads libvips and its codecs: part of the process's idle memory from then on.
  await processPhoto(await benchImage({ format: 'jpeg', width: 64, height: 64, alpha: false }));
  const url = await running.app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', (message) => {
    if (message === 'reset') process.send?.({ rss: resetPeak() });
    else if (message === 'peak') process.send?.({ rss: statusKb('VmRSS') * 1024, hwm: peakBytes() });
    else if (message === 'stop') void running.close().then(() => process.exit(0));
  });
  process.stdout.write(`${JSON.stringify({ photoUrl: `${url}${prefix}/photologs`, apiKey })}\n`);
}

const [mode, arg] = process.argv.slice(2);
if (mode === 'decode' && arg !== undefined) await decode(arg);
else if (mode === 'serve') await serve(arg);
else throw new Error('usage: photo-memory-probe.ts decode <spec> | serve');
