import { createApi, fetchBaseQuery, type BaseQueryApi, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { TOTAL_CAPPED_HEADER } from '@skald/contracts/api';
import { API_BASE } from './apiBase.ts';
import { tokenReceived } from './sessionSlice.ts';
import { clearAllStored } from './storage.ts';
import { currentToken, renewToken } from './tokenRenewal.ts';

// The one RTK Query slice of the app; features add endpoints with injectEndpoints.
export { API_BASE };

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_BASE,
  prepareHeaders(headers, { getState }) {
    const token = currentToken({ getState });
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** Called when the server rejects our token for good; the shell installs the real handler. */
let onSessionLost: () => void = () => {
  clearAllStored();
};
export function setSessionLostHandler(handler: () => void): void {
  onSessionLost = handler;
}

/** What an endpoint may declare about itself (its `extraOptions`). */
export interface CallOptions {
  /**
   * The answer carries `token`, a new access token of this session (password change, 2FA setup, verify and
   * disable revoke the older ones): it is stored before the caller sees the answer, so every later call,
   * the caller's refetches included, goes out with it (docs/spec/part-2.txt section 4).
   */
  readonly issuesToken?: boolean;
}

/** Sign-in calls answer 401 for wrong credentials, which says nothing about a session. */
const SIGN_IN_PATHS = ['/auth/login', '/auth/2fa-login'];

function storeIssuedToken(data: unknown, api: BaseQueryApi): void {
  const token = typeof data === 'object' && data !== null ? (data as { token?: unknown }).token : undefined;
  // Signed out while the call ran: the answer must not bring the session back.
  if (typeof token === 'string' && token !== '' && currentToken(api) !== null) api.dispatch(tokenReceived(token));
}

/**
 * The token to send a refused call again with, 'lost' when the session is over, or null to give up
 * without ending anything (signed out meanwhile; the renewal could not reach the server).
 */
async function tokenAfterRefusal(sentToken: string, api: BaseQueryApi): Promise<string | 'lost' | null> {
  const current = currentToken(api);
  if (current === null) return null;
  // The token changed while the call was in flight (a password or 2FA change, a renewal): use the new one.
  if (current !== sentToken) return current;
  const outcome = await renewToken(sentToken, api);
  if (outcome.kind === 'renewed') return outcome.token;
  return outcome.kind === 'refused' && currentToken(api) === sentToken ? 'lost' : null;
}

// A 401 on an authenticated call: the token was refused. If the session can go on (the token was rotated
// meanwhile, another tab renewed it, or a renewal succeeds) the call is sent again once with the new token;
// if the server refuses the renewal too (a revoked session), it is the spec's session loss (docs/spec/part-1.txt section 4).
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, CallOptions> = async (args, api, extraOptions) => {
  const sentToken = currentToken(api);
  const url = typeof args === 'string' ? args : args.url;
  let result = await rawBaseQuery(args, api, extraOptions);
  if (result.error?.status === 401 && sentToken && !SIGN_IN_PATHS.some((path) => url.startsWith(path))) {
    const next = await tokenAfterRefusal(sentToken, api);
    if (next === 'lost') onSessionLost();
    else if (next !== null) {
      result = await rawBaseQuery(args, api, extraOptions);
      // Refused again with a token the server just handed out: the session is over.
      if (result.error?.status === 401 && currentToken(api) === next) onSessionLost();
    }
  }
  if (extraOptions?.issuesToken && result.error === undefined) storeIssuedToken(result.data, api);
  return result;
};

export const apiSlice = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Me', 'Usage', 'Logs', 'PhotoLogs', 'Stats', 'Colors', 'Levels'],
  endpoints: () => ({}),
});

/** True when the list's X-Total-Capped header says its total stopped at the server's count cap. */
export function totalCappedFromMeta(meta: { response?: Response } | undefined): boolean {
  return meta?.response?.headers.get(TOTAL_CAPPED_HEADER) === 'true';
}

/** Reads the X-Total-Count header that paged list endpoints send. */
export function totalFromMeta(meta: { response?: Response } | undefined, fallback: number): number {
  const header = meta?.response?.headers.get('X-Total-Count');
  const parsed = header === null || header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

/** Photo paths are relative URLs carrying their own access token; resolve them against the API base. */
export function resolveApiUrl(path: string): string {
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  if (path.startsWith(`${API_BASE}/`)) return path;
  if (path.startsWith('/')) return `${API_BASE}${path}`;
  return `${API_BASE}/${path}`;
}
