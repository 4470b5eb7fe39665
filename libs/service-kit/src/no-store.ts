/**
 * Answers that carry a secret (an access token, a 2FA pre_token, a TOTP secret, an API key) are sent with
 * `Cache-Control: no-store`, so no browser or proxy cache keeps them. One rule, decided from each route's
 * declared answer: a route whose 2xx response schema has a field named in SECRET_FIELDS (redaction.ts)
 * gets the header on every answer, when it is registered. A new route that hands out a secret is covered
 * by declaring its answer, which every route does (docs/ARCHITECTURE.md).
 */
import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import { SECRET_FIELDS } from './redaction.ts';

const secretFields: ReadonlySet<string> = new Set(SECRET_FIELDS);

/** Deep enough for any answer schema (objects in arrays in unions); a schema is never this deep. */
const MAX_SCHEMA_DEPTH = 32;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** True when a JSON schema (or any part of it: properties, items, anyOf, content) declares a secret field. */
export function schemaCarriesSecret(schema: unknown, depth = 0): boolean {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return false;
  const properties = schema['properties'];
  if (isRecord(properties) && Object.keys(properties).some((name) => secretFields.has(name))) return true;
  return Object.values(schema).some((part) => schemaCarriesSecret(part, depth + 1));
}

/** The route's successful answers (2xx, 2XX or default) carry a secret. */
export function answerCarriesSecret(response: unknown): boolean {
  if (!isRecord(response)) return false;
  return Object.entries(response).some(([status, schema]) => (status.startsWith('2') || status === 'default') && schemaCarriesSecret(schema));
}

const noStore: onRequestHookHandler = (_request, reply, done) => {
  reply.header('cache-control', 'no-store');
  done();
};

function withNoStore(existing: RouteOptions['onRequest']): onRequestHookHandler[] {
  const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  // First, so every answer of the route carries it, also one an earlier hook ends (a 401).
  return [noStore, ...(hooks as onRequestHookHandler[])];
}

/** Installs the rule on an app; routes registered afterwards, in any plugin, are covered. */
export function installNoStoreForSecrets(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (answerCarriesSecret(route.schema?.response)) route.onRequest = withNoStore(route.onRequest);
  });
}
