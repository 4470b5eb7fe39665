/**
 * The auth service under test: built by its real factory with the test kit (`@skald/testing`) over the
 * embedded adapters in a temp folder (SQLite documents, the bus journal, the embedded job queue, memory
 * counters, the local mail outbox), plus helpers that go through the public routes.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import type { BusMessage, DocumentStore, EventBus } from '@skald/ports';
import type { KeyMaterial } from '@skald/service-kit';
import { buildTestService } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { FAST_SCRYPT, createAuthServiceWith, openAuthStore } from '../../src/testing.ts';
import type { AuthServiceModule, AuthServiceOptions, AuthStore } from '../../src/testing.ts';

export { TEST_PUBLIC_URL, waitFor } from '@skald/testing';

export { FAST_SCRYPT };

export interface Harness {
  readonly app: FastifyInstance;
  readonly kit: TestService<AuthServiceModule>;
  readonly service: AuthServiceModule;
  readonly store: AuthStore;
  readonly docs: DocumentStore;
  readonly bus: EventBus;
  /** The temp folder holding every store (data-at-rest scans it). */
  readonly dir: string;
  readonly keys: KeyMaterial;
  /** Every message published so far, in order (captured by the kit's own consumer group). */
  readonly published: readonly BusMessage[];
  /** The TOTP clock the service uses (epoch ms); tests move it. */
  clock: number;
  close(): Promise<void>;
}

/** The service options every test uses unless it overrides them. */
export function testOptions(options: AuthServiceOptions, now: () => number): AuthServiceOptions {
  return {
    passwordCost: FAST_SCRYPT,
    now,
    ...options,
    // Every inject comes from 127.0.0.1: keep the per-IP login window out of unrelated tests.
    rateLimits: { loginPerIp: { limit: 1000, windowMs: 60_000 }, ...options.rateLimits },
  };
}

export async function startHarness(options: AuthServiceOptions = {}): Promise<Harness> {
  let clock = Date.now();
  const kit = await buildTestService((deps) => createAuthServiceWith(deps, testOptions(options, () => clock)), { service: 'auth' });
  return {
    app: kit.app,
    kit,
    service: kit.module,
    store: await openAuthStore(kit.deps.docs),
    docs: kit.deps.docs,
    bus: kit.deps.bus,
    dir: kit.deps.root,
    keys: kit.deps.keys,
    published: kit.published,
    get clock() {
      return clock;
    },
    set clock(value: number) {
      clock = value;
    },
    close: () => kit.close(),
  };
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

/** An account registered through the API, with its current access token. */
export interface Account {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly password: string;
  token: string;
}

export async function registerAndLogin(h: Pick<Harness, 'app'>, prefix = 'user'): Promise<Account> {
  const username = uniqueName(prefix);
  const email = `${username}@example.com`;
  const password = `pw-${username}-long`;
  const reg = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username, password, email } });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username, password } });
  const body = json<{ token: string }>(login);
  return { id: json<{ id: string }>(reg).id, username, email, password, token: body.token };
}

export async function createServer(h: Pick<Harness, 'app'>, owner: Account, name = uniqueName('srv')): Promise<{ id: string; name: string; api_key: string }> {
  const res = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(owner.token), payload: { name } });
  if (res.statusCode !== 201) throw new Error(`create server failed: ${res.body}`);
  return json(res);
}

/** Adds `member` to the server with `role` through the owner's API. */
export async function addMember(h: Pick<Harness, 'app'>, owner: Account, serverId: string, member: Account, role: 'admin' | 'user'): Promise<void> {
  const res = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId, email: member.email, role } });
  if (res.statusCode !== 201) throw new Error(`add user failed: ${res.body}`);
}

/** The TOTP code valid at the given time. */
export function codeAt(secret: string, epochMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(epochMs / 1000) });
}

export async function outboxMails(h: Harness): Promise<string[]> {
  await h.service.flushMail();
  const folder = join(h.dir, 'outbox');
  const names = (await readdir(folder).catch(() => [])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map((n) => readFile(join(folder, n), 'utf8')));
}

export function eventTypes(h: Pick<Harness, 'published'>): string[] {
  return h.published.map((m) => m.headers['event-type'] ?? '?');
}

/** The `data` of a published event envelope. */
export function eventData<T>(message: BusMessage): T {
  return (message.payload as { data: T }).data;
}
