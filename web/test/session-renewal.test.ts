import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSessionLostHandler } from '../src/app/api.ts';
import { keepSessionAlive, RETRY_AFTER_FAILURE_MS } from '../src/app/sessionKeeper.ts';
import { makeStore, type AppStore } from '../src/app/store.ts';
import { authApi } from '../src/features/auth/authApi.ts';
import { endSession } from '../src/features/auth/session.ts';
import { meAnswer } from './fixtures.ts';
import { json, mockApi } from './helpers.tsx';
import { accessToken, bearerOf } from './tokens.ts';

// A web session must last as long as the session is valid, not the one hour a token lives.
const START = Date.parse('2026-01-02T10:00:00.000Z');
const MINUTE = 60_000;

/** A tab: its store, wired as main.tsx wires it (a lost session ends here and sends the guards to /login). */
function openTab(token: string | null): { store: AppStore; stop: () => void; lost: () => number } {
  window.localStorage.setItem('token', token ?? '');
  if (token === null) window.localStorage.removeItem('token');
  const store = makeStore({ token, serverId: 's1', serverName: 'Alpha' });
  let lostCount = 0;
  const onSessionLost = () => {
    lostCount += 1;
    endSession(store.dispatch, true);
  };
  setSessionLostHandler(onSessionLost);
  const stop = keepSessionAlive(store, { onSessionLost });
  stops.push(stop);
  return { store, stop, lost: () => lostCount };
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
});

/** A server that hands out a fresh one-hour token for any token it still accepts. */
function refreshingServer(accepts: (token: string) => boolean = () => true) {
  let n = 0;
  const issued: string[] = [];
  const seen = mockApi({
    'POST /auth/refresh': (request) => {
      if (!accepts(bearerOf(request) ?? '')) return json({ error: 'Your session has expired or is invalid. Please log in again.' }, { status: 401 });
      n += 1;
      const token = accessToken({ id: `r${n}` });
      issued.push(token);
      return json({ token });
    },
  });
  const refreshes = () => seen.filter((r) => new URL(r.url).pathname === '/api/auth/refresh');
  return { seen, issued, refreshes };
}

