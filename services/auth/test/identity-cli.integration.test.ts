/**
 * Identity across a data folder (integration: a child process, and a second service):
 *  - `users:promote <username> superadmin` (gateway/src/cli.ts in its own process) on an all-in-one
 *    DATA_DIR updates the auth store and publishes the site-role event through the bus journal, so read
 *    models follow;
 *  - an API-key rotation through the auth service stops the old key at the ingestion service.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentStore, createEventBus } from '@skald/adapters';
import type { DocumentStore, EventBus } from '@skald/ports';
import { createIdentityReadModel } from '@skald/service-kit';
import type { ServiceFactory } from '@skald/service-kit';
import { buildTestService, createTestDeps, generateTestKeys, waitFor } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { createAuthServiceWith, openAuthStore } from '../src/testing.ts';
import { FAST_SCRYPT } from './support/harness.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', '..', 'gateway', 'src', 'cli.ts');

/** The ingestion service's factory, loaded by package name like the launcher loads it (services never import each other). */
async function loadIngestionFactory(): Promise<ServiceFactory> {
  const pkg = '@skald/ingestion-service';
  const factory = ((await import(pkg)) as Record<string, unknown>)['createIngestionService'];
  if (typeof factory !== 'function') throw new Error(`${pkg} does not export createIngestionService`);
  return factory as ServiceFactory;
}

let dataDir: string;
/** One key pair for every run on the folder: an old token must fail for being revoked, not for another key. */
const keys = generateTestKeys();

interface AuthRun {
  readonly auth: TestService;
  readonly bus: EventBus;
  readonly docs: DocumentStore;
}

/** Runs the auth service on the all-in-one layout of dataDir (the files the CLI opens), then closes everything so the CLI has them alone. */
async function withAuth<T>(fn: (run: AuthRun) => Promise<T>): Promise<T> {
  const docs = await createDocumentStore({ kind: 'sqlite', file: join(dataDir, 'auth', 'documents.db') });
  const bus = await createEventBus({ kind: 'memory', file: join(dataDir, 'bus', 'journal.db') });
  const rest = await createTestDeps({ service: 'auth', overrides: { docs, bus } });
  const auth = await buildTestService((deps) => createAuthServiceWith(deps, { passwordCost: FAST_SCRYPT }), { deps: { ...rest, keys } });
  try {
    return await fn({ auth, bus, docs });
  } finally {
    await auth.close();
    await rest.cleanup();
    await bus.close();
    await docs.close();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skald-cli-'));
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe('npm run skald -- users:promote', () => {
  it('makes the first superadmin on an all-in-one data folder and publishes the change', async () => {
    const username = `boss${randomBytes(3).toString('hex')}`;
    const token = await withAuth(async ({ auth }) => {
      await auth.inject({ method: 'POST', url: '/auth/register', payload: { username, password: 'a-long-password', email: `${username}@example.com` } });
      return (await auth.inject({ method: 'POST', url: '/auth/login', payload: { username, password: 'a-long-password' } })).json<{ token: string }>().token;
    });

    const { stdout } = await run(process.execPath, [CLI, 'users:promote', username, 'superadmin'], { env: { ...process.env, DATA_DIR: dataDir, TARGET: 'all' } });
    expect(stdout).toContain(`${username} is now superadmin`);

    await withAuth(async ({ auth, bus, docs }) => {
      const store = await openAuthStore(docs);
      const user = await store.users.findOne({ usernameLower: username });
      expect(user?.siteRole).toBe('superadmin');
      // The old token carried role staff: it was revoked.
      expect((await auth.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
      const login = (await auth.inject({ method: 'POST', url: '/auth/login', payload: { username, password: 'a-long-password' } })).json<{ token: string }>();
      const me = (await auth.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${login.token}` } })).json<{ user: { role: string } }>();
      expect(me.user.role).toBe('superadmin');
      // Another service's read model, reading the same journal from the start, sees the role.
      const model = await createIdentityReadModel({ bus, docs, group: 'test.cli-reader', collectionPrefix: 'cli_rm_' });
      await model.start();
      try {
        await waitFor(async () => user !== null && (await model.siteRoleOf(user._id)) === 'superadmin', 'the read model to apply the promotion');
      } finally {
        await model.stop();
      }
    });
  });

  it('refuses an unknown user (exit 1) and a bad role (exit 2)', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, TARGET: 'all' };
    await expect(run(process.execPath, [CLI, 'users:promote', 'ghost', 'superadmin'], { env })).rejects.toMatchObject({ code: 1 });
    await expect(run(process.execPath, [CLI, 'users:promote', 'ghost', 'emperor'], { env })).rejects.toMatchObject({ code: 2 });
  });
});

describe('API-key rotation reaches the ingestion service', () => {
  it('the old key is refused by ingestion as soon as apikey.rotated is applied', async () => {
    const username = `own${randomBytes(3).toString('hex')}`;
    await withAuth(async ({ auth, bus }) => {
      // The ingestion service on the same bus, as in the all-in-one.
      const ingestion = await buildTestService(await loadIngestionFactory(), { service: 'ingestion', overrides: { bus } });
      const sendLog = (apiKey: string): Promise<LightMyRequestResponse> =>
        ingestion.inject({ method: 'POST', url: '/logs', headers: { 'x-api-key': apiKey }, payload: { message: 'key check' } });
      try {
        await auth.inject({ method: 'POST', url: '/auth/register', payload: { username, password: 'a-long-password', email: `${username}@example.com` } });
        const token = (await auth.inject({ method: 'POST', url: '/auth/login', payload: { username, password: 'a-long-password' } })).json<{ token: string }>().token;
        const headers = { authorization: `Bearer ${token}` };
        const server = (await auth.inject({ method: 'POST', url: '/server/servers', headers, payload: { name: `Srv ${username}` } })).json<{ id: string; api_key: string }>();
        await waitFor(async () => (await sendLog(server.api_key)).statusCode === 201, 'ingestion to accept the first key');
        const { apiKey } = (await auth.inject({ method: 'POST', url: `/settings/api-key/reset?serverId=${server.id}`, headers })).json<{ apiKey: string }>();
        await waitFor(async () => (await sendLog(apiKey)).statusCode === 201, 'ingestion to accept the new key');
        expect((await sendLog(server.api_key)).statusCode).toBe(401);
      } finally {
        await ingestion.close();
      }
    });
  });
});
