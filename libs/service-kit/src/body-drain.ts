/**
 * An answer that closes the connection before the client finished sending its body (Fastify answers a
 * body over the limit, or one it failed to parse, with `Connection: close`) used to be unreadable: Node
 * closed the socket right after writing it, the client's next write met a closed socket, and the unread
 * bytes made the kernel reset the connection, so clients saw EPIPE or ECONNRESET instead of the 413.
 *
 * Here the rest of the body is read and thrown away before such an answer is sent, within a bound: once
 * the client has sent everything, the answer and the close arrive in order and the client reads it. A
 * client that keeps sending beyond the bound gets the answer and the close at that point, as before.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** At most this many further bytes are read: a few route body limits' worth, cheap to discard. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** And for at most this long: a slow client cannot hold the connection open with a trickle. */
export const DRAIN_MAX_MS = 5_000;

/** Resolves once the body has ended, the connection is gone, or a bound is reached. */
function drainBody(raw: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const finish = (): void => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('error', finish);
      raw.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      read += chunk.length;
      if (read > DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MAX_MS);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}

function closesBeforeBodyEnded(request: FastifyRequest, reply: FastifyReply): boolean {
  const raw = request.raw;
  return reply.getHeader('connection') === 'close' && !raw.complete && !raw.readableEnded && !raw.destroyed;
}

export function installBodyDrainBeforeClose(app: FastifyInstance): void {
  // Callback style: the common case (nothing to drain) costs no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!closesBeforeBodyEnded(request, reply)) {
      done(null, payload);
      return;
    }
    void drainBody(request.raw).then(() => done(null, payload));
  });
}
