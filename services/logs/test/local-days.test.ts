import { describe, expect, it } from 'vitest';
import { endOfDayIn, isTimeZone, startOfDayIn } from '../src/domain/local-days.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('local day bounds (Date from / Date to in the user time zone)', () => {
  it('takes UTC days for UTC and fixed offsets east and west of it', () => {
    expect(iso(startOfDayIn('2025-08-18', 'UTC'))).toBe('2025-08-18T00:00:00.000Z');
    expect(iso(endOfDayIn('2025-08-18', 'UTC'))).toBe('2025-08-18T23:59:59.999Z');
    expect(iso(startOfDayIn('2025-08-18', 'Europe/Berlin'))).toBe('2025-08-17T22:00:00.000Z');
    expect(iso(endOfDayIn('2025-08-18', 'Europe/Berlin'))).toBe('2025-08-18T21:59:59.999Z');
    expect(iso(startOfDayIn('2025-01-18', 'Europe/Berlin'))).toBe('2025-01-17T23:00:00.000Z');
    expect(iso(startOfDayIn('2025-08-18', 'Asia/Kolkata'))).toBe('2025-08-17T18:30:00.000Z');
    expect(iso(startOfDayIn('2025-08-18', 'America/New_York'))).toBe('2025-08-18T04:00:00.000Z');
    expect(iso(endOfDayIn('2025-08-18', 'America/New_York'))).toBe('2025-08-19T03:59:59.999Z');
    expect(iso(startOfDayIn('2025-08-18', 'Pacific/Kiritimati'))).toBe('2025-08-17T10:00:00.000Z');
    expect(iso(startOfDayIn('2025-08-18', '+02:00'))).toBe('2025-08-17T22:00:00.000Z');
  });

  it('gives daylight-saving days their 23 or 25 hours', () => {
    const hours = (day: string, zone: string) => (endOfDayIn(day, zone)! + 1 - startOfDayIn(day, zone)!) / 3_600_000;
    expect(hours('2025-03-30', 'Europe/Berlin')).toBe(23);
    expect(hours('2025-10-26', 'Europe/Berlin')).toBe(25);
    expect(hours('2025-03-09', 'America/New_York')).toBe(23);
    expect(hours('2025-08-18', 'Europe/Berlin')).toBe(24);
  });

  it('starts a day whose midnight does not exist at its first real instant', () => {
    // Santiago moves its clocks from 00:00 to 01:00 on 2025-09-07: the day starts at 01:00 local (-03:00).
    expect(iso(startOfDayIn('2025-09-07', 'America/Santiago'))).toBe('2025-09-07T04:00:00.000Z');
    expect(iso(endOfDayIn('2025-09-06', 'America/Santiago'))).toBe('2025-09-07T03:59:59.999Z');
  });

  it('answers null for an impossible day or an unknown zone', () => {
    expect(startOfDayIn('2025-02-30', 'Europe/Berlin')).toBeNull();
    expect(endOfDayIn('2025-08-18', 'Mars/Olympus_Mons')).toBeNull();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('europe/berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
