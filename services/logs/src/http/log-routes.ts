/** GET /logs/my, /logs/my/combined, /photologs/my, /logs/stats and DELETE /logs/cleanup. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ApiLogListSchema, CleanupAnswerSchema, DashboardStatsSchema, PhotoLogPageSchema, TOTAL_CAPPED_HEADER, TOTAL_COUNT_CAP } from '@skald/contracts';
import type { LogType } from '@skald/ports';
import { requireServerRole, serverAccessOf, userIdFromRequest } from '@skald/service-kit';
import { DEFAULT_LOG_PAGE_SIZE, DEFAULT_PHOTO_PAGE_SIZE, ListQuerySchema, MAX_PAGE_SIZE, UNPAGED_LIMIT } from '../domain/list-query.ts';
import type { ListQuery } from '../domain/list-query.ts';
import { toApiLog } from '../domain/log-view.ts';
import { BREAKDOWN_ROWS, RECENT_PHOTOS, buildDashboardStats, statsRange } from '../domain/dashboard-stats.ts';
import { CLEANUP_DAYS_ERROR, cleanUpLogs } from '../domain/log-cleanup.ts';
import { listLogs } from '../domain/log-list.ts';
import type { LogList } from '../domain/log-list.ts';
import { tierOfServer } from '../domain/server-directory.ts';
import type { LogsRouteDeps } from './deps.ts';
import { ADMIN_ERRORS, MEMBER_ERRORS, ServerIdQuerySchema, ServerIdSchema } from './route-schemas.ts';

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

  /** A page of the granted server's logs, its total in X-Total-Count (and X-Total-Capped). */
  async function list(request: FastifyRequest<{ Querystring: ListQuery }>, reply: FastifyReply, logType: LogType | undefined, defaultPageSize: number): Promise<LogList> {
    const result = await listLogs(deps, serverAccessOf(request).serverId, request.query, logType, defaultPageSize);
    reply.header('x-total-count', String(result.total));
    reply.header(TOTAL_CAPPED_HEADER, String(result.totalCapped));
    return result;
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
    async (request, reply) => (await list(request, reply, 'text', DEFAULT_LOG_PAGE_SIZE)).logs,
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
    async (request, reply) => (await list(request, reply, undefined, DEFAULT_LOG_PAGE_SIZE)).logs,
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
        list(request, reply, 'photo', DEFAULT_PHOTO_PAGE_SIZE),
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
    async (request) => cleanUpLogs(deps, serverAccessOf(request).serverId, userIdFromRequest(request) ?? '', request.query.days),
  );
}