describe('the session keeper renews the token before it expires', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });

  it('refreshes a little before expiry, again and again, so a tab left open for three hours stays signed in', async () => {
    const server = refreshingServer();
    const first = accessToken({ id: 'login' });
    const tab = openTab(first);
    await vi.advanceTimersByTimeAsync(54 * MINUTE);
    expect(server.refreshes()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(server.refreshes()).toHaveLength(1);
    expect(bearerOf(server.refreshes()[0]!)).toBe(first);
    expect(tab.store.getState().session.token).toBe(server.issued[0]);
    expect(window.localStorage.getItem('token')).toBe(server.issued[0]);

    await vi.advanceTimersByTimeAsync(3 * 60 * MINUTE);
    // One renewal per 55 minutes, each with the token the previous one answered.
    expect(server.refreshes()).toHaveLength(4);
    expect(server.refreshes().map(bearerOf)).toEqual([first, ...server.issued.slice(0, 3)]);
    expect(tab.store.getState().session.token).toBe(server.issued.at(-1));
    expect(tab.lost()).toBe(0);
  });

  it('renews at once a stored token that is already close to its end (a tab opened after a long pause)', async () => {
    const server = refreshingServer();
    openTab(accessToken({ issuedAt: START - 58 * MINUTE }));
    await vi.advanceTimersByTimeAsync(10);
    expect(server.refreshes()).toHaveLength(1);
  });

  it('ends a revoked session: the refresh is refused, storage is cleared and the guards send to /login', async () => {
    const server = refreshingServer(() => false);
    const tab = openTab(accessToken());
    await vi.advanceTimersByTimeAsync(56 * MINUTE);
    expect(server.refreshes()).toHaveLength(1);
    expect(tab.lost()).toBe(1);
    expect(tab.store.getState().session).toMatchObject({ token: null, lost: true });
    expect(window.localStorage.getItem('token')).toBeNull();
    // Nothing keeps trying once the session is over.
    await vi.advanceTimersByTimeAsync(3 * 60 * MINUTE);
    expect(server.refreshes()).toHaveLength(1);
  });

  it('keeps the session through a failed refresh (server unreachable) and tries again', async () => {
    let down = true;
    let n = 0;
    const seen = mockApi({
      'POST /auth/refresh': () => {
        if (down) throw new TypeError('Failed to fetch');
        n += 1;
        return json({ token: accessToken({ id: `after-outage-${n}` }) });
      },
    });
    const first = accessToken();
    const tab = openTab(first);
    await vi.advanceTimersByTimeAsync(55 * MINUTE + 1000);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS);
    expect(seen).toHaveLength(2);
    expect(tab.lost()).toBe(0);
    expect(tab.store.getState().session.token).toBe(first);
    down = false;
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS);
    expect(seen).toHaveLength(3);
    expect(tab.store.getState().session.token).toMatch(/signature-after-outage-1$/);
    expect(tab.lost()).toBe(0);
  });

  it('with two tabs open, one refreshes and the other takes its token (no race, one call)', async () => {
    // The Web Locks API as browsers have it: one holder at a time per name.
    let queue = Promise.resolve();
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: <T>(_name: string, callback: () => Promise<T>): Promise<T> => {
          const run = queue.then(callback);
          queue = run.then(() => undefined, () => undefined);
          return run;
        },
      },
    });
    const server = refreshingServer();
    const token = accessToken();
    const a = openTab(token);
    const b = openTab(token);
    await vi.advanceTimersByTimeAsync(56 * MINUTE);
    expect(server.refreshes()).toHaveLength(1);
    expect(a.store.getState().session.token).toBe(server.issued[0]);
    expect(b.store.getState().session.token).toBe(server.issued[0]);
    expect([a.lost(), b.lost()]).toEqual([0, 0]);
  });
});

describe('tabs follow each other through local storage', () => {
  function storageEvent(key: string | null, newValue: string | null) {
    window.dispatchEvent(new StorageEvent('storage', { key, newValue, storageArea: window.localStorage }));
  }

  it('takes a token another tab stored (after its password change), and signs out when another tab signs out', () => {
    mockApi({});
    const tab = openTab(accessToken({ id: 'old' }));
    const rotated = accessToken({ id: 'rotated' });
    window.localStorage.setItem('token', rotated);
    storageEvent('token', rotated);
    expect(tab.store.getState().session.token).toBe(rotated);

    window.localStorage.clear();
    storageEvent(null, null);
    expect(tab.store.getState().session.token).toBeNull();
    expect(tab.lost()).toBe(0);
  });

  it("drops the cached answers when another tab signed in as someone else", async () => {
    mockApi({ 'GET /auth/me': () => json(meAnswer()) });
    const tab = openTab(accessToken({ sub: 'u1' }));
    await tab.store.dispatch(authApi.endpoints.me.initiate(undefined));
    expect(authApi.endpoints.me.select(undefined)(tab.store.getState()).data?.user.username).toBe('ann');
    const other = accessToken({ sub: 'u2' });
    window.localStorage.setItem('token', other);
    storageEvent('token', other);
    expect(tab.store.getState().session.token).toBe(other);
    expect(authApi.endpoints.me.select(undefined)(tab.store.getState()).data).toBeUndefined();
  });
});

