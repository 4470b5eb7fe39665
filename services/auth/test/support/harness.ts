/**
 * Test harness: the auth service on the embedded adapters in a temp folder (SQLite documents,
 * SQLite bus journal, memory counters, local mail outbox), mounted on the service kit's HTTP app.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { createCounters, createDocumentStore, createEventBus, createMailer } from '@skald/adapters';
import type { BusMessage, DocumentStore, EventBus, JobQueue, LogStore, ObjectStore } from '@skald/ports';
import { TOPICS } from '@skald/contracts';
import { createHttpApp } from '@skald/service-kit';
import type { KeyMaterial, ServiceDeps } from '@skald/service-kit';
import { buildAuthService } from '../src/index.ts';
import type { AuthServiceModule, AuthServiceOptions } from '../src/index.ts';
import { openAuthStore } from '../src/store.ts';
import type { AuthStore } from '../src/store.ts';

function notUsed(): never {
  throw new Error('not used by the auth service');
}

const objects: ObjectStore = { put: notUsed, get: notUsed, stat: notUsed, delete: notUsed, list: notUsed, close: async () => {} };
const jobs: JobQueue = { add: notUsed, schedule: notUsed, unschedule: notUsed, process: notUsed, deadJobs: notUsed, retryDead: notUsed, close: async () => {} };
const logStore: LogStore = {
  insertBatch: notUsed,
  query: notUsed,
  stats: notUsed,
  facets: notUsed,
  count: notUsed,
  deleteBefore: notUsed,
  deleteExpired: notUsed,
  deleteOldest: notUsed,
  close: async () => {},
};

export const TEST_PUBLIC_URL = 'https://skald.test';
/** Low scrypt cost for tests only: the machine is shared; the production default is N=2^17. */
export const FAST_SCRYPT = { logN: 10, r: 8, p: 1 } as const;

export interface Harness {
  readonly app: FastifyInstance;
  readonly service: AuthServiceModule;
  readonly store: AuthStore;
  readonly docs: DocumentStore;
  readonly bus: EventBus;
  readonly dir: string;
  readonly keys: KeyMaterial;
  /** Every message published so far, in order (captured by a test consumer group). */
  readonly published: BusMessage[];
  /** The TOTP clock the service uses (epoch ms); tests move it. */
  clock: number;
  close(): Promise<void>;
}

export function makeKeys(): KeyMaterial {
  const pair = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: pair.privateKey, publicKeyPem: pair.publicKey, issuer: 'skald', audience: 'skald-api' };
}

export async function startHarness(options: AuthServiceOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'skald-auth-'));
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'auth', 'documents.db') });
  const bus = await createEventBus({ kind: 'memory', file: join(dir, 'bus', 'journal.db') });
  await bus.ensureTopics([TOPICS.identity, TOPICS.audit]);
  const counters = await createCounters({ kind: 'memory' });
  const mailer = await createMailer({ kind: 'outbox', dir: join(dir, 'outbox'), from: 'skald@skald.test', publishLine: () => {} });
  const app = createHttpApp({ logLevel: 'silent' });
  const keys = makeKeys();
  const deps: ServiceDeps = {
    bus,
    docs,
    logStore,
    objects,
    jobs,
    counters,
    mailer,
    keys,
    log: app.log,
    publicUrl: TEST_PUBLIC_URL,
    dataDir: dir,
    secretsKey: randomBytes(32).toString('base64'),
  };
  const harness: Harness = {
    app,
    docs,
    bus,
    dir,
    keys,
    published: [],
    clock: Date.now(),
    store: await openAuthStore(docs),
    service: await buildAuthService(deps, {
      passwordCost: FAST_SCRYPT,
      now: () => harness.clock,
      ...options,
      // Every inject comes from 127.0.0.1: keep the per-IP login window out of unrelated tests.
      rateLimits: { loginPerIp: { limit: 1000, windowMs: 60_000 }, ...options.rateLimits },
    }),
    async close() {
      await app.close();
      await harness.service.stop();
      await bus.close();
      await docs.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  const published = harness.published;
  await bus.subscribe({
    group: 'test-capture',
    topics: [TOPICS.identity, TOPICS.audit],
    handler: async (message) => {
      published.push(message);
    },
  });
  await app.register(async (scope) => harness.service.routes(scope));
  await harness.service.start();
  await app.ready();
  return harness;
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json<T>();
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

let counter = 0;
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(3).toString('hex')}`;
}

export interface TestUser {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly password: string;
  token: string;
}

export async function registerAndLogin(h: Harness, prefix = 'user'): Promise<TestUser> {
  const username = uniqueName(prefix);
  const email = `${username}@example.com`;
  const password = `pw-${username}-long`;
  const reg = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username, password, email } });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username, password } });
  const body = json<{ token: string }>(login);
  return { id: json<{ id: string }>(reg).id, username, email, password, token: body.token };
}

export async function createServer(h: Harness, owner: TestUser, name = uniqueName('srv')): Promise<{ id: string; name: string; api_key: string }> {
  const res = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(owner.token), payload: { name } });
  if (res.statusCode !== 201) throw new Error(`create server failed: ${res.body}`);
  return json(res);
}

/** Adds `member` to the server with `role` through the owner's API. */
export async function addMember(h: Harness, owner: TestUser, serverId: string, member: TestUser, role: 'admin' | 'user'): Promise<void> {
  const res = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId, email: member.email, role } });
  if (res.statusCode !== 201) throw new Error(`add user failed: ${res.body}`);
}

/** The TOTP code valid at the harness clock. */
export function codeAt(secret: string, epochMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(epochMs / 1000) });
}

export async function outboxMails(h: Harness): Promise<string[]> {
  await h.service.flushMail();
  const folder = join(h.dir, 'outbox');
  const names = (await readdir(folder).catch(() => [])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map((n) => readFile(join(folder, n), 'utf8')));
}

export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function eventTypes(h: Harness): string[] {
  return h.published.map((m) => m.headers['event-type'] ?? '?');
}
