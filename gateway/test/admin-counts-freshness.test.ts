/**
 * Staff see a server's log counts seconds after the logs are stored, not a minute (the logs service's live
 * counts facts, logs.server-counts-live): in the all-in-one as it runs (the service's own timers, the embedded
 * bus, admin's copy of the servers), GET /api/admin/stats and /api/admin/servers show each batch within
 * FRESH_MS of the moment /api/logs/my lists it. Waits poll for what they wait for; the bound is measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedAdapters } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import { loadConfig } from '@skald/config';
import { UserSiteRoleChangedEvent, identityMessage } from '@skald/contracts';
import type { AdminServerList, AdminStats } from '@skald/contracts/api';
import { buildAllInOne } from '../src/all-in-one.ts';
import type { RunningProcess } from '../src/launcher-app.ts';
import { FAST_PASSWORDS_ENV } from './support/all-in-one.ts';

/** The staff area's promise: counts at most this old (docs/DECISIONS.md). */
const FRESH_MS = 5_000;
const PASSWORD = 'Vq7#mZ2!pL9x-Rt4wK';

const dir = mkdtempSync(join(tmpdir(), 'skald-fresh-counts-'));
let running: RunningProcess;
let shared: SharedAdapters | undefined;
let staffToken: string;
let ownerToken: string;
let server: { id: string; api_key: string };

async function call<T>(method: 'GET' | 'POST' | 'DELETE', url: string, options: { token?: string; payload?: object; headers?: Record<string, string> } = {}): Promise<{ status: number; body: T }> {
  const res = await running.app.inject({
    method,
    url,
    headers: { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.payload ? { payload: options.payload } : {}),
  });
  return { status: res.statusCode, body: (res.headers['content-type']?.startsWith('application/json') ? res.json() : res.body) as T };
}

async function signUp(username: string): Promise<string> {
  expect((await call('POST', '/api/auth/register', { payload: { username, email: `${username}@fresh.test`, password: PASSWORD } })).status).toBe(201);
  return logIn(username);
}

async function logIn(username: string): Promise<string> {
  const login = await call<{ token: string }>('POST', '/api/auth/login', { payload: { username, password: PASSWORD } });
  expect(login.status).toBe(200);
  return login.body.token;
}

/** Polls `check` every 25 ms until it holds; answers the milliseconds it took. */
async function msUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

const listed = async (count: number) => {
  const res = await call<unknown[]>('GET', `/api/logs/my?serverId=${server.id}`, { token: ownerToken });
  return res.status === 200 && res.body.length === count;
};
const staffSees = async (count: number) => {
  const stats = await call<AdminStats>('GET', '/api/admin/stats', { token: staffToken });
  const servers = await call<AdminServerList>('GET', '/api/admin/servers', { token: staffToken });
  expect(stats.status).toBe(200);
  expect(servers.status).toBe(200);
  return stats.body.totalLogs === count && servers.body.servers.find((s) => s.id === server.id)?.logCount === count;
};

async function postLogs(messages: readonly string[]): Promise<void> {
  const res = await call('POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, payload: messages.map((message) => ({ message })) });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  const config = loadConfig({ ...FAST_PASSWORDS_ENV, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' });
  running = await buildAllInOne(config, {
    webDist: join(dir, 'no-web'),
    logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    createAdapters: async (...args) => (shared = await createSharedAdapters(...args)),
  });
  await running.start();
  ownerToken = await signUp('fresh_owner');
  const created = await call<{ id: string; api_key: string }>('POST', '/api/server/servers', { token: ownerToken, payload: { name: 'Fresh Counts' } });
  expect(created.status).toBe(201);
  server = created.body;
  // A superadmin: the site-role fact as the operator command publishes it; auth applies it to the account
  // (and ends its sessions), so the next sign-in carries the role.
  const staff = await signUp('fresh_staff');
  const userId = (JSON.parse(Buffer.from(staff.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
  await shared!.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId, role: 'superadmin' })]);
  await msUntil('the sign-in to carry the superadmin role', async () => {
    staffToken = await logIn('fresh_staff');
    return (JSON.parse(Buffer.from(staffToken.split('.')[1]!, 'base64url').toString('utf8')) as { role: string }).role === 'superadmin';
  });
  await msUntil('the staff area to list the server', async () => {
    const servers = await call<AdminServerList>('GET', '/api/admin/servers', { token: staffToken });
    return servers.status === 200 && servers.body.servers.some((s) => s.id === server.id);
  });
  await msUntil('ingestion to accept the new key', async () => {
    const res = await call('POST', '/api/logs', { headers: { 'x-api-key': server.api_key }, payload: { message: 'first' } });
    return res.status === 201;
  });
  await msUntil('the first log listed', () => listed(1));
}, 120_000); // the all-in-one starts every service and its consumers in this process

afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('log counts in the staff area', () => {
  // timeout: waits for several stored batches to reach the admin read models, each within FRESH_MS
  it(`follow each stored batch within ${FRESH_MS / 1000} s in /admin/stats and /admin/servers`, { timeout: 120_000 }, async () => {
    const lags: number[] = [];
    let stored = 1;
    // The first log, then two batches more, each measured from the moment the owner's list shows it.
    lags.push(await msUntil('the staff area to count the first log', () => staffSees(stored)));
    for (const batch of [['a', 'b', 'c'], ['d', 'e']]) {
      await postLogs(batch);
      stored += batch.length;
      await msUntil(`${stored} logs listed`, () => listed(stored));
      lags.push(await msUntil(`the staff area to count ${stored} logs`, () => staffSees(stored)));
    }
    console.log(`staff counts behind the stored logs: ${lags.map((ms) => `${Math.round(ms)} ms`).join(', ')} (bound ${FRESH_MS} ms)`);
    for (const lag of lags) expect(lag).toBeLessThanOrEqual(FRESH_MS);
  });
});
