/**
 * Request ids: the gateway generates one per request and passes it on in `x-request-id`; services
 * accept a well-formed incoming id (so one id follows a request across processes) and echo it.
 * Anything not matching the pattern is replaced: ids end up in log lines, so no free text.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return isWellFormedRequestId(incoming) ? incoming : randomUUID();
}
