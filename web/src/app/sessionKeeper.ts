/**
 * Keeps a signed-in tab signed in for as long as the session is valid: access tokens live
 * one hour, so the token is renewed a little before it expires, and tabs follow each other through local
 * storage (the spec's "signed-in state is the stored token"): a token another tab stored (a renewal, a
 * password change) is taken over, and a sign-out in one tab signs the others out.
 */
import { apiSlice } from './api.ts';
import { loggedOut, tokenReceived } from './sessionSlice.ts';
import { readStored, STORAGE_KEYS } from './storage.ts';
import { readTokenTimes, tokenSubject } from './tokenClaims.ts';
import { currentToken, renewToken, serverNow, type SessionStoreLike } from './tokenRenewal.ts';

/** Renew this long before expiry: 5 minutes of a 1-hour token (throttled background tabs fire timers late). */
const MAX_MARGIN_MS = 5 * 60_000;
/** After a failed renewal (no answer), try again this much later while the token lasts. */
export const RETRY_AFTER_FAILURE_MS = 30_000;
/** Never renew twice within this long, whatever the clocks say (a token that looks expired at once). */
const MIN_GAP_MS = 30_000;
/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface KeepAliveOptions {
  /** The session ended on the server (renewal refused): the same handler as a refused call. */
  onSessionLost(): void;
}

interface KeeperStore extends SessionStoreLike {
  subscribe(listener: () => void): () => void;
}

/** Milliseconds until `token` should be renewed, or null for a token without readable times. */
export function renewalDelay(token: string, now: number): number | null {
  const times = readTokenTimes(token);
  if (!times) return null;
  const margin = Math.min(MAX_MARGIN_MS, (times.expiresAt - times.issuedAt) / 10);
  return Math.max(0, times.expiresAt - margin - now);
}

/** Starts renewal and cross-tab sync for `store`; returns the function that stops both. */
export function keepSessionAlive(store: KeeperStore, options: KeepAliveOptions): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scheduledFor: string | null = null;
  let lastRenewalAt = Number.NEGATIVE_INFINITY;

  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  const schedule = (token: string | null, delayOverride?: number) => {
    cancel();
    scheduledFor = token;
    if (token === null) return;
    const delay = delayOverride ?? renewalDelay(token, serverNow());
    if (delay === null) return;
    const wait = Math.min(MAX_TIMER_MS, Math.max(delay, lastRenewalAt + MIN_GAP_MS - Date.now()));
    timer = setTimeout(() => void renew(token), wait);
  };

  const renew = async (token: string) => {
    timer = undefined;
    lastRenewalAt = Date.now();
    const outcome = await renewToken(token, store);
    if (currentToken(store) !== token) return; // the store subscription scheduled the new token
    if (outcome.kind === 'refused') options.onSessionLost();
    else schedule(token, RETRY_AFTER_FAILURE_MS);
  };

  const unsubscribe = store.subscribe(() => {
    const token = currentToken(store);
    if (token !== scheduledFor) schedule(token);
  });

  // Another tab wrote the token (key 'token') or cleared everything (key null).
  const onStorage = (event: StorageEvent) => {
    if (event.storageArea !== window.localStorage || (event.key !== null && event.key !== STORAGE_KEYS.token)) return;
    const stored = readStored(STORAGE_KEYS.token);
    const current = currentToken(store);
    if (stored === current) return;
    if (stored === null) {
      // Signed out there (log out clears everything): this tab is signed out too.
      store.dispatch(loggedOut());
      store.dispatch(apiSlice.util.resetApiState());
      return;
    }
    store.dispatch(tokenReceived(stored));
    // Another account signed in there: nothing cached for the previous one may show here.
    if (tokenSubject(stored) !== tokenSubject(current)) store.dispatch(apiSlice.util.resetApiState());
  };

  // A tab coming back to the front may have slept through its timer: look again at once.
  const onVisible = () => {
    if (document.visibilityState === 'visible') schedule(currentToken(store));
  };

  window.addEventListener('storage', onStorage);
  document.addEventListener('visibilitychange', onVisible);
  schedule(currentToken(store));

  return () => {
    cancel();
    unsubscribe();
    window.removeEventListener('storage', onStorage);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
