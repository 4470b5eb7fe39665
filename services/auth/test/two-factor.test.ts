import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, codeAt, json, registerAndLogin, startHarness } from './support/harness.ts';
import type { Harness, Account } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: { twoFactorPerAccount: { limit: 4, windowMs: 60_000 } } });
});
afterAll(async () => h.close());

const STEP = 30_000;

interface Setup {
  readonly qr: string;
  readonly secret: string;
  readonly otpauth_url: string;
  readonly token: string;
}

/** Registers a user and turns 2FA on; returns the user (with the fresh token) and the seed. */
async function userWith2fa(): Promise<{ user: Account; secret: string }> {
  const user = await registerAndLogin(h);
  const setup = json<Setup>(await h.app.inject({ method: 'GET', url: '/2fa/setup', headers: bearer(user.token) }));
  h.clock += STEP;
  const verify = await h.app.inject({ method: 'POST', url: '/2fa/verify', headers: bearer(user.token), payload: { token: await codeAt(setup.secret, h.clock) } });
  expect(verify.statusCode).toBe(200);
  user.token = json<{ token: string }>(verify).token;
  return { user, secret: setup.secret };
}

describe('2FA setup, verify and disable', () => {
  it('setup answers a PNG data URL QR, the secret and the otpauth URI; verify enables and rotates the token', async () => {
    const user = await registerAndLogin(h);
    const res = await h.app.inject({ method: 'GET', url: '/2fa/setup', headers: bearer(user.token) });
    expect(res.statusCode).toBe(200);
    const setup = json<Setup>(res);
    expect(setup.qr.startsWith('data:image/png;base64,')).toBe(true);
    expect(setup.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(setup.otpauth_url).toContain(`secret=${setup.secret}`);
    expect(setup.otpauth_url.startsWith('otpauth://totp/Skald')).toBe(true);

    const bad = await h.app.inject({ method: 'POST', url: '/2fa/verify', headers: bearer(user.token), payload: { token: '000000' } });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)['error']).toBe('Invalid 2FA code');

    h.clock += STEP;
    const ok = await h.app.inject({ method: 'POST', url: '/2fa/verify', headers: bearer(user.token), payload: { token: await codeAt(setup.secret, h.clock) } });
    expect(ok.statusCode).toBe(200);
    const body = json<{ message: string; token: string }>(ok);
    expect(body.message).toBe('2FA successfully activated');
    // Enabling 2FA kills older tokens; the answer's token works.
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(user.token) })).statusCode).toBe(401);
    const me = json<{ user: { two_factor_enabled: boolean } }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(body.token) }));
    expect(me.user.two_factor_enabled).toBe(true);

    const again = await h.app.inject({ method: 'GET', url: '/2fa/setup', headers: bearer(body.token) });
    expect(again.statusCode).toBe(400);
    expect(json(again)['error']).toBe('2FA is already enabled.');
  });

  it('verify without setup is refused', async () => {
    const user = await registerAndLogin(h);
    const res = await h.app.inject({ method: 'POST', url: '/2fa/verify', headers: bearer(user.token), payload: { token: '123456' } });
    expect(res.statusCode).toBe(400);
    expect(json(res)['error']).toBe('Start the 2FA setup first.');
  });

  it('disable needs a valid code; an empty code has its own text; success rotates the token', async () => {
    const { user, secret } = await userWith2fa();
    const empty = await h.app.inject({ method: 'DELETE', url: '/2fa/disable', headers: bearer(user.token), payload: { token: '' } });
    expect(empty.statusCode).toBe(400);
    expect(json(empty)['error']).toBe('Please enter your 2FA code.');
    const wrong = await h.app.inject({ method: 'DELETE', url: '/2fa/disable', headers: bearer(user.token), payload: { token: '999999' } });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)['error']).toBe('Invalid 2FA code');
    h.clock += STEP;
    const ok = await h.app.inject({ method: 'DELETE', url: '/2fa/disable', headers: bearer(user.token), payload: { token: await codeAt(secret, h.clock) } });
    expect(ok.statusCode).toBe(200);
    const body = json<{ message: string; token: string }>(ok);
    expect(body.message).toBe('2FA is disabled');
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(user.token) })).statusCode).toBe(401);
    const notOn = await h.app.inject({ method: 'DELETE', url: '/2fa/disable', headers: bearer(body.token), payload: { token: '123456' } });
    expect(notOn.statusCode).toBe(400);
    expect(json(notOn)['error']).toBe('2FA is not enabled.');
    const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } });
    expect(json(login)['token']).toBeTypeOf('string');
  });
});

