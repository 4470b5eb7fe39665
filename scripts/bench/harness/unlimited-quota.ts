/**
 * Counters for the ingestion benchmarks: the real adapter, except that a quota window used past half
 * its limit is emptied at once. Every request still pays for the real quota check (one consume on the
 * real counter), but a benchmark can never run into its own hourly quota however fast it goes, as long
 * as fewer than limit/2 logs are in flight (8 connections x 1000 logs against the legend tier's 1.5M).
 * Without it, a run that ran out of quota printed refused requests as accepted logs.
 */
import type { ConsumeResult, Counters } from '@skald/ports';

export function unlimitedQuota(inner: Counters): Counters {
  return {
    async consume(key: string, points: number, limit: number, windowMs: number): Promise<ConsumeResult> {
      const result = await inner.consume(key, points, limit, windowMs);
      if (result.used * 2 > limit) await inner.reset(key);
      return result;
    },
    release: (key, points) => inner.release(key, points),
    peek: (key, limit, windowMs) => inner.peek(key, limit, windowMs),
    increment: (key, n, ttlMs) => inner.increment(key, n, ttlMs),
    get: (key) => inner.get(key),
    reset: (key) => inner.reset(key),
    close: () => inner.close(),
  };
}
