// Date filters in the user's own days: the walkthrough needs a browser whose local date is
// not the UTC date at the time of the run, whatever that time is.

/** UTC+14 (no DST): its date runs ahead of UTC's from 10:00 UTC to midnight. */
export const AHEAD_OF_UTC = 'Pacific/Kiritimati';
/** UTC-11 (no DST): its date lags UTC's from midnight to 11:00 UTC. */
export const BEHIND_UTC = 'Pacific/Pago_Pago';

/**
 * A time zone whose local date differs from the UTC date at `now`. Pick it right before the check: near
 * midnight UTC no zone stays off the UTC date for long (the walkthrough's check takes seconds).
 */
export function zoneOffTheUtcDate(now: Date): string {
  return now.getUTCHours() >= 10 ? AHEAD_OF_UTC : BEHIND_UTC;
}

/** The date (YYYY-MM-DD) in `timeZone` at `now`, as a native date input holds it. */
export function localDate(now: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
