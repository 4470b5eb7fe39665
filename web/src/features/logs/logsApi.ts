import type { ApiLog, ApiLogList, ColorLevel, LevelColor, LevelColors, LevelList, LogContext, LogHistogram, PhotoLogPage } from '@skald/contracts/api';
import { apiSlice, totalCappedFromMeta, totalFromMeta } from '../../app/api.ts';
import { filterParams, type LogFilters } from './logFilters.ts';
import { cleanLogEntry } from './plainText.ts';
import { userTimeZone } from './userTimeZone.ts';

export interface PageQuery {
  serverId: string;
  filters: LogFilters;
  page: number;
  pageSize: number;
}

export interface LogPage {
  logs: ApiLog[];
  total: number;
  /** The server stopped counting at its cap (X-Total-Capped): more logs match than `total`. */
  totalCapped: boolean;
}

/** The filters' query (filterParams) with the page; filtering and paging happen on the server. */
export function pageParams({ serverId, filters, page, pageSize }: PageQuery): Record<string, string> {
  // serverId stays first: the spread assigns it again in its place.
  return { serverId, page: String(page), pageSize: String(pageSize), ...filterParams(serverId, filters) };
}

export interface HistogramQuery {
  serverId: string;
  filters: LogFilters;
  logType: 'text' | 'photo';
}

/** The list's filters without its paging; always with the browser's zone, which the bars follow. */
export function histogramParams({ serverId, filters }: HistogramQuery): Record<string, string> {
  const { page: _page, pageSize: _pageSize, ...params } = pageParams({ serverId, filters, page: 1, pageSize: 1 });
  const timeZone = userTimeZone();
  if (timeZone) params['timeZone'] = timeZone;
  return params;
}

export const logsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    logsPage: build.query<LogPage, PageQuery>({
      query: (arg) => ({ url: '/logs/my', params: pageParams(arg) }),
      // The list is one page; the number of matching logs (all pages) comes in X-Total-Count.
      transformResponse: (body: ApiLogList, meta) => ({
        logs: body.map(cleanLogEntry),
        total: totalFromMeta(meta, body.length),
        totalCapped: totalCappedFromMeta(meta),
      }),
      providesTags: ['Logs'],
    }),
    photoLogsPage: build.query<PhotoLogPage, PageQuery>({
      query: (arg) => ({ url: '/photologs/my', params: pageParams(arg) }),
      transformResponse: (body: PhotoLogPage) => ({ ...body, photologs: body.photologs.map(cleanLogEntry) }),
      providesTags: ['PhotoLogs'],
    }),
    logHistogram: build.query<LogHistogram, HistogramQuery>({
      query: (arg) => ({ url: arg.logType === 'photo' ? '/photologs/my/histogram' : '/logs/my/histogram', params: histogramParams(arg) }),
      providesTags: (_result, _error, arg) => [arg.logType === 'photo' ? 'PhotoLogs' : 'Logs'],
    }),
    logContext: build.query<LogContext, { serverId: string; logId: string }>({
      query: ({ serverId, logId }) => ({ url: `/logs/${encodeURIComponent(logId)}/context`, params: { serverId } }),
      transformResponse: (body: LogContext) => ({ before: body.before.map(cleanLogEntry), log: cleanLogEntry(body.log), after: body.after.map(cleanLogEntry) }),
      providesTags: ['Logs', 'PhotoLogs'],
    }),
    levelColors: build.query<LevelColors, string>({
      query: (serverId) => ({ url: '/settings/colors', params: { serverId } }),
      providesTags: ['Colors'],
    }),
    levelTypes: build.query<LevelList['types'], string>({
      query: (serverId) => ({ url: '/settings/levels', params: { serverId } }),
      transformResponse: (body: LevelList) => body.types,
      providesTags: ['Levels'],
    }),
  }),
});

export const { useLogsPageQuery, usePhotoLogsPageQuery, useLogHistogramQuery, useLogContextQuery, useLevelColorsQuery, useLevelTypesQuery } = logsApi;

/** Logs and photo logs poll every 5 s (docs/spec/part-1.txt sections 7, 9). */
export const LOGS_POLL_MS = 5_000;

/**
 * The histogram refreshes less often than the list: it counts up to 100,000 matches on each call, and its
 * bars barely move in 5 s (docs/DECISIONS.md). A filter change or a bar click refetches it at once.
 */
export const HISTOGRAM_POLL_MS = 15_000;

/**
 * docs/spec/part-1.txt section 3's colours for a level the server has no colour for. The server answers every level's
 * colours (its defaults included), so this applies only to a level outside the five.
 */
const UNKNOWN_LEVEL_COLOR: LevelColor = { bg_color: '#374151', text_color: '#d1d5db' };

function isColorLevel(level: string, colors: LevelColors): level is ColorLevel {
  return Object.hasOwn(colors, level);
}

/** The server's colour for a level; undefined while the colours load, so the card renders neutrally. */
export function colorForLevel(level: string, colors: LevelColors | undefined): LevelColor | undefined {
  if (!colors) return undefined;
  return isColorLevel(level, colors) ? colors[level] : UNKNOWN_LEVEL_COLOR;
}

export function totalPages(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
