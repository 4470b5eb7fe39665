/**
 * UTC calendar-day helpers: the rollups and the dashboard's days are UTC days (docs/LOGS_API.md). The list
 * filters' days are the caller's, in its time zone (local-days.ts, built on these).
 */

export const DAY_MS = 86_400_000;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch ms of 00:00:00.000 UTC of a `YYYY-MM-DD` day, or null when the text is not a real calendar day. */
export function startOfDay(day: string): number | null {
  const match = DAY_PATTERN.exec(day);
  if (!match) return null;
  const [, y, m, d] = match;
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
  // Date.UTC rolls 2024-02-31 over to March: a round trip catches impossible days.
  return dayOf(ms) === day ? ms : null;
}

/** `YYYY-MM-DD` (UTC) of an epoch-ms instant. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The `count` consecutive days ending with the day of `now`, oldest first. */
export function lastDays(now: number, count: number): string[] {
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  const days: string[] = [];
  for (let i = count - 1; i >= 0; i -= 1) days.push(dayOf(today - i * DAY_MS));
  return days;
}
