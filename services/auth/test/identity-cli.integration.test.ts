/**
 * Identity across a data folder:
 *  - `users:promote <username> superadmin` on an all-in-one DATA_DIR updates the auth store and
 *    publishes the site-role event through the bus journal, so read models follow;
 *  - an API-key rotation through the auth service stops the old key in the ingestion read model.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCounters, createDocumentStore, createEventBus, createMailer } from '@skald/adapters';
import type { DocumentStore, EventBus, JobQueue, LogStore, ObjectStore } from '@skald/ports';
import { TOPICS } from '@skald/contracts';
import { createHttpApp, createIdentityReadModel, decodeIdentityMessage, loadOrCreateKeys } from '@skald/service-kit';
import type { ServiceDeps } from '@skald/service-kit';
import type { IdentityEvent } from '@skald/contracts';
import { buildAuthService, openAuthStore } from '../src/index.ts';

/** The ingestion service's key read model, loaded by package name (services never import each other). */
interface KeyDirectoryLike {
  apply(event: IdentityEvent): Promise<void>;
  lookup(keyHash: string): { readonly serverId: string } | null;
}
async function openIngestionKeyDirectory(docs: DocumentStore): Promise<{ directory: KeyDirectoryLike; group: string }> {
  const pkg = '@skald/ingestion-service';
  const mod = (await import(pkg)) as Record<string, unknown>;
  const KeyDirectory = mod['KeyDirectory'] as { open(d: DocumentStore): Promise<KeyDirectoryLike> } | undefined;
  const group = mod['IDENTITY_GROUP'];
  if (KeyDirectory === undefined || typeof group !== 'string') throw new Error(`${pkg} does not export KeyDirectory / IDENTITY_GROUP`);
  return { directory: await KeyDirectory.open(docs), group };
}

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', '..', 'gateway', 'src', 'cli.ts');

function notUsed(): never {
  throw new Error('not used');
}
const objects: ObjectStore = { put: notUsed, get: notUsed, stat: notUsed, delete: notUsed, list: notUsed, close: async () => {} };
const jobs: JobQueue = { add: notUsed, schedule: notUsed, unschedule: notUsed, process: notUsed, deadJobs: notUsed, retryDead: notUsed, close: async () => {} };
const logStore: LogStore = { insertBatch: notUsed, query: notUsed, stats: notUsed, facets: notUsed, count: notUsed, deleteBefore: notUsed, deleteExpired: notUsed, deleteOldest: notUsed, close: async () => {} };

let dataDir: string;