describe('login with 2FA', () => {
  it('answers twofa_required with a pre_token, then /auth/2fa-login answers token and servers', async () => {
    const { user, secret } = await userWith2fa();
    const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } });
    expect(login.statusCode).toBe(200);
    const step1 = json<{ twofa_required: boolean; pre_token: string; token?: string }>(login);
    expect(step1.twofa_required).toBe(true);
    expect(step1.token).toBeUndefined();
    h.clock += STEP;
    const step2 = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: step1.pre_token, code: await codeAt(secret, h.clock) } });
    expect(step2.statusCode).toBe(200);
    const body = json<{ token: string; servers: unknown[] }>(step2);
    expect(body.servers).toEqual([]);
    expect((await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(body.token) })).statusCode).toBe(200);
    // The pre-token is single use.
    const reuse = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: step1.pre_token, code: await codeAt(secret, h.clock + STEP) } });
    expect(reuse.statusCode).toBe(401);
    expect(json(reuse)['error']).toBe('Your 2FA session has expired. Please log in again.');
  });

  it('refuses a replayed code (accepted once only)', async () => {
    const { user, secret } = await userWith2fa();
    h.clock += STEP;
    const code = await codeAt(secret, h.clock);
    const pre1 = json<{ pre_token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } })).pre_token;
    expect((await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: pre1, code } })).statusCode).toBe(200);
    const pre2 = json<{ pre_token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } })).pre_token;
    const replay = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: pre2, code } });
    expect(replay.statusCode).toBe(401);
    expect(json(replay)['error']).toBe('Invalid 2FA code');
    // An older code (previous step) is refused too.
    const older = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: pre2, code: await codeAt(secret, h.clock - STEP) } });
    expect(older.statusCode).toBe(401);
  });

  it('expires the pre-token after 5 minutes', async () => {
    const { user, secret } = await userWith2fa();
    const pre = json<{ pre_token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } })).pre_token;
    const stored = await h.store.preTokens.findOne({ userId: user.id });
    expect(stored).not.toBeNull();
    expect(stored!.expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(stored!.expiresAt - Date.now()).toBeGreaterThan(4 * 60_000);
    await h.store.preTokens.updateOne({ _id: stored!._id }, { $set: { expiresAt: Date.now() - 1 } });
    h.clock += STEP;
    const res = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: pre, code: await codeAt(secret, h.clock) } });
    expect(res.statusCode).toBe(401);
    expect(json(res)['error']).toBe('Your 2FA session has expired. Please log in again.');
  });

  it('checks the code format and slows down repeated wrong codes with 429 + Retry-After', async () => {
    const { user, secret } = await userWith2fa();
    const pre = () => h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } }).then((r) => json<{ pre_token: string }>(r).pre_token);
    const p = await pre();
    const short = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: p, code: '12' } });
    expect(short.statusCode).toBe(400);
    expect(json(short)['error']).toBe('Please enter the complete 6-digit code');
    let statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: await pre(), code: '000001' } });
      statuses = [...statuses, r.statusCode];
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    h.clock += STEP;
    const blocked = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: await pre(), code: await codeAt(secret, h.clock) } });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a pre-token dies after 3 wrong codes', async () => {
    const { user, secret } = await userWith2fa();
    const p = json<{ pre_token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: user.username, password: user.password } })).pre_token;
    for (let i = 0; i < 3; i++) await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: p, code: '000002' } });
    h.clock += STEP;
    const res = await h.app.inject({ method: 'POST', url: '/auth/2fa-login', payload: { token: p, code: await codeAt(secret, h.clock) } });
    expect(res.statusCode).toBe(401);
    expect(json(res)['error']).toBe('Your 2FA session has expired. Please log in again.');
  });
});
