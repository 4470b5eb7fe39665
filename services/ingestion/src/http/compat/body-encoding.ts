/**
 * Compressed request bodies (`Content-Encoding: gzip` or `deflate`), which Loki and Datadog clients may
 * send. A preParsing hook swaps the raw stream for the decompressed one, so the route's bodyLimit bounds
 * the DECOMPRESSED size: a small gzip bomb stops at the limit with a 413 like any large body.
 * Behind the proxy-only gateway the body arrives as the client sent it (the proxy does not decode it), so
 * the service decodes it here.
 */
import { createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { HttpError } from '@skald/service-kit';

export function decompressBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: RequestPayload,
  done: (error?: Error | null, payload?: RequestPayload) => void,
): void {
  // An earlier hook already swapped the stream for the decoded one: the all-in-one gateway's
  // @fastify/compress decodes request bodies itself (the service alone, behind the proxy, does not).
  if (payload !== request.raw) return done(null, payload);
  const encoding = String(request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return done(null, payload);
  let decoder: Transform;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip();
  else if (encoding === 'deflate') decoder = createInflate();
  else return done(new HttpError(415, `Unsupported Content-Encoding '${encoding.slice(0, 40)}': send gzip, deflate or none`));
  const decoded = decoder as Transform & RequestPayload & { receivedEncodedLength: number };
  // Fastify compares Content-Length with the bytes received on the wire, not the decompressed ones.
  decoded.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => {
    decoded.receivedEncodedLength += chunk.length;
  });
  decoder.on('error', (error: Error & { statusCode?: number }) => {
    // Corrupt compressed data is the client's fault.
    error.statusCode = 400;
    error.message = `The ${encoding} body could not be decompressed`;
  });
  payload.pipe(decoder);
  done(null, decoded);
}