async function withAuth<T>(fn: (ctx: { inject: ReturnType<typeof createHttpApp>['inject']; bus: EventBus; docs: DocumentStore }) => Promise<T>): Promise<T> {
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dataDir, 'auth', 'documents.db') });
  const bus = await createEventBus({ kind: 'memory', file: join(dataDir, 'bus', 'journal.db') });
  await bus.ensureTopics([TOPICS.identity, TOPICS.audit]);
  const app = createHttpApp({ logLevel: 'silent' });
  const { keys, secretsKey } = loadOrCreateKeys(dataDir);
  const deps: ServiceDeps = {
    bus,
    docs,
    logStore,
    objects,
    jobs,
    counters: await createCounters({ kind: 'memory' }),
    mailer: await createMailer({ kind: 'outbox', dir: join(dataDir, 'outbox'), from: 'skald@test', publishLine: () => {} }),
    keys,
    log: app.log,
    publicUrl: 'http://localhost:8080',
    dataDir: join(dataDir, 'auth'),
    secretsKey,
  };
  const service = await buildAuthService(deps, { passwordCost: { logN: 10, r: 8, p: 1 } });
  await app.register(async (scope) => service.routes(scope));
  await app.ready();
  try {
    return await fn({ inject: app.inject.bind(app), bus, docs });
  } finally {
    await app.close();
    await service.stop();
    await bus.close();
    await docs.close();
  }
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skald-cli-'));
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe('npm run skald -- users:promote', () => {
  it('makes the first superadmin on an all-in-one data folder and publishes the change', async () => {
    const username = `boss${randomBytes(3).toString('hex')}`;
    const token = await withAuth(async ({ inject }) => {
      await inject({ method: 'POST', url: '/auth/register', payload: { username, password: 'a-long-password', email: `${username}@example.com` } });
      return (await inject({ method: 'POST', url: '/auth/login', payload: { username, password: 'a-long-password' } })).json<{ token: string }>().token;
    });

    const { stdout } = await run(process.execPath, [CLI, 'users:promote', username, 'superadmin'], { env: { ...process.env, DATA_DIR: dataDir, TARGET: 'all' } });
    expect(stdout).toContain(`${username} is now superadmin`);

    await withAuth(async ({ inject, bus, docs }) => {
      const store = await openAuthStore(docs);
      expect((await store.users.findOne({ usernameLower: username }))?.siteRole).toBe('superadmin');
      // The old token carried role staff: it was revoked.
      expect((await inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
      const login = (await inject({ method: 'POST', url: '/auth/login', payload: { username, password: 'a-long-password' } })).json<{ token: string }>();
      const me = (await inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${login.token}` } })).json<{ user: { role: string } }>();
      expect(me.user.role).toBe('superadmin');
      // Another service's read model, reading the same journal from the start, sees the role.
      const model = await createIdentityReadModel({ bus, docs, group: 'test.cli-reader', collectionPrefix: 'cli_rm_' });
      await model.start();
      const userId = (await store.users.findOne({ usernameLower: username }))!._id;
      await until(async () => (await model.siteRoleOf(userId)) === 'superadmin');
      await model.stop();
    });
  });

  it('refuses an unknown user (exit 1) and a bad role (exit 2)', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, TARGET: 'all' };
    await expect(run(process.execPath, [CLI, 'users:promote', 'ghost', 'superadmin'], { env })).rejects.toMatchObject({ code: 1 });
    await expect(run(process.execPath, [CLI, 'users:promote', 'ghost', 'emperor'], { env })).rejects.toMatchObject({ code: 2 });
  });
});

describe('API-key rotation reaches the ingestion read model', () => {
  it('the old key stops resolving in KeyDirectory as soon as apikey.rotated is applied', async () => {
    const username = `own${randomBytes(3).toString('hex')}`;
    await withAuth(async ({ inject, bus }) => {
      const ingestionDocs = await createDocumentStore({ kind: 'sqlite', file: join(dataDir, 'ingestion', 'documents.db') });
      const { directory, group } = await openIngestionKeyDirectory(ingestionDocs);
      const sub = await bus.subscribe({
        group,
        topics: [TOPICS.identity],
        handler: async (message) => {
          const event = decodeIdentityMessage(message);
          if (event !== null) await directory.apply(event);
        },
      });
      try {
        await inject({ method: 'POST', url: '/auth/register', payload: { username, password: 'a-long-password', email: `${username}@example.com` } });
        const token = (await inject({ method: 'POST', url: '/auth/login', payload: { username, password: 'a-long-password' } })).json<{ token: string }>().token;
        const auth = { authorization: `Bearer ${token}` };
        const server = (await inject({ method: 'POST', url: '/server/servers', headers: auth, payload: { name: `Srv ${username}` } })).json<{ id: string; api_key: string }>();
        const hash = (key: string) => createHash('sha256').update(key).digest('hex');
        await until(async () => directory.lookup(hash(server.api_key))?.serverId === server.id);
        const { apiKey } = (await inject({ method: 'POST', url: `/settings/api-key/reset?serverId=${server.id}`, headers: auth })).json<{ apiKey: string }>();
        await until(async () => directory.lookup(hash(apiKey))?.serverId === server.id);
        expect(directory.lookup(hash(server.api_key))).toBeNull();
      } finally {
        await sub.stop();
        await ingestionDocs.close();
      }
    });
  });
});
