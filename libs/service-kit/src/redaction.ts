/**
 * Log redaction: secrets must never reach a log line. Three layers:
 *  1. the request serializer logs the URL with secret query values replaced (Fastify logs req.url
 *     verbatim by default, and ?apiKey= is part of the public ingestion API);
 *  2. pino `redact` paths for headers and body fields, should anyone log them;
 *  3. error messages and stacks are scrubbed with the same query rule (some Fastify errors echo the URL).
 */
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[REDACTED]';

/** Query/form parameter names whose values are secrets. Matched case-insensitively. */
export const SECRET_PARAM_NAMES = ['apiKey', 'api_key', 'key', 'token', 'access_token', 'pre_token', 'code', 'password', 'sig', 'signature'];

/** Body/object fields that are secrets wherever they appear in a logged object. */
export const SECRET_FIELDS = ['password', 'currentPassword', 'newPassword', 'token', 'code', 'pre_token', 'db_pass_enc', 'apiKey', 'api_key', 'secret'];

const SECRET_HEADERS = ['authorization', 'x-api-key', 'cookie', 'set-cookie', 'proxy-authorization'];

const secretParam = new RegExp(`([?&;](?:${SECRET_PARAM_NAMES.join('|')})=)[^&#\\s"']*`, 'gi');

/** Replaces secret query values in a URL or any text that embeds one. */
export function redactUrl(text: string): string {
  return text.replace(secretParam, `$1${REDACTED}`);
}

/** pino redact paths: headers under req/res/headers, and secret fields up to three levels deep. */
export function redactPaths(): string[] {
  const paths: string[] = [];
  for (const header of SECRET_HEADERS) {
    paths.push(`req.headers["${header}"]`, `headers["${header}"]`, `res.headers["${header}"]`);
  }
  for (const field of SECRET_FIELDS) {
    paths.push(field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`);
  }
  return paths;
}

// A type alias (not an interface) so it satisfies pino's index-signature serializer type.
export type SerializedRequest = {
  method: string;
  url: string;
  remoteAddress: string | undefined;
};

/** Never includes headers or body; the URL goes through redactUrl. */
export function serializeRequest(request: FastifyRequest): SerializedRequest {
  return {
    method: request.method,
    url: redactUrl(request.url),
    remoteAddress: request.ip,
  };
}

export type SerializedError = {
  type: string;
  message: string;
  code?: string;
  statusCode?: number;
  stack: string;
};

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactUrl(String(error)), stack: '' };
  const withCode = error as Error & { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: redactUrl(error.message),
    ...(typeof withCode.code === 'string' ? { code: withCode.code } : {}),
    ...(typeof withCode.statusCode === 'number' ? { statusCode: withCode.statusCode } : {}),
    stack: redactUrl(error.stack ?? ''),
  };
}