describe('a call refused with 401', () => {
  it('is retried once with a renewed token when the refusal was not a revocation', async () => {
    const stale = accessToken({ id: 'stale' });
    const renewed = accessToken({ id: 'renewed' });
    const seen = mockApi({
      'GET /auth/me': (request) => (bearerOf(request) === renewed ? json(meAnswer()) : json({ error: 'expired' }, { status: 401 })),
      'POST /auth/refresh': () => json({ token: renewed }),
    });
    const tab = openTab(stale);
    const result = await tab.store.dispatch(authApi.endpoints.me.initiate(undefined));
    expect(result.data?.user.username).toBe('ann');
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname} ${bearerOf(r) === renewed ? 'renewed' : 'stale'}`)).toEqual([
      'GET /api/auth/me stale',
      'POST /api/auth/refresh stale',
      'GET /api/auth/me renewed',
    ]);
    expect(tab.store.getState().session.token).toBe(renewed);
    expect(tab.lost()).toBe(0);
  });

  it('takes the token another tab already renewed instead of refreshing', async () => {
    const stale = accessToken({ id: 'stale' });
    const fromOtherTab = accessToken({ id: 'other-tab' });
    const seen = mockApi({ 'GET /auth/me': (request) => (bearerOf(request) === fromOtherTab ? json(meAnswer()) : json({ error: 'expired' }, { status: 401 })) });
    const tab = openTab(stale);
    window.localStorage.setItem('token', fromOtherTab);
    const result = await tab.store.dispatch(authApi.endpoints.me.initiate(undefined));
    expect(result.data?.user.username).toBe('ann');
    expect(seen.filter((r) => r.url.includes('/auth/refresh'))).toHaveLength(0);
    expect(tab.store.getState().session.token).toBe(fromOtherTab);
    // The other tab's token stays stored: this tab must not wipe it.
    expect(window.localStorage.getItem('token')).toBe(fromOtherTab);
  });

  it('keeps the session another tab signed in while its refused refresh was on the way (storage not wiped)', async () => {
    const revoked = accessToken({ id: 'revoked' });
    const signedInThere = accessToken({ id: 'signed-in-there' });
    const seen = mockApi({
      'GET /auth/me': (request) => (bearerOf(request) === signedInThere ? json(meAnswer()) : json({ error: 'revoked' }, { status: 401 })),
      'POST /auth/refresh': () => {
        // The other tab signs in while this refresh is on the way (its storage event not yet delivered).
        window.localStorage.setItem('token', signedInThere);
        return json({ error: 'revoked' }, { status: 401 });
      },
    });
    const tab = openTab(revoked);
    const result = await tab.store.dispatch(authApi.endpoints.me.initiate(undefined));
    expect(result.data?.user.username).toBe('ann');
    expect(seen.map((r) => `${new URL(r.url).pathname} ${bearerOf(r) === signedInThere ? 'new' : 'revoked'}`)).toEqual(['/api/auth/me revoked', '/api/auth/refresh revoked', '/api/auth/me new']);
    expect(tab.lost()).toBe(0);
    expect(tab.store.getState().session.token).toBe(signedInThere);
    expect(window.localStorage.getItem('token')).toBe(signedInThere);
  });

  it('ends a revoked session once: the refresh is refused too, and nothing is retried', async () => {
    const seen = mockApi({
      'GET /auth/me': () => json({ error: 'revoked' }, { status: 401 }),
      'POST /auth/refresh': () => json({ error: 'revoked' }, { status: 401 }),
    });
    const tab = openTab(accessToken());
    const result = await tab.store.dispatch(authApi.endpoints.me.initiate(undefined));
    expect(result.data).toBeUndefined();
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(['/api/auth/me', '/api/auth/refresh']);
    expect(tab.lost()).toBe(1);
    expect(tab.store.getState().session).toMatchObject({ token: null, lost: true });
  });

  it('ends the session when even the renewed token is refused (retried once only)', async () => {
    const seen = mockApi({
      'GET /auth/me': () => json({ error: 'no' }, { status: 401 }),
      'POST /auth/refresh': () => json({ token: accessToken({ id: 'renewed' }) }),
    });
    const tab = openTab(accessToken());
    await tab.store.dispatch(authApi.endpoints.me.initiate(undefined));
    expect(seen.filter((r) => r.url.includes('/auth/me'))).toHaveLength(2);
    expect(tab.lost()).toBe(1);
  });
});
