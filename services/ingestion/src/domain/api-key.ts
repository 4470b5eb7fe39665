/**
 * Where a client's API key comes from. Header forms are preferred (they stay out of access logs and
 * proxies); `?apiKey=` remains for compatibility with the original clients and is flagged as deprecated.
 * The key itself is only ever hashed (hashApiKey from the contracts, the hash the auth service publishes),
 * never stored or logged.
 */
import { hashApiKey } from '@skald/contracts';

/**
 * `raw`: `Authorization: <key>` without a scheme, as Fivemanage clients send it; `basic`: the password of
 * `Authorization: Basic` (Loki clients); `dd`: Datadog's `DD-API-KEY` header; `path`: a segment of the URL
 * (the Discord-shaped URLs, which is why the gateway's log redaction scrubs that segment).
 */
export type KeySource = 'header' | 'bearer' | 'query' | 'raw' | 'basic' | 'dd' | 'path';

export interface PresentedKey {
  readonly hash: string;
  readonly source: KeySource;
}

/** Keys are short random tokens; anything longer is refused before hashing. */
const MAX_KEY_LENGTH = 256;

/**
 * Recently presented keys and their hashes. A game server sends the same key on every request, and
 * hashing it each time was a visible share of a single-log request. The cache lives only in this
 * process's memory (where the key already is, in the request), is never logged, and is bounded:
 * when full it is cleared rather than evicted entry by entry, which costs one re-hash per live key.
 */
const MAX_CACHED_KEYS = 4096;
const recentHashes = new Map<string, string>();

function cachedHash(key: string): string {
  let hash = recentHashes.get(key);
  if (hash === undefined) {
    hash = hashApiKey(key);
    if (recentHashes.size >= MAX_CACHED_KEYS) recentHashes.clear();
    recentHashes.set(key, hash);
  }
  return hash;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function presentedKey(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  query: unknown,
): PresentedKey | null {
  const header = firstHeader(headers['x-api-key']);
  if (header) return usable(header.trim(), 'header');
  const authorization = firstHeader(headers['authorization']);
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return usable(match[1]!.trim(), 'bearer');
    // No scheme at all: the key itself, the Fivemanage way (its clients cannot send anything else).
    if (/^[^\s]+$/.test(authorization.trim())) return usable(authorization.trim(), 'raw');
  }
  if (typeof query === 'object' && query !== null) {
    const raw: unknown = (query as Record<string, unknown>)['apiKey'];
    const value = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
    if (typeof value === 'string') return usable(value.trim(), 'query');
  }
  return null;
}

/** A key found somewhere a compatible client puts it (http/compat/compat-keys.ts), hashed like the others. */
export function keyFrom(key: string, source: KeySource): PresentedKey | null {
  return usable(key.trim(), source);
}

function usable(key: string, source: KeySource): PresentedKey | null {
  if (key === '' || key.length > MAX_KEY_LENGTH) return null;
  return { hash: cachedHash(key), source };
}
