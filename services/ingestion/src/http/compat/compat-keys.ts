/**
 * Where each compatible client puts the server's API key (the key is then hashed and looked up exactly
 * like a native one, http/api-key-auth.ts). Every finder falls back to the native places (X-API-Key,
 * Bearer, ?apiKey=), so a user can always use those instead.
 */
import type { FastifyRequest } from 'fastify';
import { keyFrom, presentedKey } from '../../domain/api-key.ts';
import type { KeyFinder } from '../api-key-auth.ts';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const native: KeyFinder = (request) => presentedKey(request.headers, request.query);

/** Loki: the password of `Authorization: Basic` (ox_lib's loki:user / loki:password; the user is free). */
export const lokiKey: KeyFinder = (request) => {
  const basic = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header(request, 'authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return keyFrom(colon >= 0 ? decoded.slice(colon + 1) : decoded, 'basic');
  }
  return native(request);
};

/** Datadog: `DD-API-KEY`. */
export const datadogKey: KeyFinder = (request) => {
  const key = header(request, 'dd-api-key');
  return key ? keyFrom(key, 'dd') : native(request);
};

/** Fivemanage: `Authorization: <key>` with no scheme (presentedKey reads it as `raw`). */
export const fivemanageKey: KeyFinder = native;

/** Discord-shaped URLs: `/discord/{key}/…`. The gateway's log redaction scrubs this segment (SECRET_PATH_PREFIXES). */
export const pathKey: KeyFinder = (request) => {
  const key = (request.params as { key?: unknown }).key;
  return typeof key === 'string' ? keyFrom(key, 'path') : null;
};
