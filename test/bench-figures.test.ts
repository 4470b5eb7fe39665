/**
 * The ingestion benchmarks' figures count accepted work only: a run that ran into its
 * own hourly quota printed 413,000 "accepted" logs/s beside 2,630 refusals.
 */
import { describe, expect, it } from 'vitest';
import { createCounters } from '@skald/adapters';
import { okPerSecond } from '../scripts/bench/harness/http-load.ts';
import type { AutocannonResult } from '../scripts/bench/harness/http-load.ts';
import { unlimitedQuota } from '../scripts/bench/harness/unlimited-quota.ts';

describe('bench figures', () => {
  it('a rate counts 2xx answers only, over the measured seconds', () => {
    const result: AutocannonResult = { requests: { average: 413 }, latency: { p99: 3 }, '2xx': 1500, non2xx: 2630, duration: 10 };
    expect(okPerSecond(result)).toBe(150);
  });

  it('the benchmark quota never runs out, yet every consume reaches the real counter', async () => {
    const real = await createCounters({ kind: 'memory' });
    const counters = unlimitedQuota(real);
    const limit = 1_500_000;
    // Ten hours' worth of the legend tier in one window, 1000 logs per request, 8 in flight at a time.
    for (let round = 0; round < 1_875; round += 1) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => counters.consume('quota:bench', 1000, limit, 3_600_000)));
      expect(answers.every((a) => a.allowed)).toBe(true);
    }
    expect(await real.get('quota:bench')).toBeGreaterThan(0);
    expect(await real.get('quota:bench')).toBeLessThanOrEqual(limit / 2 + 8000);
    await real.close();
  });
});
