/** GET /logs/my, /logs/my/combined, /photologs/my, /logs/stats and DELETE /logs/cleanup. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ApiLogListSchema, CleanupAnswerSchema, DashboardStatsSchema, PhotoLogPageSchema, TOTAL_CAPPED_HEADER, TOTAL_COUNT_CAP } from '@skald/contracts';
import type { ApiLog } from '@skald/contracts';
import type { LogType } from '@skald/ports';
import { HttpError, requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { DAY_MS } from '../domain/days.ts';
import { DEFAULT_LOG_PAGE_SIZE, DEFAULT_PHOTO_PAGE_SIZE, ListQuerySchema, MAX_PAGE_SIZE, UNPAGED_LIMIT, toLogQuery } from '../domain/list-query.ts';
import type { ListQuery } from '../domain/list-query.ts';
import { toApiLog } from '../domain/log-view.ts';
import { BREAKDOWN_ROWS, RECENT_PHOTOS, buildDashboardStats, statsRange } from '../domain/dashboard-stats.ts';
import { tierOfServer } from '../domain/server-directory.ts';
import { deleteObjects } from '../domain/store-batch.ts';
import { upkeep } from '../domain/players/record-players.ts';
import type { LogsRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, MEMBER_ERRORS, ServerIdQuerySchema, ServerIdSchema } from './route-schemas.ts';

export const CLEANUP_DAYS_ERROR = 'Insert a valid amount of days (0 or more)';
/** Upper bound on cleanup days (about 270 years): keeps `now - days` a sane epoch. */
const MAX_CLEANUP_DAYS = 100_000;

/** `days` stays a string for the schema: the spec's own message answers every bad value, not the validator's. */
const CleanupQuery = Type.Object({ serverId: ServerIdSchema, days: Type.Optional(Type.String({ maxLength: 32 })) }, { additionalProperties: false });

const LIST_DESCRIPTION =
  `Newest first; filters, search and paging run on the server. X-Total-Count carries the number of logs matching the filters (all pages), ` +
  `exact up to ${TOTAL_COUNT_CAP}; past it the cap, with X-Total-Capped: true. ` +
  `Without page the newest ${UNPAGED_LIMIT} are answered; pageSize at most ${MAX_PAGE_SIZE}. dateFrom and dateTo are whole days in timeZone (an IANA name or an offset; UTC when absent).`;

export async function registerLogRoutes(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const member = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')] };
  const admin = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'admin')] };

  async function list(
    query: ListQuery,
    reply: FastifyReply,
    logType: LogType | undefined,
    defaultPageSize: number,
  ): Promise<{ logs: ApiLog[]; total: number; totalCapped: boolean }> {
    const parsed = toLogQuery(query, logType, defaultPageSize);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const page = await deps.logStore.query(parsed.query);
    const now = deps.now();
    reply.header('x-total-count', String(page.total));
    reply.header(TOTAL_CAPPED_HEADER, String(page.totalCapped));
    return { logs: page.items.map((r) => toApiLog(r, deps.signer, now)), total: page.total, totalCapped: page.totalCapped };
  }

  typed.get(
    '/logs/my',
    {
      ...member,
      schema: {
        tags: ['logs'],
        summary: 'Text logs of a server',
        description: LIST_DESCRIPTION,
        querystring: ListQuerySchema,
        response: { 200: ApiLogListSchema, ...MEMBER_ERRORS },
      },
    },
    async (request, reply) => (await list(request.query, reply, 'text', DEFAULT_LOG_PAGE_SIZE)).logs,
  );

  typed.get(
    '/logs/my/combined',
    {
      ...member,
      schema: {
        tags: ['logs'],
        summary: 'Text and photo logs of a server together',
        description: LIST_DESCRIPTION,
        querystring: ListQuerySchema,
        response: { 200: ApiLogListSchema, ...MEMBER_ERRORS },
      },
    },
    async (request, reply) => (await list(request.query, reply, undefined, DEFAULT_LOG_PAGE_SIZE)).logs,
  );

  typed.get(
    '/photologs/my',
    {
      ...member,
      schema: {
        tags: ['photologs'],
        summary: "Photo logs of a server, its tier's photo-log limit and how many it stores",
        description: `${LIST_DESCRIPTION} Default pageSize ${DEFAULT_PHOTO_PAGE_SIZE}.`,
        querystring: ListQuerySchema,
        response: { 200: PhotoLogPageSchema, ...MEMBER_ERRORS },
      },
    },
    async (request, reply) => {
      const { serverId } = serverAccessOf(request);
      // `stored` ignores the filters: the screen's 'n / max photologs stored.' (a rollup sum, not a row count).
      const [result, tier, stored] = await Promise.all([
        list(request.query, reply, 'photo', DEFAULT_PHOTO_PAGE_SIZE),
        tierOfServer(deps.directory, serverId),
        deps.logStore.count(serverId, 'photo'),
      ]);
      return { photologs: result.logs, maxPhotoLogs: tier.maxPhotoLogs, total: result.total, totalCapped: result.totalCapped, stored };
    },
  );

  typed.get(
    '/logs/stats',
    {
      ...member,
      schema: {
        tags: ['logs'],
        summary: 'Dashboard statistics of a server (docs/spec/part-1.txt section 9)',
        description: `Computed from the log store rollups. Windows: the last 7 UTC days including today versus the 7 days before. Breakdowns: the top ${BREAKDOWN_ROWS} names, the rest summed in perTypeOther, perLevelOther and perResourceOther.`,
        querystring: ServerIdQuerySchema,
        response: { 200: DashboardStatsSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const now = deps.now();
      const [stats, photos] = await Promise.all([
        deps.logStore.stats(serverId, statsRange(now)),
        deps.logStore.query({ serverId, logType: 'photo', offset: 0, limit: RECENT_PHOTOS }),
      ]);
      return buildDashboardStats(stats, now, photos.items.map((r) => toApiLog(r, deps.signer, now)));
    },
  );

  typed.delete(
    '/logs/cleanup',
    {
      ...admin,
      schema: {
        tags: ['logs'],
        summary: 'Delete the logs older than `days` days (0 deletes all); admin or owner',
        description: `Photo logs lose their images too. A missing, negative or non-integer days answers 400 '${CLEANUP_DAYS_ERROR}'.`,
        querystring: CleanupQuery,
        response: { 200: CleanupAnswerSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { serverId } = serverAccessOf(request);
      const { days } = request.query;
      const parsedDays = days !== undefined && /^\d{1,6}$/.test(days.trim()) ? Number(days.trim()) : Number.NaN;
      if (!Number.isInteger(parsedDays) || parsedDays < 0 || parsedDays > MAX_CLEANUP_DAYS) throw new HttpError(400, CLEANUP_DAYS_ERROR);
      // days = 0 deletes everything up to now; days = n keeps the last n days.
      const before = deps.now() - parsedDays * DAY_MS;
      const result = await deps.logStore.deleteBefore(serverId, before);
      await deleteObjects(deps, result.objectKeys);
      await upkeep(deps.log, 'a cleanup', async () => {
        await deps.recorder.catchUp();
        await deps.players.forgetBefore(serverId, { at: before, logId: '' });
      });
      if (result.deletedCount > 0) await deps.counts.mark(serverId);
      await deps.audit.publish({ actorId: userIdFromRequest(request) ?? '', serverId, action: 'logs.deleted', details: { days: parsedDays, deletedCount: result.deletedCount } });
      return { deletedCount: result.deletedCount };
    },
  );
}
