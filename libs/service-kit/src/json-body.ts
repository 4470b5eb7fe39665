/**
 * The JSON body parser of every Skald app: Fastify's own parser (prototype poisoning refused), fed text
 * decoded with a FATAL UTF-8 decoder. Fastify decodes bodies leniently, so invalid bytes became U+FFFD
 * and were stored with a 2xx, changing what the client sent without telling it; here they are a 400.
 */
import type { FastifyInstance } from 'fastify';

export const INVALID_UTF8_MESSAGE = 'Request body is not valid UTF-8';
export const INVALID_UTF8_CODE = 'SKALD_ERR_INVALID_UTF8_BODY';

/** A client error the kit's error handler answers with its status and message (and logs as refused). */
function invalidUtf8(): Error {
  return Object.assign(new Error(INVALID_UTF8_MESSAGE), { statusCode: 400, code: INVALID_UTF8_CODE });
}

export function registerStrictJsonParser(app: FastifyInstance): void {
  // One decoder: decode() without { stream: true } keeps no state between calls.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(invalidUtf8(), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
