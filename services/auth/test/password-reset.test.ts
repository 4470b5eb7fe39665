import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, codeAt, json, outboxMails, registerAndLogin, startHarness, TEST_PUBLIC_URL } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: { forgotPerAccount: { limit: 5, windowMs: 60_000 } } });
});
afterAll(async () => h.close());

const FORGOT_ANSWER = 'If an account with that e-mail address exists, a password reset link has been sent.';

function linkIn(mail: string): string {
  const match = /(https?:\/\/\S+\/reset-password\/([A-Za-z0-9_-]+))/.exec(mail);
  if (!match?.[1]) throw new Error('no reset link in mail');
  return match[1];
}

async function mailsTo(address: string): Promise<string[]> {
  return (await outboxMails(h)).filter((m) => m.includes(`To: ${address}`));
}

describe('forgot and reset password through the local outbox', () => {
  it('gives the same answer for known and unknown e-mails and mails only the known one', async () => {
    const u = await registerAndLogin(h);
    const known = await h.app.inject({ method: 'POST', url: '/auth/forgot-password', headers: { host: 'evil.example' }, payload: { email: u.email.toUpperCase() } });
    const unknown = await h.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: 'nobody-here@example.com' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(json(known)['message']).toBe(FORGOT_ANSWER);
    const mails = await mailsTo(u.email);
    expect(mails).toHaveLength(1);
    // The link uses the configured public URL, never the request's Host header.
    expect(linkIn(mails[0]!).startsWith(`${TEST_PUBLIC_URL}/reset-password/`)).toBe(true);
    expect(mails[0]).not.toContain('evil.example');
    expect((await outboxMails(h)).some((m) => m.includes('nobody-here@example.com'))).toBe(false);
  });

  it('resets with the mailed token once; the token is stored hashed; old sessions die', async () => {
    const u = await registerAndLogin(h);
    await h.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    const token = linkIn((await mailsTo(u.email))[0]!).split('/').pop()!;
    expect(await h.store.resetTokens.findOne({ _id: token })).toBeNull();
    expect(await h.store.resetTokens.count({ userId: u.id })).toBe(1);
    const reset = await h.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'a-new-password-1' } });
    expect(reset.statusCode).toBe(200);
    expect(json(reset)['message']).toBe('Password changed! You can log in now.');
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(u.token) })).statusCode).toBe(401);
    const again = await h.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'a-third-password' } });
    expect(again.statusCode).toBe(400);
    expect(json(again)['error']).toBe('This reset link is invalid or has expired.');
    const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: 'a-new-password-1' } });
    expect(json(login)['token']).toBeTypeOf('string');
  });

  it('refuses an expired token (30 minutes)', async () => {
    const u = await registerAndLogin(h);
    await h.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    const token = linkIn((await mailsTo(u.email))[0]!).split('/').pop()!;
    const row = await h.store.resetTokens.findOne({ userId: u.id });
    expect(row!.expiresAt - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(row!.expiresAt - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    await h.store.resetTokens.updateOne({ _id: row!._id }, { $set: { expiresAt: Date.now() - 1 } });
    const res = await h.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'a-new-password-2' } });
    expect(res.statusCode).toBe(400);
    expect(json(res)['error']).toBe('This reset link is invalid or has expired.');
  });

  it('never bypasses 2FA: after a reset the login still asks for a code', async () => {
    const u = await registerAndLogin(h);
    const setup = json<{ secret: string }>(await h.app.inject({ method: 'GET', url: '/2fa/setup', headers: bearer(u.token) }));
    h.clock += 30_000;
    expect((await h.app.inject({ method: 'POST', url: '/2fa/verify', headers: bearer(u.token), payload: { token: await codeAt(setup.secret, h.clock) } })).statusCode).toBe(200);
    await h.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    const token = linkIn((await mailsTo(u.email))[0]!).split('/').pop()!;
    const reset = await h.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password: 'after-reset-pass' } });
    expect(reset.statusCode).toBe(200);
    expect(json(reset)['token']).toBeUndefined();
    const login = json<{ twofa_required?: boolean; token?: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: 'after-reset-pass' } }));
    expect(login.twofa_required).toBe(true);
    expect(login.token).toBeUndefined();
  });

  it('rate-limits forgot-password per account with 429 and Retry-After', async () => {
    const u = await registerAndLogin(h);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await h.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const blocked = await h.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Only the newest link works: earlier ones were replaced.
    expect(await h.store.resetTokens.count({ userId: u.id })).toBe(1);
  });
});
