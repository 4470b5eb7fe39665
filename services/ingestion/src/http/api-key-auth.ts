/**
 * The API-key check of the ingestion routes, declared per route as an onRequest hook: it runs before the
 * body is read or parsed, so an unknown or suspended key costs no JSON parse and no multipart read.
 * On success the key's owner is on `request.apiKeyOwner` (read it with apiKeyOwnerOf).
 *
 * Every ingestion answer, refusals included, gets the no-cache / no-referrer headers here, and a key sent
 * in the deprecated `?apiKey=` query is flagged in the answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { sendError } from '@skald/service-kit';
import { presentedKey } from '../domain/api-key.ts';
import type { KeySource, PresentedKey } from '../domain/api-key.ts';
import type { KeyDirectory, KeyOwner } from '../domain/key-directory.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API-key hook once the key resolved to a server that is not suspended. */
    apiKeyOwner: KeyOwner | null;
    /** Where the admitted key came from (POST /logs answers Fivemanage's way to a scheme-less Authorization). */
    apiKeySource: KeySource | null;
  }
}

export const INVALID_KEY = 'Invalid API key';
export const SUSPENDED = 'This server is suspended';
const QUERY_KEY_WARNING = '299 - "apiKey in the query string is deprecated; send the X-API-Key header"';

export type ApiKeyHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** Where a route finds the key: the native places by default; compatible routes add their own (http/compat). */
export type KeyFinder = (request: FastifyRequest) => PresentedKey | null;

const nativeKey: KeyFinder = (request) => presentedKey(request.headers, request.query);

/** Headers on every ingestion answer: nothing cached, no Referer leak of a query key. */
function baseHeaders(reply: FastifyReply, source: KeySource | undefined): void {
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  if (source === 'query') {
    reply.header('deprecation', 'true');
    reply.header('warning', QUERY_KEY_WARNING);
  }
}

/**
 * Builds the hook for the routes of `app` (decorates the request once per instance). Callback style, not
 * async: it is on every accepted log's path and needs no promise.
 */
export function apiKeyAuth(app: FastifyInstance, directory: KeyDirectory, findKey: KeyFinder = nativeKey): ApiKeyHook {
  if (!app.hasRequestDecorator('apiKeyOwner')) app.decorateRequest('apiKeyOwner', null);
  if (!app.hasRequestDecorator('apiKeySource')) app.decorateRequest('apiKeySource', null);
  return (request, reply, done) => {
    const key = findKey(request);
    baseHeaders(reply, key?.source);
    const owner = key === null ? null : directory.lookup(key.hash);
    // Same answer for a missing, malformed, rotated or unknown key: nothing to learn by probing.
    // Answering without calling done() ends the request here (Fastify's early-reply contract).
    if (owner === null) return void sendError(reply, 401, INVALID_KEY);
    if (owner.suspended) return void sendError(reply, 403, SUSPENDED);
    request.apiKeyOwner = owner;
    request.apiKeySource = key?.source ?? null;
    done();
  };
}

/** The owner the API-key hook admitted; throws if a route forgot to declare the hook. */
export function apiKeyOwnerOf(request: FastifyRequest): KeyOwner {
  if (request.apiKeyOwner === null) {
    throw new Error(`route ${request.routeOptions.url ?? ''} reads apiKeyOwner without the apiKeyAuth hook`);
  }
  return request.apiKeyOwner;
}
