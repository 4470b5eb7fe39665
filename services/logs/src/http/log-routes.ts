/** GET /logs/my, /logs/my/combined, /photologs/my, /logs/stats and DELETE /logs/cleanup. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { tierOf } from '@skald/contracts';
import type { LogType } from '@skald/ports';
import { DAY_MS } from '../domain/days.ts';
import { DEFAULT_LOG_PAGE_SIZE, DEFAULT_PHOTO_PAGE_SIZE, ListQuerySchema, toLogQuery } from '../domain/list-query.ts';
import type { ListQuery } from '../domain/list-query.ts';
import { toApiLog } from '../domain/log-view.ts';
import type { ApiLog } from '../domain/log-view.ts';
import { RECENT_PHOTOS, buildDashboardStats, statsRange } from '../domain/dashboard-stats.ts';
import { deleteObjects } from '../domain/store-batch.ts';
import { requireServerRole } from './access.ts';
import type { LogsRouteDeps } from './deps.ts';
import { sendError } from './errors.ts';

export const CLEANUP_DAYS_ERROR = 'Insert a valid amount of days (0 or more)';
/** Upper bound on cleanup days (about 270 years): keeps `now - days` a sane epoch. */
const MAX_CLEANUP_DAYS = 100_000;

const ServerIdQuery = Type.Object({ serverId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const CleanupQuery = Type.Object(
  { serverId: Type.String({ minLength: 1, maxLength: 64 }), days: Type.Optional(Type.String({ maxLength: 32 })) },
  { additionalProperties: false },
);

export async function registerLogRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  async function list(
    request: FastifyRequest<{ Querystring: ListQuery }>,
    reply: FastifyReply,
    logType: LogType | undefined,
    defaultPageSize: number,
  ): Promise<{ logs: ApiLog[]; total: number } | null> {
    if (!(await requireServerRole(deps, request, reply, request.query.serverId, 'user'))) return null;
    const parsed = toLogQuery(request.query, logType, defaultPageSize);
    if (!parsed.ok) {
      sendError(reply, 400, parsed.error);
      return null;
    }
    const page = await deps.logStore.query(parsed.query);
    const now = deps.now();
    reply.header('x-total-count', String(page.total));
    return { logs: page.items.map((r) => toApiLog(r, deps.signer, now)), total: page.total };
  }

  typed.get('/logs/my', { schema: { querystring: ListQuerySchema } }, async (request, reply) => {
    const result = await list(request, reply, 'text', DEFAULT_LOG_PAGE_SIZE);
    return result ? result.logs : reply;
  });

  typed.get('/logs/my/combined', { schema: { querystring: ListQuerySchema } }, async (request, reply) => {
    const result = await list(request, reply, undefined, DEFAULT_LOG_PAGE_SIZE);
    return result ? result.logs : reply;
  });

  typed.get('/photologs/my', { schema: { querystring: ListQuerySchema } }, async (request, reply) => {
    const result = await list(request, reply, 'photo', DEFAULT_PHOTO_PAGE_SIZE);
    if (!result) return reply;
    const info = await deps.directory.server(request.query.serverId);
    return { photologs: result.logs, maxPhotoLogs: tierOf(info?.tier ?? 'free').maxPhotoLogs, total: result.total };
  });

  typed.get('/logs/stats', { schema: { querystring: ServerIdQuery } }, async (request, reply) => {
    const { serverId } = request.query;
    if (!(await requireServerRole(deps, request, reply, serverId, 'user'))) return reply;
    const now = deps.now();
    const [stats, photos] = await Promise.all([
      deps.logStore.stats(serverId, statsRange(now)),
      deps.logStore.query({ serverId, logType: 'photo', offset: 0, limit: RECENT_PHOTOS }),
    ]);
    return buildDashboardStats(stats, now, photos.items.map((r) => toApiLog(r, deps.signer, now)));
  });

  typed.delete('/logs/cleanup', { schema: { querystring: CleanupQuery } }, async (request, reply) => {
    const { serverId, days } = request.query;
    if (!(await requireServerRole(deps, request, reply, serverId, 'admin'))) return reply;
    const parsedDays = days !== undefined && /^\d{1,6}$/.test(days.trim()) ? Number(days.trim()) : Number.NaN;
    if (!Number.isInteger(parsedDays) || parsedDays < 0 || parsedDays > MAX_CLEANUP_DAYS) {
      return sendError(reply, 400, CLEANUP_DAYS_ERROR);
    }
    // days = 0 deletes everything up to now; days = n keeps the last n days.
    const result = await deps.logStore.deleteBefore(serverId, deps.now() - parsedDays * DAY_MS);
    await deleteObjects(deps, result.objectKeys);
    return { deletedCount: result.deletedCount };
  });
}
