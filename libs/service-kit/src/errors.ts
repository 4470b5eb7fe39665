/**
 * The ONE error shape every Skald API answer uses:
 *   { "error": "<message shown to the user>", "message": "<the same text or more detail>" }
 * `error` is what the web app displays (the spec's clients read `error`, e.g.
 * 'That server name is already taken.'); `message` repeats it or adds detail for developers.
 * 4xx texts pass through; every 5xx is masked as 'Internal Server Error' (details only in the log).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeValidationIssues, type ValidationIssue } from '@skald/contracts';
import { redactUrl } from './redaction.ts';

export interface ErrorBody {
  readonly error: string;
  readonly message: string;
}

/**
 * Fields some answers add beside error and message (ingestion's `field` naming the refused input,
 * its `usage` on a 429, `retryAfter` for clients that cannot read headers). Never `error` or `message`.
 */
export type ErrorExtra = Readonly<Record<string, unknown>>;

export function errorBody(error: string, message: string = error, extra: ErrorExtra = {}): ErrorBody {
  return { ...extra, error, message };
}

/** Throw from a handler to answer with a status and a user-facing message. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly statusCode: number;
  /** Extra detail for the `message` field (defaults to the user message). */
  readonly detail: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly extra: ErrorExtra;

  constructor(
    statusCode: number,
    userMessage: string,
    options: { detail?: string; headers?: Record<string, string>; extra?: ErrorExtra } = {},
  ) {
    super(userMessage);
    this.statusCode = statusCode;
    this.detail = options.detail;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export function sendError(reply: FastifyReply, statusCode: number, error: string, message?: string, extra?: ErrorExtra): FastifyReply {
  return reply.code(statusCode).type('application/json; charset=utf-8').send(errorBody(error, message, extra));
}

/**
 * 'body/username must NOT have fewer than 3 characters' -> 'Username must be at least 3 characters.': the ONE
 * formatter of refused fields (@skald/contracts validation-messages.ts), which the web's form checks share.
 * `message` carries the same sentence: the spec's register screen shows `message` first (docs/spec/part-1.txt section 8); the
 * validator's own issue stays in the log line.
 */
function describeValidation(error: FastifyError): string {
  const issues = (error.validation as readonly ValidationIssue[] | undefined) ?? [];
  return describeValidationIssues(issues) ?? 'The request is not valid.';
}

const FASTIFY_CLIENT_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body must not be empty',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
};

/** 5xx answers never carry the internal message; these keep their status with the standard phrase. */
const MASKED_5XX: Readonly<Record<number, string>> = {
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Errors are logged raw (`err: error`): the logger's `err` serializer (redaction.ts serializeError) is the
 * one place that turns them into a redacted { type, message, stack, cause }.
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.validation) {
    const text = describeValidation(error);
    request.log.info({ statusCode: 400, err: error }, 'request validation failed');
    return sendError(reply, 400, text);
  }
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  // Declared headers and extra fields (Retry-After, retryAfter) are meant for clients, also on a 5xx.
  if (error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    const masked = MASKED_5XX[status];
    const extra = error instanceof HttpError ? error.extra : {};
    return masked ? sendError(reply, status, masked, masked, extra) : sendError(reply, 500, 'Internal Server Error');
  }
  if (error instanceof HttpError) return sendError(reply, status, error.message, error.detail ?? error.message, error.extra);
  const text = (error.code && FASTIFY_CLIENT_MESSAGES[error.code]) || error.message || 'Bad Request';
  request.log.info({ statusCode: status, err: error }, 'request refused');
  return sendError(reply, status, text);
}

/** 404 without the raw URL in the log line (Fastify's default one logs it, query string included). */
export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The path alone, and still through the URL rule: a credential can sit in a path segment (/reset-password/<token>).
  const path = redactUrl(request.url.split('?')[0]!);
  request.log.info({ method: request.method, path }, 'route not found');
  return sendError(reply, 404, 'Not Found', `Route ${request.method} ${path} not found`);
}

export function installErrorHandlers(
  app: FastifyInstance,
  notFound: (request: FastifyRequest, reply: FastifyReply) => unknown = handleNotFound,
): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(notFound);
}
