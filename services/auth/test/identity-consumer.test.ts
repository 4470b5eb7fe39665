/** Changes other services publish on the identity topic (admin area, billing) land in the auth service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserActiveChangedEvent, UserSiteRoleChangedEvent, identityMessage } from '@skald/contracts';
import type { UserSessionsRevoked } from '@skald/contracts';
import { bearer, eventData, json, registerAndLogin, startHarness, waitFor } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: { loginPerIp: { limit: 40, windowMs: 60_000 } } });
});
afterAll(async () => h.close());


describe('identity events from other publishers', () => {
  it('user.active-changed false disables the account: its tokens die and login answers 403', async () => {
    const u = await registerAndLogin(h);
    await h.bus.publish([identityMessage(UserActiveChangedEvent, { userId: u.id, active: false })]);
    await waitFor(async () => (await h.store.users.findOne({ _id: u.id }))?.active === false);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(401);
    const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } });
    expect(login.statusCode).toBe(403);
    await waitFor(() => h.published.some((m) => m.headers['event-type'] === 'user.sessions-revoked.v1' && eventData<UserSessionsRevoked>(m).userId === u.id));
    await h.bus.publish([identityMessage(UserActiveChangedEvent, { userId: u.id, active: true })]);
    await waitFor(async () => (await h.store.users.findOne({ _id: u.id }))?.active === true);
    expect((await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } })).statusCode).toBe(200);
  });

  it('user.site-role-changed sets the role shown by /auth/me and revokes older tokens', async () => {
    const u = await registerAndLogin(h);
    await h.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId: u.id, role: 'moderator' })]);
    await waitFor(async () => (await h.store.users.findOne({ _id: u.id }))?.siteRole === 'moderator');
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(401);
    const token = json<{ token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } })).token;
    const me = json<{ user: { role: string } }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(token) }));
    expect(me.user.role).toBe('moderator');
  });

  it('rate-limits logins per IP with 429 and Retry-After', async () => {
    const u = await registerAndLogin(h);
    let last = 0;
    for (let i = 0; i < 45 && last !== 429; i++) {
      last = (await h.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '203.0.113.9', payload: { username: `${u.username}x${i}`, password: 'whatever-pass' } })).statusCode;
    }
    expect(last).toBe(429);
    const blocked = await h.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '203.0.113.9', payload: { username: u.username, password: u.password } });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await h.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '203.0.113.10', payload: { username: u.username, password: u.password } })).statusCode).toBe(200);
  });
});
