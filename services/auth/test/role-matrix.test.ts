/**
 * Every server endpoint of the auth service against owner, admin, user, a member of another
 * server (another tenant) and anonymous. Expected: 401 anonymous, 404 other tenant, 403 below the
 * required role, success at or above it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, createServer, registerAndLogin, startHarness, uniqueName } from './support/harness.ts';
import type { Harness, Account } from './support/harness.ts';

type Caller = 'owner' | 'admin' | 'user' | 'otherTenant' | 'anonymous';
type MinRole = 'owner' | 'admin' | 'user';

interface Endpoint {
  readonly label: string;
  readonly min: MinRole;
  request(serverId: string, target: string): { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: Record<string, unknown> };
  /** Success status. */
  readonly ok: number;
}

const endpoints: readonly Endpoint[] = [
  { label: 'PATCH /settings/server-name', min: 'admin', ok: 200, request: (s) => ({ method: 'PATCH', url: '/settings/server-name', payload: { serverId: s, newName: uniqueName('N ') } }) },
  { label: 'POST /settings/api-key/reset', min: 'owner', ok: 200, request: (s) => ({ method: 'POST', url: `/settings/api-key/reset?serverId=${s}` }) },
  { label: 'GET /manage/server/{id}/users', min: 'owner', ok: 200, request: (s) => ({ method: 'GET', url: `/manage/server/${s}/users` }) },
  { label: 'GET /manage/server/{id}/user-count', min: 'owner', ok: 200, request: (s) => ({ method: 'GET', url: `/manage/server/${s}/user-count` }) },
  { label: 'POST /manage/add-user', min: 'owner', ok: 409, request: (s) => ({ method: 'POST', url: '/manage/add-user', payload: { serverId: s, email: 'TARGET', role: 'user' } }) },
  { label: 'PATCH /manage/server/{id}/users/{userId}', min: 'owner', ok: 200, request: (s, t) => ({ method: 'PATCH', url: `/manage/server/${s}/users/${t}`, payload: { role: 'user' } }) },
  // Last: a successful DELETE removes the target, so it runs after the other checks.
  { label: 'DELETE /manage/server/{id}/users/{userId}', min: 'owner', ok: 200, request: (s, t) => ({ method: 'DELETE', url: `/manage/server/${s}/users/${t}` }) },
];

const rank: Record<MinRole, number> = { user: 1, admin: 2, owner: 3 };

function expected(caller: Caller, min: MinRole, ok: number): number {
  if (caller === 'anonymous') return 401;
  if (caller === 'otherTenant') return 404;
  return rank[caller] >= rank[min] ? ok : 403;
}

let h: Harness;
let people: Record<Exclude<Caller, 'anonymous'>, Account>;
beforeAll(async () => {
  h = await startHarness();
  people = {
    owner: await registerAndLogin(h, 'own'),
    admin: await registerAndLogin(h, 'adm'),
    user: await registerAndLogin(h, 'usr'),
    otherTenant: await registerAndLogin(h, 'oth'),
  };
  await createServer(h, people.otherTenant);
});
afterAll(async () => h.close());

describe('role matrix of the auth service', () => {
  for (const endpoint of endpoints) {
    it(endpoint.label, async () => {
      const callers: Caller[] = ['anonymous', 'otherTenant', 'user', 'admin', 'owner'];
      for (const caller of callers) {
        // A fresh server per caller: successful calls change state (names, keys, members).
        const server = await createServer(h, people.owner);
        await h.store.servers.updateOne({ _id: server.id }, { $set: { tier: 'pro' } });
        await addMember(h, people.owner, server.id, people.admin, 'admin');
        await addMember(h, people.owner, server.id, people.user, 'user');
        const target = await registerAndLogin(h, 'tgt');
        await addMember(h, people.owner, server.id, target, 'admin');
        const req = endpoint.request(server.id, target.id);
        const payload = req.payload && req.payload['email'] === 'TARGET' ? { ...req.payload, email: target.email } : req.payload;
        const headers = caller === 'anonymous' ? {} : bearer(people[caller].token);
        const res = await h.app.inject({ method: req.method, url: req.url, headers, ...(payload ? { payload } : {}) });
        expect({ caller, status: res.statusCode }).toEqual({ caller, status: expected(caller, endpoint.min, endpoint.ok) });
        if (caller === 'otherTenant') expect(res.json<{ error: string }>().error).toBe('Server not found.');
        if (res.statusCode === 403) expect(res.json<{ error: string }>().error).toBe('You do not have permission to do this.');
      }
    });
  }

  it('a server id that does not exist is 404 like another tenant', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/manage/server/does-not-exist/users', headers: bearer(people.owner.token) });
    expect(res.statusCode).toBe(404);
  });
});
