/**
 * One name for the default site role (docs/DECISIONS.md "One name for the default site role"): `/auth/me`
 * (auth) and GET /admin/users (the admin service's read model) name the same account's role alike, and what
 * was written under the former name `staff` (stored accounts, identity events in the history, tokens, read
 * models) still works and reads as `user`. The all-in-one with its embedded stores, restarted on its data.
 */
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentStore, createSharedAdapters } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import { loadConfig } from '@skald/config';
import { DEFAULT_SITE_ROLE, FORMER_DEFAULT_SITE_ROLE, TOPICS, UserSiteRoleChangedEvent, identityMessage } from '@skald/contracts';
import type { SiteRole } from '@skald/contracts';
import type { AdminUserList, MeAnswer } from '@skald/contracts/api';
import type { KeyMaterial } from '@skald/service-kit';
import { loadOrCreateKeys } from '@skald/service-kit';
import { waitFor } from '@skald/testing';
import { buildAllInOne } from '../src/all-in-one.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { FAST_PASSWORDS_ENV, TEST_PASSWORD, bearer, claimsOf } from './support/all-in-one.ts';

const dir = mkdtempSync(join(tmpdir(), 'skald-site-role-name-'));
const config = loadConfig({ ...FAST_PASSWORDS_ENV, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' });
let running: RunningProcess;
let shared: SharedAdapters;
let keys: KeyMaterial;
let staffToken = '';

async function start(): Promise<void> {
  running = await buildAllInOne(config, {
    webDist: join(dir, 'no-web'),
    logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    createAdapters: async (...args) => (shared = await createSharedAdapters(...args)),
  });
  await running.start();
  keys = loadOrCreateKeys(config.dataDir, { issuer: config.jwt.issuer, audience: config.jwt.audience }).keys;
}

async function logIn(username: string): Promise<string> {
  const login = await running.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: TEST_PASSWORD } });
  expect(login.statusCode).toBe(200);
  return (login.json() as { token: string }).token;
}

async function signUp(username: string): Promise<{ userId: string; token: string }> {
  const registered = await running.app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, email: `${username}@example.test`, password: TEST_PASSWORD } });
  expect(registered.statusCode).toBe(201);
  const token = await logIn(username);
  return { userId: claimsOf(token).sub, token };
}

async function meRole(token: string): Promise<string> {
  const me = await running.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
  expect(me.statusCode).toBe(200);
  return (me.json() as MeAnswer).user.role;
}

async function adminListRole(userId: string): Promise<string | undefined> {
  const list = await running.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(staffToken) });
  expect(list.statusCode).toBe(200);
  return (list.json() as AdminUserList).users.find((u) => u.id === userId)?.role;
}

/** The site role as the operator command publishes it; auth applies it and ends the sessions, so sign in again. */
async function setSiteRole(userId: string, username: string, role: SiteRole): Promise<string> {
  await shared.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId, role })]);
  let token = '';
  await waitFor(async () => {
    token = await logIn(username);
    return claimsOf(token).role === role;
  }, `${username}'s sign-in to carry ${role}`);
  return token;
}

/** A user.site-role-changed as a Skald from before the rename published it (today's publishers refuse the name). */
async function publishFormerRoleEvent(userId: string): Promise<void> {
  const id = randomUUID();
  await shared.bus.publish([
    {
      topic: TOPICS.identity,
      key: userId,
      id,
      headers: { 'event-type': UserSiteRoleChangedEvent.type },
      payload: { type: UserSiteRoleChangedEvent.name, version: 1, id, occurredAt: new Date().toISOString(), data: { userId, role: FORMER_DEFAULT_SITE_ROLE } },
    },
  ]);
}

/** An access token as auth signed it before the rename (role `staff`), with today's keys. */
function formerToken(userId: string, tv: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const claims = { sub: userId, role: FORMER_DEFAULT_SITE_ROLE, tv, iat, exp: iat + 600, iss: keys.issuer, aud: keys.audience, jti: randomUUID() };
  const input = `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), createPrivateKey(keys.privateKeyPem ?? '')).toString('base64url')}`;
}

let plain: { userId: string; token: string };

beforeAll(async () => {
  await start();
  const staff = await signUp('role_staff');
  staffToken = await setSiteRole(staff.userId, 'role_staff', 'superadmin');
  plain = await signUp('role_plain');
  await waitFor(async () => (await adminListRole(plain.userId)) !== undefined, 'the admin area to list the new account');
}, 120_000); // starts the all-in-one and seeds an account per site role

afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the default site role has one name', () => {
  it('/auth/me and GET /admin/users say user for a new account, and the same role after a change', async () => {
    expect(DEFAULT_SITE_ROLE).toBe('user');
    expect(await meRole(plain.token)).toBe('user');
    expect(await adminListRole(plain.userId)).toBe('user');
    const moderatorToken = await setSiteRole(plain.userId, 'role_plain', 'moderator');
    expect(await meRole(moderatorToken)).toBe('moderator');
    await waitFor(async () => (await adminListRole(plain.userId)) === 'moderator', 'the admin area to show moderator');
  });

  it('a user.site-role-changed from before the rename (role staff) reads as user in auth and the admin area', async () => {
    await publishFormerRoleEvent(plain.userId);
    await waitFor(async () => (await adminListRole(plain.userId)) === 'user', 'the admin area to apply the former name as user');
    let token = '';
    await waitFor(async () => {
      token = await logIn('role_plain');
      return claimsOf(token).role === 'user';
    }, 'auth to apply the former name as user');
    expect(await meRole(token)).toBe('user');
    plain = { ...plain, token };
  });

  it('accounts and read models stored, and tokens signed, under the former name still work after a restart', async () => {
    await running.close();
    // As a Skald from before the rename left them: the account in auth's store, the admin area's copy.
    for (const [service, collection] of [
      ['auth', 'users'],
      ['admin', 'overview_users'],
    ] as const) {
      const docs = await createDocumentStore({ kind: 'sqlite', file: join(config.dataDir, service, 'documents.db') });
      const users = await docs.collection<{ _id: string; siteRole: string }>(collection);
      expect((await users.updateOne({ _id: plain.userId }, { $set: { siteRole: FORMER_DEFAULT_SITE_ROLE } })).matched).toBe(1);
      await docs.close();
    }
    await start();
    expect(await adminListRole(plain.userId)).toBe('user');
    const tv = claimsOf(plain.token).tv;
    expect(await meRole(formerToken(plain.userId, tv))).toBe('user');
    expect(await meRole(await logIn('role_plain'))).toBe('user');
    // The staff account still reaches the admin area; the renamed one still does not.
    const refused = await running.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(formerToken(plain.userId, tv)) });
    expect(refused.statusCode).toBe(403);
  });
});
