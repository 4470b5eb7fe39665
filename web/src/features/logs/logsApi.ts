import { apiSlice, totalFromMeta } from '../../app/api.ts';
import type { ColorMap, LevelColor, LogEntry, LogFilters } from '../common/types.ts';
import { cleanLogEntry } from './plainText.ts';

export interface PageQuery {
  serverId: string;
  filters: LogFilters;
  page: number;
  pageSize: number;
}

export interface LogPage {
  logs: LogEntry[];
  total: number;
}

export interface PhotoLogPage {
  photologs: LogEntry[];
  maxPhotoLogs: number;
  total: number;
}

/** Only filled filters go on the query string; filtering and paging happen on the server. */
export function pageParams({ serverId, filters, page, pageSize }: PageQuery): Record<string, string> {
  const params: Record<string, string> = { serverId, page: String(page), pageSize: String(pageSize) };
  for (const [key, value] of Object.entries(filters)) {
    const trimmed = value.trim();
    if (trimmed !== '') params[key] = trimmed;
  }
  return params;
}

export const DEFAULT_MAX_PHOTO_LOGS = 10;

export const logsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    logsPage: build.query<LogPage, PageQuery>({
      query: (arg) => ({ url: '/logs/my', params: pageParams(arg) }),
      transformResponse: (body: LogEntry[], meta) => {
        const logs = Array.isArray(body) ? body.map(cleanLogEntry) : [];
        return { logs, total: totalFromMeta(meta, logs.length) };
      },
      providesTags: ['Logs'],
    }),
    photoLogsPage: build.query<PhotoLogPage, PageQuery>({
      query: (arg) => ({ url: '/photologs/my', params: pageParams(arg) }),
      transformResponse: (body: { photologs?: LogEntry[]; maxPhotoLogs?: number }, meta) => {
        const photologs = (body.photologs ?? []).map(cleanLogEntry);
        return { photologs, maxPhotoLogs: body.maxPhotoLogs ?? DEFAULT_MAX_PHOTO_LOGS, total: totalFromMeta(meta, photologs.length) };
      },
      providesTags: ['PhotoLogs'],
    }),
    levelColors: build.query<ColorMap, string>({
      query: (serverId) => ({ url: '/settings/colors', params: { serverId } }),
      // Accept both a bare map and { colors: map }.
      transformResponse: (body: ColorMap | { colors?: ColorMap }) => {
        const inner = (body as { colors?: unknown }).colors;
        return (typeof inner === 'object' && inner !== null ? inner : body) as ColorMap;
      },
      providesTags: ['Colors'],
    }),
    levelTypes: build.query<string[], string>({
      query: (serverId) => ({ url: '/settings/levels', params: { serverId } }),
      transformResponse: (body: { types?: unknown; levels?: unknown } | string[]) => {
        const list = Array.isArray(body) ? body : Array.isArray(body.types) ? body.types : Array.isArray(body.levels) ? body.levels : [];
        return list.filter((x): x is string => typeof x === 'string');
      },
      providesTags: ['Levels'],
    }),
  }),
});

export const { useLogsPageQuery, usePhotoLogsPageQuery, useLevelColorsQuery, useLevelTypesQuery } = logsApi;

/** Logs and photo logs poll every 5 s (spec 000 §7, §9). */
export const LOGS_POLL_MS = 5_000;

const DEFAULT_COLORS: ColorMap = {
  info: { bg_color: '#f0f0f0', text_color: '#333' },
  warn: { bg_color: '#fee2b3', text_color: '#b45309' },
  danger: { bg_color: '#fecaca', text_color: '#991b1b' },
};
const FALLBACK_COLOR: LevelColor = { bg_color: '#374151', text_color: '#d1d5db' };

/** The server's colour for a level, else the spec's default, else the unknown-level fallback (spec 000 §3). */
export function colorForLevel(level: string, colors: ColorMap | undefined): LevelColor {
  const key = level.toLowerCase();
  return colors?.[key] ?? colors?.[level] ?? DEFAULT_COLORS[key] ?? FALLBACK_COLOR;
}

export function totalPages(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
