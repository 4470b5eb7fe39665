/** GET /logs/{id}/context: a log and the server's logs just before and after it (every member). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { DEFAULT_CONTEXT_LINES, LogContextSchema, MAX_CONTEXT_LINES } from '@skald/contracts';
import { HttpError, requireServerRole, serverAccessOf } from '@skald/service-kit';
import { logContext } from '../domain/log-context.ts';
import { toApiLog } from '../domain/log-view.ts';
import type { LogsRouteDeps } from './deps.ts';
import { MEMBER_ERRORS, ServerIdSchema, serverIdOfQuery } from './route-schemas.ts';

export const LOG_NOT_FOUND = 'Log not found on this server: it may have been deleted, or the link names another server.';

const Lines = Type.Integer({ minimum: 0, maximum: MAX_CONTEXT_LINES });
const ContextQuery = Type.Object(
  { serverId: ServerIdSchema, before: Type.Optional(Lines), after: Type.Optional(Lines) },
  { additionalProperties: false },
);
/** Any text: an id of no log of the server is a 404, not a bad request. */
const ContextParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export async function registerContextRoute(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const member = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'user', { serverIdOf: serverIdOfQuery })] };

  typed.get(
    '/logs/:id/context',
    {
      ...member,
      schema: {
        tags: ['logs'],
        summary: "A log and the server's text and photo logs just before and after it",
        description:
          `Ordered by the log time (created_at), ties by id, as every list. before and after: how many logs on each side, 0 to ${MAX_CONTEXT_LINES} ` +
          `(default ${DEFAULT_CONTEXT_LINES}); fewer near either end. Both lists oldest first (reading order): before ends just before the log, after starts just after it. ` +
          `Photo logs carry signed image paths as in /photologs/my. 404 for an id that is no log of the server.`,
        params: ContextParams,
        querystring: ContextQuery,
        response: { 200: LogContextSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const found = await logContext(deps.logStore, {
        serverId,
        id: request.params.id,
        before: request.query.before ?? DEFAULT_CONTEXT_LINES,
        after: request.query.after ?? DEFAULT_CONTEXT_LINES,
      });
      if (found === null) throw new HttpError(404, LOG_NOT_FOUND);
      const now = deps.now();
      const view = (records: typeof found.before) => records.map((record) => toApiLog(record, deps.signer, now));
      return { before: view(found.before), log: toApiLog(found.log, deps.signer, now), after: view(found.after) };
    },
  );
}
