/**
 * The context around one log: the log and the server's text and photo logs just before and after it in
 * time, ordered by (createdAt, id), the same order every list uses (ties in one millisecond by id). Two
 * keyset walks from the log's key, so the cost is the lines asked for, never the server's size.
 */
import type { LogRecord, LogStore } from '@skald/ports';

export interface LogContextRequest {
  readonly serverId: string;
  readonly id: string;
  /** Logs wanted on each side (the route bounds them). */
  readonly before: number;
  readonly after: number;
}

/** Both lists in reading order, oldest first: `before` ends next to `log`, `after` starts next to it. */
export interface LogContextRecords {
  readonly before: LogRecord[];
  readonly log: LogRecord;
  readonly after: LogRecord[];
}

/** Null when the server has no log with that id (none at all, or another server's). */
export async function logContext(store: LogStore, request: LogContextRequest): Promise<LogContextRecords | null> {
  const log = await store.getById(request.serverId, request.id);
  if (log === null) return null;
  const key = { createdAt: log.createdAt, id: log.id };
  const [older, newer] = await Promise.all([
    store.neighbours(request.serverId, key, 'older', request.before),
    store.neighbours(request.serverId, key, 'newer', request.after),
  ]);
  // The older walk answers the nearest first; a reader reads down the page towards the log.
  return { before: older.reverse(), log, after: newer };
}
