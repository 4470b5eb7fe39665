/**
 * Renewing the access token. One renewal per stale token per tab (concurrent callers share
 * it), and across tabs one at a time under a Web Lock: the tab that waited finds the token the first one
 * stored and takes it instead of asking again. POST /auth/refresh does not revoke the token it renews, so
 * even without locks (older browsers) two tabs renewing at once both end up with a valid token.
 */
import type { UnknownAction } from '@reduxjs/toolkit';
import { requestRefresh, type RefreshResult } from './sessionCalls.ts';
import { tokenReceived } from './sessionSlice.ts';
import { readStored, STORAGE_KEYS } from './storage.ts';
import { readTokenTimes, tokenSubject } from './tokenClaims.ts';

/** The part of the store renewal needs (the base query's api object has the same two members). */
export interface SessionStoreLike {
  dispatch(action: UnknownAction): unknown;
  getState(): unknown;
}

export function currentToken(store: Pick<SessionStoreLike, 'getState'>): string | null {
  return (store.getState() as { session: { token: string | null } }).session.token;
}

const RENEWAL_LOCK = 'skald-token-renewal';
const inFlight = new Map<string, Promise<RefreshResult>>();

/** Server clock minus this machine's, learnt from the iat of each token this tab obtained itself. */
let clockSkewMs = 0;

/** Now, on the server's clock as far as this tab knows it (a wrong local clock must not time renewals). */
export function serverNow(): number {
  return Date.now() + clockSkewMs;
}

function learnServerClock(freshToken: string): void {
  const times = readTokenTimes(freshToken);
  if (times) clockSkewMs = times.issuedAt - Date.now();
}

function withRenewalLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : (navigator as Partial<Navigator>).locks;
  return locks ? locks.request(RENEWAL_LOCK, work) : work();
}

/**
 * The token another tab stored in place of `staleToken` (a renewal, a password change, a new sign-in), taken
 * as this tab's when it is the same account's; 'unavailable' when another account signed in there (the storage
 * listener switches this tab; not a renewal); undefined when storage still holds the stale token or none.
 */
function storedSuccessor(staleToken: string, store: SessionStoreLike): RefreshResult | undefined {
  const stored = readStored(STORAGE_KEYS.token);
  if (stored === null || stored === staleToken) return undefined;
  if (tokenSubject(stored) !== tokenSubject(staleToken)) return { kind: 'unavailable' };
  store.dispatch(tokenReceived(stored));
  return { kind: 'renewed', token: stored };
}

async function renewNow(staleToken: string, store: SessionStoreLike): Promise<RefreshResult> {
  const current = currentToken(store);
  // This tab moved on meanwhile (a rotation, a renewal, a sign-out): nothing to renew.
  if (current !== staleToken) return current === null ? { kind: 'refused' } : { kind: 'renewed', token: current };
  const fromStorage = storedSuccessor(staleToken, store);
  if (fromStorage) return fromStorage;
  const result = await requestRefresh(staleToken);
  // Refused, but another tab signed in (or renewed) while the request ran: its token is the session now,
  // and ending the session here would wipe it from storage and sign that tab out too.
  if (result.kind === 'refused' && currentToken(store) === staleToken) return storedSuccessor(staleToken, store) ?? result;
  if (result.kind === 'renewed') {
    learnServerClock(result.token);
    // Signed out while the call ran: the answer must not bring the session back.
    if (currentToken(store) !== staleToken) return currentToken(store) === null ? { kind: 'refused' } : result;
    store.dispatch(tokenReceived(result.token));
  }
  return result;
}

/** Renews `staleToken` unless that already happened; resolves with the token to use from now on. */
export function renewToken(staleToken: string, store: SessionStoreLike): Promise<RefreshResult> {
  const running = inFlight.get(staleToken);
  if (running) return running;
  const renewal = withRenewalLock(() => renewNow(staleToken, store)).finally(() => inFlight.delete(staleToken));
  inFlight.set(staleToken, renewal);
  return renewal;
}
