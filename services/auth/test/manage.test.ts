import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, createServer, json, registerAndLogin, startHarness, waitFor } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe('server users (/manage)', () => {
  it('lists members with id, username, email and role; counts them against the tier limit', async () => {
    const owner = await registerAndLogin(h);
    const member = await registerAndLogin(h);
    const server = await createServer(h, owner);
    const add = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: member.email.toUpperCase(), role: 'user' } });
    expect(add.statusCode).toBe(201);
    expect(json(add)['message']).toBe('Successfully added user to the dashboard');
    const list = await h.app.inject({ method: 'GET', url: `/manage/server/${server.id}/users`, headers: bearer(owner.token) });
    expect(list.statusCode).toBe(200);
    expect(json<unknown[]>(list)).toEqual([
      { id: owner.id, username: owner.username, email: owner.email, role: 'owner' },
      { id: member.id, username: member.username, email: member.email, role: 'user' },
    ]);
    const count = await h.app.inject({ method: 'GET', url: `/manage/server/${server.id}/user-count`, headers: bearer(owner.token) });
    expect(json(count)).toEqual({ current: 2, limit: 2 });
    const memberMe = json<{ servers: unknown[] }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(member.token) }));
    expect(memberMe.servers).toEqual([{ id: server.id, name: server.name, role: 'user' }]);
    await waitFor(() => h.published.some((m) => m.headers['event-type'] === 'membership.added.v1' && (m.payload as { data: { userId: string } }).data.userId === member.id));
  });

  it('refuses adding past the tier limit with a clear message, and follows a tier change event', async () => {
    const owner = await registerAndLogin(h);
    const a = await registerAndLogin(h);
    const b = await registerAndLogin(h);
    const server = await createServer(h, owner);
    await addMember(h, owner, server.id, a, 'user');
    const full = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: b.email, role: 'user' } });
    expect(full.statusCode).toBe(403);
    expect(json(full)['error']).toBe('This server has reached its limit of 2 users on the Free plan. Upgrade the plan or remove a user first.');
    // Billing/admin publish server.tier-changed; the auth service applies it.
    await h.kit.identity.tier(server.id, 'lite');
    await waitFor(async () => (await h.store.servers.findOne({ _id: server.id }))?.tier === 'lite');
    const count = json(await h.app.inject({ method: 'GET', url: `/manage/server/${server.id}/user-count`, headers: bearer(owner.token) }));
    expect(count).toEqual({ current: 2, limit: 3 });
    expect((await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: b.email, role: 'admin' } })).statusCode).toBe(201);
  });

  it('refuses unknown e-mails, existing members and the owner role', async () => {
    const owner = await registerAndLogin(h);
    const a = await registerAndLogin(h);
    const server = await createServer(h, owner);
    const unknown = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: 'ghost@example.com', role: 'user' } });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)['error']).toBe('No user with that e-mail address exists.');
    const ownerRole = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: a.email, role: 'owner' } });
    expect(ownerRole.statusCode).toBe(400);
    await addMember(h, owner, server.id, a, 'user');
    const again = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: a.email, role: 'admin' } });
    expect(again.statusCode).toBe(409);
    expect(json(again)['error']).toBe('That user is already a member of this server.');
    const op = await h.app.inject({ method: 'POST', url: '/manage/add-user', headers: bearer(owner.token), payload: { serverId: server.id, email: { $ne: null }, role: 'user' } });
    expect(op.statusCode).toBe(400);
  });

  it('changes a role and removes a member; the owner cannot be demoted or removed', async () => {
    const owner = await registerAndLogin(h);
    const a = await registerAndLogin(h);
    const server = await createServer(h, owner);
    await addMember(h, owner, server.id, a, 'user');
    const promote = await h.app.inject({ method: 'PATCH', url: `/manage/server/${server.id}/users/${a.id}`, headers: bearer(owner.token), payload: { role: 'admin' } });
    expect(promote.statusCode).toBe(200);
    expect(json(promote)['message']).toBe('User role updated succesfully');
    expect((await h.store.memberships.findOne({ _id: `${server.id}:${a.id}` }))?.role).toBe('admin');
    const demoteOwner = await h.app.inject({ method: 'PATCH', url: `/manage/server/${server.id}/users/${owner.id}`, headers: bearer(owner.token), payload: { role: 'user' } });
    expect(demoteOwner.statusCode).toBe(403);
    expect(json(demoteOwner)['error']).toBe("The owner's role cannot be changed and the owner cannot be removed.");
    const makeOwner = await h.app.inject({ method: 'PATCH', url: `/manage/server/${server.id}/users/${a.id}`, headers: bearer(owner.token), payload: { role: 'owner' } });
    expect(makeOwner.statusCode).toBe(400);
    const removeOwner = await h.app.inject({ method: 'DELETE', url: `/manage/server/${server.id}/users/${owner.id}`, headers: bearer(owner.token) });
    expect(removeOwner.statusCode).toBe(403);
    const remove = await h.app.inject({ method: 'DELETE', url: `/manage/server/${server.id}/users/${a.id}`, headers: bearer(owner.token) });
    expect(remove.statusCode).toBe(200);
    expect(json(remove)['message']).toBe('Succesfully removed user from the dashboard');
    const gone = await h.app.inject({ method: 'DELETE', url: `/manage/server/${server.id}/users/${a.id}`, headers: bearer(owner.token) });
    expect(gone.statusCode).toBe(404);
    expect(json(gone)['error']).toBe('That user is not a member of this server.');
    // The removed member no longer sees the server at all.
    const me = json<{ servers: unknown[] }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(a.token) }));
    expect(me.servers).toEqual([]);
  });
});
