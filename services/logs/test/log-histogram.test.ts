import { describe, expect, it } from 'vitest';
import { MAX_BARS, chooseStep, planBuckets } from '../src/domain/log-histogram.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);

describe('histogram steps and bars', () => {
  it('picks the smallest round step that keeps the range to at most 60 bars', () => {
    expect(chooseStep(10 * MIN).name).toBe('1m');
    expect(chooseStep(60 * MIN).name).toBe('1m');
    expect(chooseStep(61 * MIN).name).toBe('5m');
    expect(chooseStep(24 * HOUR).name).toBe('30m');
    expect(chooseStep(7 * DAY).name).toBe('3h');
    expect(chooseStep(30 * DAY).name).toBe('12h');
    expect(chooseStep(60 * DAY).name).toBe('1d');
    expect(chooseStep(365 * DAY).name).toBe('7d');
    expect(chooseStep(100 * 365 * DAY).name).toBe('30d');
  });

  it('spans the oldest to the newest match when no range is given, on the step grid, never past 60 bars', () => {
    const plan = planBuckets({ first: at('2025-08-18T10:07:31Z'), last: at('2025-08-18T13:52:00Z'), capped: false }, { timeZone: 'UTC', now: at('2025-08-20T00:00:00Z') });
    expect(plan.step.name).toBe('5m');
    expect(new Date(plan.edges[0]!).toISOString()).toBe('2025-08-18T10:05:00.000Z');
    expect(new Date(plan.edges.at(-1)!).toISOString()).toBe('2025-08-18T13:55:00.000Z');
    expect(plan.edges.length - 1).toBeLessThanOrEqual(MAX_BARS);
  });

  it('does not draw the hours after now when the range ends later (today)', () => {
    const plan = planBuckets(
      { first: at('2025-08-18T01:00:00Z'), last: at('2025-08-18T05:00:00Z'), capped: false },
      { from: at('2025-08-18T00:00:00Z'), to: at('2025-08-18T23:59:59.999Z'), timeZone: 'UTC', now: at('2025-08-18T06:10:00Z') },
    );
    expect(new Date(plan.edges.at(-1)!).toISOString()).toBe('2025-08-18T06:15:00.000Z');
  });

  it('past the cap, starts at the first grid instant at or after the first counted one, so every bar is exact', () => {
    const plan = planBuckets({ first: at('2025-08-18T10:07:31Z'), last: at('2025-08-18T13:52:00Z'), capped: true }, { timeZone: 'UTC', now: at('2025-08-20T00:00:00Z') });
    expect(new Date(plan.edges[0]!).toISOString()).toBe('2025-08-18T10:10:00.000Z');
  });
});
