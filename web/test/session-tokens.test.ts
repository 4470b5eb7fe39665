import type { MessageWithTokenAnswer, TwoFactorSetupAnswer } from '@skald/contracts/api';
import { describe, expect, it } from 'vitest';
import { setSessionLostHandler } from '../src/app/api.ts';
import { makeStore } from '../src/app/store.ts';
import { authApi } from '../src/features/auth/authApi.ts';
import { endSession } from '../src/features/auth/session.ts';
import { userApi } from '../src/features/user/userApi.ts';
import { meAnswer } from './fixtures.ts';
import { json, mockApi } from './helpers.tsx';
import { accessToken, bearerOf } from './tokens.ts';

// Wherever the server hands back a new token, the app stores it, so the next call
// goes out with it (the old one is revoked by password and 2FA changes).
function signedIn(token: string) {
  window.localStorage.setItem('token', token);
  const store = makeStore({ token, serverId: 's1', serverName: 'Alpha' });
  let lost = 0;
  setSessionLostHandler(() => {
    lost += 1;
    endSession(store.dispatch, true);
  });
  return { store, lost: () => lost };
}

describe('answers that carry a new token (docs/spec/part-2.txt section 4: stored after setup, verify and disable)', () => {
  const rotated = accessToken({ id: 'rotated' });
  const answers: [string, string, (store: ReturnType<typeof makeStore>) => Promise<unknown>][] = [
    ['PATCH /user/password', 'password change', (s) => s.dispatch(userApi.endpoints.changePassword.initiate({ currentPassword: 'a', newPassword: 'b' })).unwrap()],
    ['GET /2fa/setup', '2FA setup', (s) => s.dispatch(userApi.endpoints.setupTwoFactor.initiate(undefined)).unwrap()],
    ['POST /2fa/verify', '2FA verify', (s) => s.dispatch(userApi.endpoints.verifyTwoFactor.initiate({ token: '123456' })).unwrap()],
    ['DELETE /2fa/disable', '2FA disable', (s) => s.dispatch(userApi.endpoints.disableTwoFactor.initiate({ token: '123456' })).unwrap()],
  ];

  for (const [route, name, call] of answers) {
    it(`stores the token of the ${name} answer before the caller continues, in the store and in local storage`, async () => {
      const body: MessageWithTokenAnswer | TwoFactorSetupAnswer = route === 'GET /2fa/setup'
        ? { qr: 'data:image/png;base64,AAAA', secret: 'S', otpauth_url: 'otpauth://totp/x', token: rotated }
        : { message: 'ok', token: rotated };
      mockApi({ [route]: () => json(body) });
      const { store } = signedIn(accessToken({ id: 'before' }));
      await call(store);
      expect(store.getState().session.token).toBe(rotated);
      expect(window.localStorage.getItem('token')).toBe(rotated);
    });
  }

  it('never brings a session back: a token answered after the user signed out is not stored', async () => {
    let answer: (r: Response) => void = () => undefined;
    mockApi({ 'PATCH /user/password': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { store } = signedIn(accessToken({ id: 'before' }));
    const pending = store.dispatch(userApi.endpoints.changePassword.initiate({ currentPassword: 'a', newPassword: 'b' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    endSession(store.dispatch);
    answer(json({ message: 'ok', token: rotated }));
    await pending;
    expect(store.getState().session.token).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});

describe('a password change does not sign the user out', () => {
  it('a call that raced the change and was refused for the old token is sent again with the new one', async () => {
    const before = accessToken({ id: 'before' });
    const after = accessToken({ id: 'after' });
    let passwordChanged = false;
    let releaseMe: () => void = () => undefined;
    const meHeld = new Promise<void>((resolve) => (releaseMe = resolve));
    const seen = mockApi({
      // The server checks the token when the request arrives; this one arrives after the change.
      'GET /auth/me': async (request) => {
        if (bearerOf(request) === before) await meHeld;
        return passwordChanged && bearerOf(request) === before ? json({ error: 'revoked' }, { status: 401 }) : json(meAnswer());
      },
      'PATCH /user/password': () => {
        passwordChanged = true;
        return json({ message: 'Password updated.', token: after } satisfies MessageWithTokenAnswer);
      },
    });
    const { store, lost } = signedIn(before);
    const me = store.dispatch(authApi.endpoints.me.initiate(undefined));
    await store.dispatch(userApi.endpoints.changePassword.initiate({ currentPassword: 'a', newPassword: 'b' })).unwrap();
    releaseMe();
    const result = await me;
    expect(result.data?.user.username).toBe('ann');
    expect(lost()).toBe(0);
    expect(store.getState().session.token).toBe(after);
    expect(seen.filter((r) => r.url.includes('/auth/me')).map(bearerOf)).toEqual([before, after]);
    expect(seen.filter((r) => r.url.includes('/auth/refresh'))).toHaveLength(0);
  });

  it('another tab that still holds the old token takes the new one instead of wiping it from storage', async () => {
    const before = accessToken({ id: 'before' });
    const after = accessToken({ id: 'after' });
    mockApi({ 'GET /auth/me': (request) => (bearerOf(request) === after ? json(meAnswer()) : json({ error: 'revoked' }, { status: 401 })) });
    const otherTab = signedIn(before);
    // This tab changed the password and stored the new token.
    window.localStorage.setItem('token', after);
    const result = await otherTab.store.dispatch(authApi.endpoints.me.initiate(undefined));
    expect(result.data?.user.username).toBe('ann');
    expect(otherTab.lost()).toBe(0);
    expect(window.localStorage.getItem('token')).toBe(after);
  });
});
