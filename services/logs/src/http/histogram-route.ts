/** GET /logs/my/histogram and /photologs/my/histogram: the lists' matches over time, by level. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { LogHistogramSchema, TOTAL_COUNT_CAP } from '@skald/contracts';
import type { LogHistogram } from '@skald/contracts';
import type { LogType } from '@skald/ports';
import { HttpError, requireServerRole, serverAccessOf } from '@skald/service-kit';
import { ListQuerySchema, toLogQuery } from '../domain/list-query.ts';
import type { ListQuery } from '../domain/list-query.ts';
import { MAX_BARS, planBuckets, toHistogramAnswer } from '../domain/log-histogram.ts';
import type { BucketPlan } from '../domain/log-histogram.ts';
import type { LogsRouteDeps } from './deps.ts';
import { MEMBER_ERRORS } from './route-schemas.ts';

/** The list's query without its paging: the same filters, parsed and refused by the same code. */
export const HistogramQuerySchema = Type.Omit(ListQuerySchema, ['page', 'pageSize'], { additionalProperties: false });
type HistogramQuery = Omit<ListQuery, 'page' | 'pageSize'>;

const DESCRIPTION =
  `Counts the logs matching exactly the filters of the list (same parameters, same 400 answers), per bar and lower-cased level. ` +
  `Bars follow the wall clock of timeZone (UTC when absent); the step (1m to 30d) keeps the range to at most ${MAX_BARS} bars. ` +
  `The range is dateFrom/timeFrom (or the oldest match) to dateTo/timeTo (or the newest match, at the latest now). ` +
  `At most ${TOTAL_COUNT_CAP} matches are counted, the newest: past that, capped is true and the bars start at countedFrom. ` +
  `A bar's from and to, sent back as timeFrom and timeTo, list exactly its logs.`;

export async function registerHistogramRoute(app: FastifyInstance, deps: LogsRouteDeps): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const member = { preHandler: [app.authenticate, requireServerRole(deps.directory, 'user')] };

  async function histogram(serverId: string, query: HistogramQuery, logType: LogType): Promise<LogHistogram> {
    const parsed = toLogQuery(serverId, query, logType, 1);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const { offset: _offset, limit: _limit, ...scan } = parsed.query;
    const timeZone = query.timeZone?.trim() || 'UTC';
    const now = deps.now();
    let plan: BucketPlan | null = null;
    const counted = await deps.logStore.histogram(scan, (span) => {
      plan = planBuckets(span, { ...(scan.from !== undefined ? { from: scan.from } : {}), ...(scan.to !== undefined ? { to: scan.to } : {}), timeZone, now });
      return plan.edges;
    });
    return toHistogramAnswer(counted, plan, timeZone);
  }

  typed.get(
    '/logs/my/histogram',
    {
      ...member,
      schema: {
        tags: ['logs'],
        summary: 'Text logs matching the filters of GET /logs/my, over time by level',
        description: DESCRIPTION,
        querystring: HistogramQuerySchema,
        response: { 200: LogHistogramSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => histogram(serverAccessOf(request).serverId, request.query, 'text'),
  );

  typed.get(
    '/photologs/my/histogram',
    {
      ...member,
      schema: {
        tags: ['photologs'],
        summary: 'Photo logs matching the filters of GET /photologs/my, over time by level',
        description: DESCRIPTION,
        querystring: HistogramQuerySchema,
        response: { 200: LogHistogramSchema, ...MEMBER_ERRORS },
      },
    },
    async (request) => histogram(serverAccessOf(request).serverId, request.query, 'photo'),
  );
}
