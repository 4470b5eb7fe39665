import type { DashboardStats, NamedCount } from '@skald/contracts/api';
import { apiSlice } from '../../app/api.ts';
import { cleanLogEntry, plainText } from '../logs/plainText.ts';

/** Breakdown names are log fields (a type, a level, a resource): cleaned like the logs themselves. */
function cleanNames(rows: NamedCount[]): NamedCount[] {
  return rows.map((row) => ({ ...row, name: plainText(row.name) }));
}

export const dashboardApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    dashboardStats: build.query<DashboardStats, string>({
      query: (serverId) => ({ url: '/logs/stats', params: { serverId } }),
      transformResponse: (body: DashboardStats) => ({
        ...body,
        perType: cleanNames(body.perType),
        perLevel: cleanNames(body.perLevel),
        perResource: cleanNames(body.perResource),
        recentPhotos: body.recentPhotos.map(cleanLogEntry),
      }),
      providesTags: ['Stats'],
    }),
  }),
});

export const { useDashboardStatsQuery } = dashboardApi;

/** The dashboard refreshes on its own, at the combined-logs interval of 10 s (docs/spec/part-1.txt section 9). */
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
