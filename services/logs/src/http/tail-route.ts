/**
 * GET /logs/tail: the live tail, server-sent events of the text logs matching the /logs/my
 * filters as they are stored, for any member. Frames and their meaning: LOG_TAIL_EVENTS in
 * @skald/contracts; the session itself: domain/tail/log-tail.ts.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorBodySchema } from '@skald/contracts';
import type { LogTailEnd } from '@skald/contracts';
import { AUTH_INVALID_MESSAGE, HttpError, SERVER_NOT_FOUND, requireServerRole, serverAccessOf } from '@skald/service-kit';
import type { AccessClaims } from '@skald/service-kit';
import { ListQuerySchema, toLogQuery } from '../domain/list-query.ts';
import { toApiLog } from '../domain/log-view.ts';
import { isLogId } from '../domain/tail/log-id.ts';
import type { TailSlots } from '../domain/tail/tail-slots.ts';
import type { LogsRouteDeps } from './deps.ts';
import { MEMBER_ERRORS } from './route-schemas.ts';

/** The /logs/my filters; paging means nothing on a stream. */
const TailQuerySchema = Type.Omit(ListQuerySchema, ['page', 'pageSize'], { additionalProperties: false });

export const LAST_EVENT_ID_ERROR = 'Last-Event-ID must be the id of a log the tail sent';
/** Seconds a client refused for the process-wide bound is asked to wait. */
const INSTANCE_RETRY_AFTER_S = 30;

export function tailLimitMessage(slots: TailSlots, refusal: 'server' | 'instance'): string {
  return refusal === 'server'
    ? `This server already has ${slots.perServer} live tails open (the limit). Close one, in another tab or by another member, and try again.`
    : `Live tails are at capacity here (${slots.perInstance} open). Try again in a minute.`;
}

const SESSION_ENDED: LogTailEnd = { error: AUTH_INVALID_MESSAGE, message: AUTH_INVALID_MESSAGE, reconnect: false };
const ACCESS_ENDED: LogTailEnd = { error: SERVER_NOT_FOUND, message: SERVER_NOT_FOUND, reconnect: false };

const DESCRIPTION =
  'Server-sent events (`text/event-stream`) of the text logs matching the /logs/my filters, within a second of their acceptance. ' +
  'Events: `log` (an ApiLog; its `id:` is the log id), `ready` (live; `replayed` logs sent after Last-Event-ID), `skipped` (missed logs not replayed), ' +
  '`end` (why the server closed the stream and whether to reconnect); a `: ping` comment every 10 s. ' +
  'Send `Last-Event-ID` to resume after the last log received. 429 when the server or this instance has reached its number of open tails.';

export async function registerTailRoute(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/logs/tail',
    {
      preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')],
      schema: {
        tags: ['logs'],
        summary: 'Live tail of a server’s text logs (server-sent events)',
        description: DESCRIPTION,
        querystring: TailQuerySchema,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 64 })) }),
        response: {
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...MEMBER_ERRORS,
          429: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      const parsed = toLogQuery(serverId, request.query, 'text', 1);
      if (!parsed.ok) throw new HttpError(400, parsed.error);
      const lastEventId = request.headers['last-event-id']?.trim() ?? '';
      if (lastEventId !== '' && !isLogId(lastEventId)) throw new HttpError(400, LAST_EVENT_ID_ERROR);
      const { offset: _offset, limit: _limit, ...filters } = parsed.query;

      const stream = new PassThrough();
      const claims: AccessClaims = request.user;
      const checkAccess = async (): Promise<LogTailEnd | null> => {
        // Token times are wall-clock seconds, like the auth plugin's check.
        if (claims.exp * 1000 <= Date.now() || (await deps.directory.isRevoked(claims))) return SESSION_ENDED;
        return (await deps.directory.roleOf(claims.sub, serverId)) === null ? ACCESS_ENDED : null;
      };
      const opened = deps.tails.open(checkAccess, (record) => toApiLog(record, deps.signer, deps.now()), { serverId, filters, afterId: lastEventId || null }, {
        write: (text) => void stream.write(text),
        pending: () => stream.writableLength + (reply.raw.writableLength ?? 0),
        end: () => stream.end(),
      });
      if (!opened.ok) {
        throw new HttpError(429, tailLimitMessage(deps.tails.slots, opened.refusal), {
          headers: opened.refusal === 'instance' ? { 'retry-after': String(INSTANCE_RETRY_AFTER_S) } : {},
        });
      }
      const { tail } = opened;
      // The client went away (or the stream ended): free the slot and leave the feed.
      reply.raw.once('close', () => tail.close());
      // Exactly `text/event-stream`: the gateway's proxy lifts its idle timeout for that type, and its
      // compression leaves the type alone. no-transform and X-Accel-Buffering keep proxies from buffering.
      const untyped: FastifyReply = reply;
      void untyped
        .header('content-type', 'text/event-stream')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .send(stream);
      void tail.start();
      return reply;
    },
  );
}
