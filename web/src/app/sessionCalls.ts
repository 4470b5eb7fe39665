/**
 * The two auth calls that carry a token chosen by the caller rather than the store's: renewing a given
 * token, and revoking the token of a session that this tab has already forgotten. Plain fetch, outside RTK
 * Query, so a 401 here never runs the session-loss handling of the app's base query.
 */
import { API_BASE } from './apiBase.ts';

export type RefreshResult =
  | { readonly kind: 'renewed'; readonly token: string }
  /** The server refused the token (revoked, expired, account disabled): the session is over. */
  | { readonly kind: 'refused' }
  /** No answer, or one that says nothing about the session (5xx, garbage): try again later. */
  | { readonly kind: 'unavailable' };

/** POST /auth/refresh with `token`: a fresh token of the same session. */
export async function requestRefresh(token: string): Promise<RefreshResult> {
  try {
    const response = await fetch(`${API_BASE}/auth/refresh`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    if (response.status === 401 || response.status === 403) return { kind: 'refused' };
    if (!response.ok) return { kind: 'unavailable' };
    const body = (await response.json()) as unknown;
    const fresh = typeof body === 'object' && body !== null ? (body as { token?: unknown }).token : undefined;
    return typeof fresh === 'string' && fresh !== '' ? { kind: 'renewed', token: fresh } : { kind: 'unavailable' };
  } catch {
    return { kind: 'unavailable' };
  }
}

/**
 * POST /auth/logout with `token` (docs/spec/part-1.txt section 2): the server revokes the user's tokens.
 * Best effort: the caller has already signed out locally, so a failure changes nothing here; keepalive
 * lets the request finish even if the page goes away right after.
 */
export async function requestLogout(token: string): Promise<void> {
  try {
    await fetch(`${API_BASE}/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, keepalive: true });
  } catch {
    // Offline or server down: the token still dies at its expiry; nothing more this tab can do.
  }
}
