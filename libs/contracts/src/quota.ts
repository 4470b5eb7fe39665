/**
 * The logs-per-hour quota window, shared by the ingestion service (Counters.consume on every accepted log)
 * and the logs service (Counters.peek for GET /server/usage/{id}). Both MUST build the key here so they
 * read and write the same counter.
 *
 * Windows are aligned to the clock hour (UTC) and the window start is part of the key, so every instance
 * agrees on the window regardless of when its first log arrived, and `reset` is simply the next full hour.
 */
export const QUOTA_WINDOW_MS = 3_600_000;

/** Epoch ms of the start of the hour window containing `now`. */
export function quotaWindowStart(now: number): number {
  return Math.floor(now / QUOTA_WINDOW_MS) * QUOTA_WINDOW_MS;
}

/** Counters key for a server's log quota in the window starting at `windowStart` (from quotaWindowStart). */
export function quotaKey(serverId: string, windowStart: number): string {
  return `quota:logs:${serverId}:${windowStart}`;
}
