/**
 * In-process counters for a single instance (tests, the all-in-one launcher).
 * Same semantics as the Redis adapter: fixed windows that start at the first consume,
 * plain counters that expire ttlMs after their first increment.
 */
import type { ConsumeResult, Counters } from '@skald/ports';

interface Entry {
  value: number;
  expiresAt: number;
}

export class MemoryCounters implements Counters {
  readonly #entries = new Map<string, Entry>();

  /** Returns the live entry, dropping it when its window or TTL has passed. */
  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async consume(key: string, points: number, limit: number, windowMs: number): Promise<ConsumeResult> {
    assertCounterArgs(points, windowMs);
    const now = Date.now();
    const entry = this.#live(key, now);
    const used = entry?.value ?? 0;
    const resetAt = entry?.expiresAt ?? now + windowMs;
    if (used + points > limit) return { allowed: false, used, limit, resetAt };
    if (entry) entry.value += points;
    else this.#entries.set(key, { value: points, expiresAt: resetAt });
    return { allowed: true, used: used + points, limit, resetAt };
  }

  async release(key: string, points: number): Promise<number> {
    assertPoints(points);
    const entry = this.#live(key, Date.now());
    if (!entry) return 0;
    entry.value = Math.max(0, entry.value - points);
    return entry.value;
  }

  async peek(key: string, limit: number, windowMs: number): Promise<ConsumeResult> {
    const now = Date.now();
    const entry = this.#live(key, now);
    return { allowed: (entry?.value ?? 0) < limit, used: entry?.value ?? 0, limit, resetAt: entry?.expiresAt ?? now + windowMs };
  }

  async increment(key: string, n: number, ttlMs: number): Promise<number> {
    assertCounterArgs(n, ttlMs);
    const now = Date.now();
    const entry = this.#live(key, now);
    if (entry) {
      entry.value += n;
      return entry.value;
    }
    this.#entries.set(key, { value: n, expiresAt: now + ttlMs });
    return n;
  }

  async get(key: string): Promise<number> {
    return this.#live(key, Date.now())?.value ?? 0;
  }

  async reset(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }
}

/** Shared by both adapters so a bad call fails the same way everywhere. */
export function assertCounterArgs(points: number, windowMs: number): void {
  assertPoints(points);
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) throw new Error(`window/ttl must be a positive integer of ms, got ${windowMs}`);
}

export function assertPoints(points: number): void {
  if (!Number.isSafeInteger(points) || points < 0) throw new Error(`points must be a non-negative integer, got ${points}`);
}
