/**
 * The access log: one "request completed" line per request instead of Fastify's two ("incoming request"
 * + "request completed"), carrying the redacted request, the status and the response time.
 *
 * The line is written by its own pino logger on the app logger's stream, WITHOUT pino's path redaction.
 * Redaction (redactPaths: secret headers and secret field names up to three levels deep, with leading
 * wildcards) walks every line it is given; on the access line, written for every request at info level,
 * it was a quarter of the CPU of a single-log ingestion request (issue 18 profile, docs/PERFORMANCE.md),
 * and it had nothing to find: the line is built here from a fixed set of fields, none of them a header or
 * a secret field name, and the one field that can carry a credential, the URL, has already been through
 * redactUrl (serializeRequest). The request id is a well-formed id (request-id.ts). Lines written by
 * handlers, errors and 404s keep going through the redacting logger.
 */
import { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { levels, pino, symbols } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { serializeRequest } from './redaction.ts';

const INFO = levels.values['info']!;

/** The stream the app's pino logger writes to (pino keeps it under a symbol). */
function streamOf(logger: FastifyBaseLogger): DestinationStream {
  const stream = (logger as unknown as Record<symbol, DestinationStream | undefined>)[symbols.streamSym];
  if (stream === undefined) throw new Error('access log: the app logger has no pino stream');
  return stream;
}

export class AccessLogController extends LogController {
  #writer: Logger | null = null;

  /** Binds the controller to the app's logger (its stream); call once the app exists. */
  attach(appLogger: FastifyBaseLogger): void {
    // Level 'info' and nothing else: the request's own level (route logLevel, app level) decides below.
    this.#writer = pino({ level: 'info' }, streamOf(appLogger));
  }

  override incomingRequest(): void {
    // Folded into requestCompleted.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.#writer === null) {
      super.requestCompleted(error, request, reply);
      return;
    }
    // The request's logger knows the effective level (route logLevel, or the app's, changed live).
    const threshold = levels.values[reply.log.level];
    if (threshold === undefined || threshold > INFO) return;
    this.#writer.info(
      { reqId: request.id, req: serializeRequest(request), res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}
