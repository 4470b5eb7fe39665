/**
 * The admin area's changes of facts auth owns: site roles, the active flag and a server's members,
 * for staff with the site role admin or superadmin only; the 2FA rule; disabling ends sessions and sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteRole } from '@skald/contracts';
import { promoteUser } from '../src/index.ts';
import { bearer, createServer, eventData, json, registerAndLogin, startHarness, waitFor } from './support/harness.ts';
import type { Account, Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** A registered account with the site role, signed in again so its token carries it. */
async function staff(role: SiteRole, prefix: string = role): Promise<Account> {
  const account = await registerAndLogin(h, prefix);
  if (role !== 'user') await promoteUser(h.docs, h.bus, account.username, role);
  const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: account.username, password: account.password } });
  account.token = json<{ token: string }>(login).token;
  return account;
}

async function withTwoFactor(account: Account): Promise<void> {
  await h.store.users.updateOne({ _id: account.id }, { $set: { twoFactorEnabled: true } });
}

const put = (who: Account | null, url: string, payload: Record<string, unknown>) =>
  h.app.inject({ method: 'PUT', url, payload, ...(who ? { headers: bearer(who.token) } : {}) });

describe('staff changes of accounts and members (auth routes under /admin)', () => {
  it('role matrix: anonymous 401, default role and moderator 403, admin and superadmin pass', async () => {
    const owner = await registerAndLogin(h, 'owner');
    const server = await createServer(h, owner);
    const callers: [Account | null, number][] = [
      [null, 401],
      [await staff('user'), 403],
      [await staff('moderator'), 403],
      [await staff('admin'), 201],
      [await staff('superadmin'), 201],
    ];
    for (const [caller, status] of callers) {
      const target = await registerAndLogin(h, 'target');
      const headers = caller ? { headers: bearer(caller.token) } : {};
      const add = await h.app.inject({ method: 'POST', url: `/admin/servers/${server.id}/users`, payload: { email: target.email, role: 'user' }, ...headers });
      expect(add.statusCode, `add by ${caller?.username ?? 'anonymous'}`).toBe(status);
      const expected = status === 201 ? 200 : status;
      if (status === 201) expect(json(add)['message']).toBe('Succesfully added user to the server');
      const role = await put(caller, `/admin/servers/${server.id}/users/${target.id}`, { role: 'admin' });
      expect(role.statusCode).toBe(status === 201 ? 200 : status);
      await withTwoFactor(target);
      expect((await put(caller, `/admin/users/${target.id}/role`, { role: 'moderator' })).statusCode).toBe(expected);
      expect((await put(caller, `/admin/users/${target.id}/active`, { active: false })).statusCode).toBe(expected);
      // Free tier: two members at most, so each passing caller removes the member again.
      const removed = await h.app.inject({ method: 'DELETE', url: `/admin/servers/${server.id}/users/${target.id}`, ...headers });
      expect(removed.statusCode).toBe(expected);
    }
  });

  it("a role change needs the target's 2FA; the same role is a no-op; published with a staff audit entry", async () => {
    const admin = await staff('superadmin', 'sa');
    const target = await registerAndLogin(h, 'plain');
    const refused = await put(admin, `/admin/users/${target.id}/role`, { role: 'moderator' });
    expect(refused.statusCode).toBe(400);
    expect(json(refused)['error']).toBe('User must have 2FA enabled to change role');
    expect((await h.store.users.findOne({ _id: target.id }))?.siteRole).toBe('user');
    // Unchanged: answered without a change even without 2FA.
    const same = await put(admin, `/admin/users/${target.id}/role`, { role: 'user' });
    expect(json(same)).toEqual({ id: target.id, role: 'user', active: true });
    await withTwoFactor(target);
    const changed = await put(admin, `/admin/users/${target.id}/role`, { role: 'moderator' });
    expect(json(changed)).toEqual({ id: target.id, role: 'moderator', active: true });
    await waitFor(() =>
      h.published.some(
        (m) => m.headers['event-type'] === 'audit.recorded.v1' && eventData<{ action: string; actorId: string; details: { userId?: string } }>(m).action === 'user.site-role-changed' && eventData<{ details: { userId?: string } }>(m).details.userId === target.id,
      ),
    );
    const audit = h.published.filter((m) => m.headers['event-type'] === 'audit.recorded.v1').map((m) => eventData<{ action: string; actorId: string; actorEmail: string; details: { userId?: string } }>(m)).find((e) => e.details.userId === target.id);
    expect(audit).toMatchObject({ action: 'user.site-role-changed', actorId: admin.id, actorEmail: admin.email, details: { from: 'user', to: 'moderator' } });
    // The old token carried the old role: it is revoked.
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(target.token) })).statusCode).toBe(401);
    const again = await put(admin, `/admin/users/${target.id}/role`, { role: 'moderator' });
    expect(again.statusCode).toBe(200);
    expect(h.published.filter((m) => m.headers['event-type'] === 'user.site-role-changed.v1' && eventData<{ userId: string }>(m).userId === target.id)).toHaveLength(1);
  });

  it('rank rules: not oneself, an admin neither changes an admin nor gives more than admin', async () => {
    const admin = await staff('admin', 'adm');
    const otherAdmin = await staff('admin', 'adm2');
    const target = await registerAndLogin(h, 'tgt');
    await withTwoFactor(target);
    await withTwoFactor(admin);
    expect(json(await put(admin, `/admin/users/${admin.id}/role`, { role: 'superadmin' }))['error']).toBe('You cannot change your own role or status.');
    expect((await put(admin, `/admin/users/${admin.id}/active`, { active: false })).statusCode).toBe(403);
    expect(json(await put(admin, `/admin/users/${otherAdmin.id}/active`, { active: false }))['error']).toBe('You cannot change an account with a role at or above your own.');
    expect(json(await put(admin, `/admin/users/${target.id}/role`, { role: 'superadmin' }))['error']).toBe('You cannot give a role above your own.');
    expect((await put(admin, `/admin/users/${target.id}/role`, { role: 'admin' })).statusCode).toBe(200);
    expect((await put(admin, '/admin/users/nobody/active', { active: false })).statusCode).toBe(404);
    expect((await put(admin, `/admin/users/${target.id}/role`, { role: 'owner' })).statusCode).toBe(400);
  });

  it('disabling ends the sessions at once and refuses sign-in; enabling again lets the user in', async () => {
    const admin = await staff('admin', 'dis');
    const target = await registerAndLogin(h, 'victim');
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(target.token) })).statusCode).toBe(200);
    const disabled = await put(admin, `/admin/users/${target.id}/active`, { active: false });
    expect(json(disabled)).toEqual({ id: target.id, role: 'user', active: false });
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(target.token) })).statusCode).toBe(401);
    const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: target.username, password: target.password } });
    expect(login.statusCode).toBe(403);
    expect(json(login)['error']).toBe('This account is disabled.');
    await waitFor(() => h.published.some((m) => m.headers['event-type'] === 'user.active-changed.v1' && eventData<{ userId: string; active: boolean }>(m).userId === target.id));
    expect(h.published.some((m) => m.headers['event-type'] === 'user.sessions-revoked.v1' && eventData<{ userId: string; reason: string }>(m).reason === 'disabled' && eventData<{ userId: string }>(m).userId === target.id)).toBe(true);
    expect(json(await put(admin, `/admin/users/${target.id}/active`, { active: true }))['active']).toBe(true);
    const back = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: target.username, password: target.password } });
    expect(back.statusCode).toBe(200);
    await waitFor(() => h.published.some((m) => m.headers['event-type'] === 'user.signed-in.v1' && eventData<{ userId: string }>(m).userId === target.id));
  });

  it("server members: the owner stays locked, an unknown role is refused, empty fields answer the spec's text, staff entries audited", async () => {
    const admin = await staff('admin', 'mem');
    const owner = await registerAndLogin(h, 'own');
    const member = await registerAndLogin(h, 'mbr');
    const server = await createServer(h, owner);
    const url = `/admin/servers/${server.id}/users`;
    const empty = await h.app.inject({ method: 'POST', url, headers: bearer(admin.token), payload: { email: ' ', role: 'user' } });
    expect(empty.statusCode).toBe(400);
    expect(json(empty)['error']).toBe('Email and role are required');
    expect(json(await h.app.inject({ method: 'POST', url, headers: bearer(admin.token), payload: { email: member.email, role: '' } }))['error']).toBe('Email and role are required');
    const unknownRole = await h.app.inject({ method: 'POST', url, headers: bearer(admin.token), payload: { email: member.email, role: 'boss' } });
    expect(unknownRole.statusCode).toBe(400);
    expect(json(unknownRole)['error']).toBe('The role must be user, admin or owner.');
    expect((await h.app.inject({ method: 'POST', url: '/admin/servers/missing/users', headers: bearer(admin.token), payload: { email: member.email, role: 'user' } })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'POST', url, headers: bearer(admin.token), payload: { email: member.email, role: 'user' } })).statusCode).toBe(201);
    const locked = await put(admin, `${url}/${owner.id}`, { role: 'admin' });
    expect(locked.statusCode).toBe(403);
    expect(json(locked)['error']).toBe(
      "The owner's role cannot be changed and the owner cannot be removed. To hand the server over, give another member the owner role: the owner then becomes an admin.",
    );
    expect((await h.app.inject({ method: 'DELETE', url: `${url}/${owner.id}`, headers: bearer(admin.token) })).statusCode).toBe(403);
    expect(json(await put(admin, `${url}/${member.id}`, { role: 'admin' }))['message']).toBe('Succesfully changed user role');
    expect(json(await h.app.inject({ method: 'DELETE', url: `${url}/${member.id}`, headers: bearer(admin.token) }))['message']).toBe('Succesfully removed user from the server');
    await waitFor(() => {
      const actions = h.published
        .filter((m) => m.headers['event-type'] === 'audit.recorded.v1')
        .map((m) => eventData<{ action: string; serverId: string | null; actorId: string }>(m))
        .filter((e) => e.serverId === server.id && e.actorId === admin.id)
        .map((e) => e.action);
      return actions.join() === 'staff.member-added,staff.member-role-changed,staff.member-removed';
    });
  });
});
