/**
 * Log redaction: secrets must never reach a log line. Three layers, each ONE rule for every route:
 *  1. the request serializer logs the URL through redactUrl: the value of every credential-bearing query
 *     parameter (SECRET_PARAM_NAMES: ?apiKey= of the public ingestion API, the signed photo URLs' ?t=,
 *     a bearer token tried as ?jwt=, ...) and every credential path segment (/reset-password/<token>)
 *     becomes [REDACTED]; Fastify would log req.url verbatim, and a URL copied from a log must not open
 *     anything;
 *  2. pino `redact` paths for headers and secret fields (SECRET_FIELDS), should anyone log them;
 *  3. errors are serialised ONCE, by the logger's `err` serializer (serializeError): callers log the raw
 *     error as `{ err: error }`; its message, stack and cause go through the same URL rule (some errors
 *     echo a URL or a `key=value`).
 */
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[REDACTED]';

/**
 * Query/form parameter names whose values are credentials. Matched case-insensitively, after
 * percent-decoding the name (`?%74=` is `?t=` to the query parser).
 */
export const SECRET_PARAM_NAMES = [
  't', // signed photo URLs: GET /photologs/image/:id?t=
  'jwt',
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'pre_token',
  'apiKey',
  'api_key',
  'key',
  'secret',
  'code',
  'password',
  'sig',
  'signature',
  'session',
  'auth',
  'authorization',
];

/**
 * Path prefixes whose next segment is a credential: the password-reset link the auth service mails
 * (`/reset-password/<token>`, a web route the gateway's SPA fallback serves) and the ingestion service's
 * Discord-shaped URLs (`/api/discord/<API key>/…`), on known and unknown routes alike.
 */
export const SECRET_PATH_PREFIXES = ['/reset-password/', '/discord/'];

/**
 * Field names that hold secrets wherever they appear: redacted in logged objects (below), and an answer
 * whose schema has one of them is never cached (no-store.ts).
 */
export const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'token',
  'code',
  'pre_token',
  'db_pass_enc',
  'apiKey',
  'api_key',
  'secret',
  'otpauth_url',
];

const SECRET_HEADERS = ['authorization', 'x-api-key', 'dd-api-key', 'cookie', 'set-cookie', 'proxy-authorization'];

const secretNames: ReadonlySet<string> = new Set(SECRET_PARAM_NAMES.map((name) => name.toLowerCase()));

/**
 * `name=value` where the name starts the text or follows a separator (`?`, `&`, `;`, whitespace, a quote
 * or bracket). The value runs to the next `&`, `#`, whitespace or quote: a `;` inside it is kept in the
 * value (so `?t=abc;def` is redacted whole) and the value is scanned again for `;name=` pairs.
 */
const PARAM = /(^|[?&;\s,(['"{])([^=&?#;\s,'"()[\]{}]+)=([^&#\s"']*)/g;

const secretPath = new RegExp(`(${SECRET_PATH_PREFIXES.map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[^/?#\\s"']+`, 'gi');

function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  if (secretNames.has(lower)) return true;
  if (!lower.includes('%') && !lower.includes('+')) return false;
  try {
    return secretNames.has(decodeURIComponent(lower.replace(/\+/g, ' ')).toLowerCase());
  } catch {
    return false;
  }
}

function redactParams(text: string): string {
  return text.replace(PARAM, (_match, lead: string, name: string, value: string) =>
    isSecretName(name) ? `${lead}${name}=${REDACTED}` : `${lead}${name}=${value.includes('=') ? redactParams(value) : value}`,
  );
}

/** Replaces credential values in a URL or any text that embeds one (query parameters and credential path segments). */
export function redactUrl(text: string): string {
  // Most logged URLs have no query and no reset link: nothing to scan.
  const pathRedacted = text.includes('/') ? text.replace(secretPath, `$1${REDACTED}`) : text;
  return pathRedacted.includes('=') ? redactParams(pathRedacted) : pathRedacted;
}

/** pino redact paths: headers under req/res/headers, and secret fields up to three levels deep. */
export function redactPaths(): string[] {
  const paths: string[] = [];
  for (const header of SECRET_HEADERS) {
    // `*.headers`: plugins log request headers under their own key (@fastify/multipart's busboyOptions at trace).
    paths.push(`req.headers["${header}"]`, `headers["${header}"]`, `res.headers["${header}"]`, `*.headers["${header}"]`);
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
  /**
   * The error's `code` (FST_ERR_..., ENOSPC). Not named `code`: that is a secret field name (2FA codes)
   * and the redact paths would censor it.
   */
  errorCode?: string;
  statusCode?: number;
  stack: string;
  cause?: SerializedError;
};

/** Causes deeper than this are left out (a cause chain can be a cycle). */
const MAX_CAUSE_DEPTH = 3;

/**
 * The logger's `err` serializer, and only that: callers log `{ err: error }` with the raw error. Anything
 * thrown is accepted (a non-Error keeps its `message`/`code` if it has them); text is redacted.
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (typeof error !== 'object' || error === null) return { type: typeof error, message: redactUrl(String(error)), stack: '' };
  const fields = error as { name?: unknown; message?: unknown; code?: unknown; statusCode?: unknown; stack?: unknown; cause?: unknown };
  const type = error instanceof Error ? error.name : (error.constructor?.name ?? 'object');
  const message = typeof fields.message === 'string' ? fields.message : error instanceof Error ? '' : safeText(error);
  return {
    type,
    message: redactUrl(message),
    ...(typeof fields.code === 'string' || typeof fields.code === 'number' ? { errorCode: String(fields.code) } : {}),
    ...(typeof fields.statusCode === 'number' ? { statusCode: fields.statusCode } : {}),
    stack: redactUrl(typeof fields.stack === 'string' ? fields.stack : ''),
    ...(fields.cause !== undefined && depth < MAX_CAUSE_DEPTH ? { cause: serializeError(fields.cause, depth + 1) } : {}),
  };
}

/** A thrown object without a message: its own string form if it has one, else its keys (never its values: they may be secrets). */
function safeText(value: object): string {
  const text = String(value);
  return text === '[object Object]' ? `object with keys ${Object.keys(value).join(', ') || '(none)'}` : text;
}
