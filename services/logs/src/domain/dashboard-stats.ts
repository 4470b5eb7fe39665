/**
 * Dashboard statistics (docs/spec/part-1.txt sections 2 "Dashboard" and 9), computed from the log store's rollups, never by
 * scanning logs. Windows: the last 7 UTC days including today versus the 7 days before them.
 */
import type { ApiLog, DashboardStats, NamedCount, OtherCount } from '@skald/contracts';
import type { LogStats, TextPhotoCount } from '@skald/ports';
import { lastDays } from './days.ts';

export const RECENT_PHOTOS = 8;
/**
 * Rows per breakdown list (type, level, resource): a chart of more is unreadable, and a server with
 * thousands of resources must not send them all every 10 s. The rest is summed in an other bucket.
 */
export const BREAKDOWN_ROWS = 10;

/** The 14-day range to ask the store for. */
export function statsRange(now: number): { fromDay: string; toDay: string } {
  const days = lastDays(now, 14);
  return { fromDay: days[0]!, toDay: days[13]! };
}

/** 100 when the previous week is 0 and the current above 0; 0 when both are 0; else the rounded change. */
export function trendPercent(current: number, previous: number): number {
  if (previous === 0) return current > 0 ? 100 : 0;
  return Math.round(((current - previous) / previous) * 100);
}

export function buildDashboardStats(stats: LogStats, now: number, recentPhotos: ApiLog[]): DashboardStats {
  const days = lastDays(now, 14);
  const count = (day: string): TextPhotoCount => stats.perDay[day] ?? { text: 0, photo: 0 };
  const sum = (list: readonly string[]): number => list.reduce((acc, day) => acc + count(day).text + count(day).photo, 0);
  const previous = days.slice(0, 7);
  const current = days.slice(7);
  const currentWeekTotal = sum(current);
  const [perType, perLevel, perResource] = [breakdown(stats.perType), breakdown(stats.perLevel), breakdown(stats.perResource)];
  const previousWeekTotal = sum(previous);
  return {
    totals: { all: stats.totals.text + stats.totals.photo, text: stats.totals.text, photo: stats.totals.photo },
    last7Days: current.map((date) => ({ date, ...count(date) })),
    currentWeekTotal,
    previousWeekTotal,
    averagePerDay: Math.round(currentWeekTotal / 7),
    trend: trendPercent(currentWeekTotal, previousWeekTotal),
    perType: perType.rows,
    perTypeOther: perType.other,
    perLevel: perLevel.rows,
    perLevelOther: perLevel.other,
    perResource: perResource.rows,
    perResourceOther: perResource.other,
    recentPhotos,
  };
}

/** The top BREAKDOWN_ROWS names by total (then name), and the rest summed. */
function breakdown(map: Readonly<Record<string, TextPhotoCount>>): { rows: NamedCount[]; other: OtherCount } {
  const rows = Object.entries(map)
    .map(([name, c]) => ({ name, text: c.text, photo: c.photo }))
    .filter((c) => c.text + c.photo > 0)
    .sort((a, b) => b.text + b.photo - (a.text + a.photo) || a.name.localeCompare(b.name));
  const rest = rows.slice(BREAKDOWN_ROWS);
  const other: OtherCount = {
    names: rest.length,
    text: rest.reduce((n, r) => n + r.text, 0),
    photo: rest.reduce((n, r) => n + r.photo, 0),
  };
  return { rows: rows.slice(0, BREAKDOWN_ROWS), other };
}
