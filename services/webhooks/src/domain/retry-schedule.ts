/**
 * When to try a failed delivery again (docs/WEBHOOKS.md "Retry schedule"): exponential backoff from a
 * base delay (x4 per attempt, capped at one hour) with ±20 % jitter so that many deliveries failing
 * together do not come back together; and how long a receiver's Retry-After (429, 503) or Discord's
 * `retry_after` asks us to wait, bounded so that a receiver cannot park a delivery forever.
 */

export const RETRY_FACTOR = 4;
export const RETRY_MAX_DELAY_MS = 60 * 60_000;
export const RETRY_JITTER = 0.2;
/** A Retry-After longer than this is cut to it. */
export const MAX_THROTTLE_DELAY_MS = 10 * 60_000;
/** Without a usable Retry-After, a throttled delivery waits this long. */
export const DEFAULT_THROTTLE_DELAY_MS = 5_000;

/** Delay before attempt `failedAttempt + 1`; `random` in [0, 1). */
export function retryDelayMs(baseMs: number, failedAttempt: number, random: () => number = Math.random): number {
  const raw = Math.min(RETRY_MAX_DELAY_MS, baseMs * RETRY_FACTOR ** Math.max(0, failedAttempt - 1));
  const jitter = 1 + RETRY_JITTER * (2 * random() - 1);
  return Math.max(0, Math.round(raw * jitter));
}

/**
 * The wait a throttled answer asks for: the Retry-After header (seconds or an HTTP date), else a JSON
 * body's `retry_after` (Discord: seconds, possibly fractional), else the default; within [0, max].
 */
export function throttleDelayMs(headers: Readonly<Record<string, string>>, body: string, nowMs: number): number {
  const header = headers['retry-after'];
  let ms: number | null = null;
  if (header !== undefined) {
    const seconds = Number(header);
    if (Number.isFinite(seconds)) ms = seconds * 1000;
    else {
      const date = Date.parse(header);
      if (Number.isFinite(date)) ms = date - nowMs;
    }
  }
  if (ms === null) {
    try {
      const parsed = JSON.parse(body) as { retry_after?: unknown };
      if (typeof parsed.retry_after === 'number' && Number.isFinite(parsed.retry_after)) ms = parsed.retry_after * 1000;
    } catch {
      // Not JSON: no hint.
    }
  }
  if (ms === null) return DEFAULT_THROTTLE_DELAY_MS;
  return Math.min(MAX_THROTTLE_DELAY_MS, Math.max(0, Math.ceil(ms)));
}
