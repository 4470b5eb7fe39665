import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { clearAllStored } from './storage.ts';

// The one RTK Query slice of the app; features add endpoints with injectEndpoints.
export const API_BASE = '/api';

interface TokenHolder {
  session: { token: string | null };
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_BASE,
  prepareHeaders(headers, { getState }) {
    const token = (getState() as TokenHolder).session.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** Called when the server rejects our token; the shell installs the real handler. */
let onSessionLost: () => void = () => {
  clearAllStored();
};
export function setSessionLostHandler(handler: () => void): void {
  onSessionLost = handler;
}

// A 401 on an authenticated call means the stored token is no longer valid: treat it
// like the spec's session loss instead of leaving the user on a broken screen.
// Only when the rejected token is still the current one: a request that raced a token rotation
// (2FA enable/disable issue a new token) must not end the fresh session.
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const sentToken = (api.getState() as TokenHolder).session.token;
  const result = await rawBaseQuery(args, api, extra);
  const currentToken = (api.getState() as TokenHolder).session.token;
  const url = typeof args === 'string' ? args : args.url;
  if (result.error?.status === 401 && sentToken && sentToken === currentToken && !url.startsWith('/auth/login') && !url.startsWith('/auth/2fa-login')) {
    onSessionLost();
  }
  return result;
};

export const apiSlice = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Me', 'Usage', 'Logs', 'PhotoLogs', 'Stats', 'Colors', 'Levels'],
  endpoints: () => ({}),
});

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
