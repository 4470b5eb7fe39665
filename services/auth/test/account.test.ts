import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '@skald/service-kit';
import { bearer, json, registerAndLogin, startHarness, uniqueName, waitFor, eventTypes } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: { loginPerAccount: { limit: 3, windowMs: 60_000 } } });
});
afterAll(async () => h.close());

describe('POST /auth/register', () => {
  it('creates an account (201) and publishes user.registered plus an audit entry', async () => {
    const username = uniqueName('reg');
    const res = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username, password: 'longenough1', email: `${username}@Example.com` } });
    expect(res.statusCode).toBe(201);
    expect(json(res)['message']).toBe('Registered! You can log in now.');
    const stored = await h.store.users.findOne({ usernameLower: username.toLowerCase() });
    expect(stored?.email).toBe(`${username.toLowerCase()}@example.com`);
    expect(stored?.siteRole).toBe('user');
    await waitFor(() => eventTypes(h).includes('user.registered.v1') && eventTypes(h).includes('audit.recorded.v1'));
  });

  it('refuses a taken username (any case) and a taken e-mail with 409 and the texts', async () => {
    const u = await registerAndLogin(h);
    const sameName = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username: u.username.toUpperCase(), password: 'longenough1', email: 'other@example.com' } });
    expect(sameName.statusCode).toBe(409);
    expect(json(sameName)).toEqual({ error: 'That username is already taken.', message: 'That username is already taken.' });
    const sameMail = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username: uniqueName('x'), password: 'longenough1', email: u.email.toUpperCase() } });
    expect(sameMail.statusCode).toBe(409);
    expect(json(sameMail)['error']).toBe('That e-mail address is already registered.');
  });

  it('refuses operator objects, short passwords and ignores/refuses fields the caller may not set', async () => {
    const op = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username: { $ne: null }, password: 'longenough1', email: 'a@b.co' } });
    expect(op.statusCode).toBe(400);
    const short = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username: uniqueName('s'), password: 'short', email: 'a@b.co' } });
    expect(short.statusCode).toBe(400);
    const username = uniqueName('mass');
    const mass = await h.app.inject({ method: 'POST', url: '/auth/register', payload: { username, password: 'longenough1', email: `${username}@example.com`, role: 'superadmin' } });
    // Fastify's Ajv strips unknown fields (removeAdditional) or refuses them: either way no superadmin.
    if (mass.statusCode === 201) {
      expect((await h.store.users.findOne({ usernameLower: username.toLowerCase() }))?.siteRole).toBe('user');
    } else {
      expect(mass.statusCode).toBe(400);
    }
  });
});

describe('POST /auth/login and GET /auth/me', () => {
  it('answers token and servers, and /auth/me returns the user and servers with roles', async () => {
    const u = await registerAndLogin(h);
    const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } });
    expect(login.statusCode).toBe(200);
    const body = json<{ token: string; servers: unknown[] }>(login);
    expect(body.token.split('.')).toHaveLength(3);
    expect(body.servers).toEqual([]);
    const created = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(body.token), payload: { name: uniqueName('me') } });
    const server = json<{ id: string; name: string }>(created);
    const me = await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect(json(me)).toEqual({
      user: { id: u.id, username: u.username, email: u.email, role: 'user', two_factor_enabled: false },
      servers: [{ id: server.id, name: server.name, role: 'owner' }],
    });
  });

  it('refuses a wrong password and an unknown user with the same 401 text', async () => {
    const u = await registerAndLogin(h);
    const wrong = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: 'wrong-password' } });
    const unknown = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: uniqueName('nobody'), password: 'wrong-password' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(json(wrong)['error']).toBe('Invalid username or password.');
    expect(json(unknown)['error']).toBe('Invalid username or password.');
  });

  it('refuses operator objects in the login body with 400', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: { $ne: null } } });
    expect(res.statusCode).toBe(400);
  });

  it('rate-limits failed logins per account: 429 with Retry-After, even with the right password', async () => {
    const u = await registerAndLogin(h);
    for (let i = 0; i < 3; i++) {
      const r = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: 'wrong-password' } });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(json(blocked)['error']).toBe('Too many attempts. Please try again later.');
  });

  it('answers 401 without a token, with a garbage token and with an alg:none token', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/auth/me' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer('a.b.c') })).statusCode).toBe(401);
    const u = await registerAndLogin(h);
    const [, payload] = u.token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const res = await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(none) });
    expect(res.statusCode).toBe(401);
    expect(json(res)['error']).toBe('Your session has expired or is invalid. Please log in again.');
  });

  it('refuses a disabled account with 403 after the right password', async () => {
    const u = await registerAndLogin(h);
    await h.store.users.updateOne({ _id: u.id }, { $set: { active: false } });
    const res = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } });
    expect(res.statusCode).toBe(403);
    expect(json(res)['error']).toBe('This account is disabled.');
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(401);
  });
});

