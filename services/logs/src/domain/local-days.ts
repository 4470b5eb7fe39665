/**
 * Calendar days in the caller's time zone: the Date from / Date to filters name days as the
 * user sees them, so a user in UTC+2 filtering "today" gets their whole day, not the UTC day that starts at
 * 02:00 for them. The zone is an IANA name (`Europe/Berlin`) or a fixed offset (`+02:00`), as the browser's
 * Intl knows it; daylight-saving days get their 23 or 25 hours because each bound is resolved on its own day.
 */
import { DAY_MS, dayOf, startOfDay } from './days.ts';

/** Formatters are costly to build; a zone name is cached once (bounded: names differ only in case at worst). */
const MAX_CACHED_ZONES = 256;
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(timeZone: string): Intl.DateTimeFormat | null {
  const cached = formatters.get(timeZone);
  if (cached !== undefined) return cached;
  let formatter: Intl.DateTimeFormat | null;
  try {
    formatter = timeZone.trim() === '' ? null : new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    formatter = null; // RangeError: a zone Intl does not know
  }
  if (formatters.size < MAX_CACHED_ZONES) formatters.set(timeZone, formatter);
  return formatter;
}

/** True when `timeZone` names a zone the runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  return formatterOf(timeZone) !== null;
}

/** The wall-clock time in the zone at `instant`, read as if it were UTC (epoch ms, whole seconds). */
function wallClock(formatter: Intl.DateTimeFormat, instant: number): number {
  const part: Record<string, number> = {};
  for (const { type, value } of formatter.formatToParts(instant)) part[type] = Number(value);
  return Date.UTC(part['year']!, part['month']! - 1, part['day']!, part['hour']!, part['minute']!, part['second']!);
}

/** Zone offset (ms east of UTC) in force at `instant`. */
function offsetAt(formatter: Intl.DateTimeFormat, instant: number): number {
  return wallClock(formatter, instant) - Math.floor(instant / 1000) * 1000;
}

/**
 * Epoch ms of the first instant of `day` (`YYYY-MM-DD`) in `timeZone`; null for an impossible day or an
 * unknown zone. A midnight that a clock change skips (America/Santiago's spring) starts the day at the
 * first instant whose local date is `day`.
 */
export function startOfDayIn(day: string, timeZone: string): number | null {
  const midnightAsUtc = startOfDay(day);
  const formatter = formatterOf(timeZone);
  if (midnightAsUtc === null || formatter === null) return null;
  const { candidates, second, exact } = instantsOf(formatter, midnightAsUtc);
  if (exact !== undefined) return exact;
  // Midnight does not exist that day: the day starts where the local date first reads `day`.
  return candidates.find((t) => dayOf(wallClock(formatter, t)) === day) ?? second;
}

/**
 * Two passes find the offset in force at a wall-clock time (the first guess may sit across a clock change):
 * the candidate instants (ascending), the second guess, and the earliest one whose wall clock reads exactly `wallAsUtc` (none when a clock
 * change skips that time).
 */
function instantsOf(formatter: Intl.DateTimeFormat, wallAsUtc: number): { candidates: number[]; second: number; exact: number | undefined } {
  const first = wallAsUtc - offsetAt(formatter, wallAsUtc);
  const second = wallAsUtc - offsetAt(formatter, first);
  const candidates = [first, second].sort((a, b) => a - b);
  return { candidates, second, exact: candidates.find((t) => wallClock(formatter, t) === wallAsUtc) };
}

/**
 * The instant at which the zone's clock reads `wallAsUtc` (a wall-clock time written as if it were UTC,
 * whole seconds); the earlier one when the time occurs twice; null when a clock change skips it or the zone
 * is unknown.
 */
export function instantOfWallClock(wallAsUtc: number, timeZone: string): number | null {
  const formatter = formatterOf(timeZone);
  if (formatter === null) return null;
  return instantsOf(formatter, wallAsUtc).exact ?? null;
}

/** The zone's wall-clock time at `instant`, written as if it were UTC (whole seconds); null for an unknown zone. */
export function wallClockIn(instant: number, timeZone: string): number | null {
  const formatter = formatterOf(timeZone);
  return formatter === null ? null : wallClock(formatter, instant);
}

/** Epoch ms of the last millisecond of `day` in `timeZone` (the next local day's start minus 1). */
export function endOfDayIn(day: string, timeZone: string): number | null {
  const start = startOfDay(day);
  if (start === null) return null;
  const nextStart = startOfDayIn(dayOf(start + DAY_MS), timeZone);
  return nextStart === null ? null : nextStart - 1;
}
