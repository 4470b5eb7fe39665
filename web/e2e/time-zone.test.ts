// The zone the walkthrough's date-filter check runs in must put the browser on another date than UTC,
// at any hour the walkthrough may run.
import { describe, expect, it } from 'vitest';
import { localDate, zoneOffTheUtcDate } from './time-zone.ts';

describe('a time zone off the UTC date', () => {
  it('differs from the UTC date at every minute of a day', () => {
    const start = Date.UTC(2026, 10, 23);
    for (let minute = 0; minute < 24 * 60; minute++) {
      const now = new Date(start + minute * 60_000);
      const zone = zoneOffTheUtcDate(now);
      expect(localDate(now, zone), `${now.toISOString()} in ${zone}`).not.toBe(now.toISOString().slice(0, 10));
    }
  });

  it('formats the local date as a date input holds it', () => {
    expect(localDate(new Date(Date.UTC(2026, 0, 31, 12)), 'Pacific/Kiritimati')).toBe('2026-02-01');
    expect(localDate(new Date(Date.UTC(2026, 0, 1, 5)), 'Pacific/Pago_Pago')).toBe('2025-12-31');
  });
});