describe('token revocation', () => {
  it('kills every older token when the password changes; the answer carries a working new token', async () => {
    const u = await registerAndLogin(h);
    const second = json<{ token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } })).token;
    const change = await h.app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(u.token), payload: { currentPassword: u.password, newPassword: 'brand-new-password' } });
    expect(change.statusCode).toBe(200);
    const fresh = json<{ token: string; message: string }>(change);
    expect(fresh.message).toBe('Password updated.');
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(second) })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(fresh.token) })).statusCode).toBe(200);
    await waitFor(() => h.published.some((m) => m.headers['event-type'] === 'user.sessions-revoked.v1' && (m.payload as { data: { userId: string } }).data.userId === u.id));
    const oldLogin = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } });
    expect(oldLogin.statusCode).toBe(401);
  });

  it('kills the token on logout', async () => {
    const u = await registerAndLogin(h);
    expect((await h.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(u.token) })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(401);
  });

  it('refresh gives a new token of the same session', async () => {
    const u = await registerAndLogin(h);
    const res = await h.app.inject({ method: 'POST', url: '/auth/refresh', headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(json<{ token: string }>(res).token) })).statusCode).toBe(200);
  });

  it('renews a token that expired within the grace (a tab that slept), never one past it or a revoked one', async () => {
    const u = await registerAndLogin(h);
    const claims = JSON.parse(Buffer.from(u.token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; role: 'user'; tv: number };
    const hour = 3600_000;
    const expiredAnHourAgo = signAccessToken(h.keys, claims, 3600, Date.now() - 2 * hour);
    const expiredTwoDaysAgo = signAccessToken(h.keys, claims, 3600, Date.now() - 49 * hour);
    // Expired means expired everywhere else, /auth/me included.
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(expiredAnHourAgo) })).statusCode).toBe(401);
    const renewed = await h.app.inject({ method: 'POST', url: '/auth/refresh', headers: bearer(expiredAnHourAgo) });
    expect(renewed.statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(json<{ token: string }>(renewed).token) })).statusCode).toBe(200);
    const tooLate = await h.app.inject({ method: 'POST', url: '/auth/refresh', headers: bearer(expiredTwoDaysAgo) });
    expect(tooLate.statusCode).toBe(401);
    expect(json(tooLate)['error']).toBe('Your session has expired or is invalid. Please log in again.');
    // Logging out revokes every token of the user, expired ones too: nothing left to renew.
    await h.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(json<{ token: string }>(renewed).token) });
    expect((await h.app.inject({ method: 'POST', url: '/auth/refresh', headers: bearer(expiredAnHourAgo) })).statusCode).toBe(401);
  });
});

describe('PATCH /user/*', () => {
  it('changes username and e-mail, refusing taken ones with 409', async () => {
    const a = await registerAndLogin(h);
    const b = await registerAndLogin(h);
    const newName = uniqueName('renamed');
    const ok = await h.app.inject({ method: 'PATCH', url: '/user/username', headers: bearer(a.token), payload: { username: newName } });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)['message']).toBe('Username updated.');
    const taken = await h.app.inject({ method: 'PATCH', url: '/user/username', headers: bearer(a.token), payload: { username: b.username } });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)['error']).toBe('That username is already taken.');
    const mail = await h.app.inject({ method: 'PATCH', url: '/user/email', headers: bearer(a.token), payload: { email: `${newName}@new.example.com` } });
    expect(mail.statusCode).toBe(200);
    expect(json(mail)['message']).toBe('E-mail updated.');
    const mailTaken = await h.app.inject({ method: 'PATCH', url: '/user/email', headers: bearer(a.token), payload: { email: b.email } });
    expect(mailTaken.statusCode).toBe(409);
    expect(json(mailTaken)['error']).toBe('That e-mail address is already registered.');
    const me = json<{ user: { username: string; email: string } }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(a.token) }));
    expect(me.user).toMatchObject({ username: newName, email: `${newName}@new.example.com` });
  });

  it('needs the current password to change the password', async () => {
    const u = await registerAndLogin(h);
    const res = await h.app.inject({ method: 'PATCH', url: '/user/password', headers: bearer(u.token), payload: { currentPassword: 'not-it-at-all', newPassword: 'another-password' } });
    expect(res.statusCode).toBe(400);
    expect(json(res)['error']).toBe('Your current password is incorrect.');
    expect((await h.app.inject({ method: 'PATCH', url: '/user/username', payload: { username: 'whatever' } })).statusCode).toBe(401);
  });
});
