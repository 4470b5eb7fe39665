/**
 * The access log: one "request completed" line per request instead of Fastify's two ("incoming request"
 * + "request completed"), carrying the redacted request, the status and the response time.
 *
 * The line is written by its own pino logger on the app logger's stream, WITHOUT pino's path redaction.
 * Redaction (redactPaths: secret headers and secret field names up to three levels deep, with leading
 * wildcards) walks every line it is given; on the access line, written for every request at info level,
 * it was a quarter of the CPU of a single-log ingestion request (profiled; docs/PERFORMANCE.md),
 * and it had nothing to find: the line is built here from a fixed set of fields, none of them a header or
 * a secret field name, and the one field that can carry a credential, the URL, has already been through
 * redactUrl (serializeRequest). The request id is a well-formed id (request-id.ts). Lines written by
 * handlers, errors and 404s keep going through the redacting logger.
 *
 * The line itself is assembled here, in pino's own format (level, time, pid, hostname, the fields, msg;
 * every string through JSON.stringify), and written to the stream: pino's generic serialisation of the
 * nested fields cost ~2.4 µs per line against ~1.2 µs. A stream that wants pino's metadata
 * (pino.multistream, which routes by level) gets the line from the pino writer instead.
 */
import { hostname } from 'node:os';
import { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { levels, pino, symbols } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { serializeRequest } from './redaction.ts';

const INFO = levels.values['info']!;
/** pino's base bindings, as pino writes them after level and time. */
const BASE = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

/** The stream the app's pino logger writes to (pino keeps it under a symbol). */
function streamOf(logger: FastifyBaseLogger): DestinationStream {
  const stream = (logger as unknown as Record<symbol, DestinationStream | undefined>)[symbols.streamSym];
  if (stream === undefined) throw new Error('access log: the app logger has no pino stream');
  return stream;
}

/** The completion line exactly as `pino({ level: 'info' }).info(fields, 'request completed')` writes it. */
export function accessLine(time: number, request: FastifyRequest, statusCode: number, responseTime: number): string {
  const req = serializeRequest(request);
  const remote = req.remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(req.remoteAddress)}`;
  return (
    `{"level":${INFO},"time":${time},${BASE},"reqId":${JSON.stringify(request.id)},` +
    `"req":{"method":${JSON.stringify(req.method)},"url":${JSON.stringify(req.url)}${remote}},` +
    `"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"request completed"}\n`
  );
}

export class AccessLogController extends LogController {
  #writer: Logger | null = null;
  #stream: DestinationStream | null = null;

  /** Binds the controller to the app's logger (its stream); call once the app exists. */
  attach(appLogger: FastifyBaseLogger): void {
    const stream = streamOf(appLogger);
    // Level 'info' and nothing else: the request's own level (route logLevel, app level) decides below.
    this.#writer = pino({ level: 'info' }, stream);
    this.#stream = (stream as unknown as Record<symbol, unknown>)[symbols.needsMetadataGsym] ? null : stream;
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
    if (this.#stream !== null) {
      this.#stream.write(accessLine(Date.now(), request, reply.statusCode, reply.elapsedTime));
      return;
    }
    this.#writer.info(
      { reqId: request.id, req: serializeRequest(request), res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}
