import { apiSlice } from '../../app/api.ts';
import type { LogEntry } from '../common/types.ts';
import { cleanLogEntry } from '../logs/plainText.ts';

export interface SplitCount {
  name: string;
  text: number;
  photo: number;
}

export interface DayCount {
  date: string;
  text: number;
  photo: number;
}

export interface DashboardStats {
  totals: { all: number; text: number; photo: number };
  last7Days: DayCount[];
  averagePerDay: number;
  trend: number;
  perType: SplitCount[];
  perLevel: SplitCount[];
  perResource: SplitCount[];
  recentPhotos: LogEntry[] | null;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : Number(value) || 0;
}

function splits(value: unknown): SplitCount[] {
  if (!Array.isArray(value)) return [];
  return value.map((row: Record<string, unknown>) => ({ name: String(row.name ?? row.key ?? '—'), text: num(row.text), photo: num(row.photo) }));
}

/** Tolerant reading of GET /logs/stats, so a missing optional field never blanks the dashboard. */
export function normaliseStats(body: Record<string, unknown>): DashboardStats {
  const totals = (body.totals ?? {}) as Record<string, unknown>;
  const text = num(totals.text);
  const photo = num(totals.photo);
  const days = Array.isArray(body.last7Days) ? (body.last7Days as Record<string, unknown>[]) : [];
  return {
    totals: { all: totals.all === undefined ? text + photo : num(totals.all), text, photo },
    last7Days: days.map((d) => ({ date: String(d.date ?? ''), text: num(d.text), photo: num(d.photo) })),
    averagePerDay: num(body.averagePerDay),
    trend: num(body.trend),
    perType: splits(body.perType),
    perLevel: splits(body.perLevel),
    perResource: splits(body.perResource),
    recentPhotos: Array.isArray(body.recentPhotos) ? (body.recentPhotos as LogEntry[]).map(cleanLogEntry) : null,
  };
}

export const dashboardApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    dashboardStats: build.query<DashboardStats, string>({
      query: (serverId) => ({ url: '/logs/stats', params: { serverId } }),
      transformResponse: (body: Record<string, unknown>) => normaliseStats(body),
      providesTags: ['Stats'],
    }),
  }),
});

export const { useDashboardStatsQuery } = dashboardApi;

/** The dashboard refreshes on its own, at the combined-logs interval of 10 s (spec 000 §9). */
export const DASHBOARD_POLL_MS = 10_000;

export type TrendTone = 'up' | 'down' | 'flat';

export function trendTone(trend: number): TrendTone {
  return trend > 0 ? 'up' : trend < 0 ? 'down' : 'flat';
}

/** Signed percentage: +12%, -5%, 0%. */
export function formatTrend(trend: number): string {
  const rounded = Math.round(trend * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${rounded}%`;
}

export function shortMessage(message: string, max = 50): string {
  return message.length > max ? `${message.slice(0, max)}…` : message;
}
