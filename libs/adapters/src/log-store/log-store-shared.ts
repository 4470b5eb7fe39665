/** Helpers shared by the SQLite and MongoDB log stores. */
import { CLIENT_TIME_WINDOW } from '@skald/contracts/constants';
import type { LogKey, LogQuery, LogStats, LogType, NeighbourDirection } from '@skald/ports';
import { MAX_NEIGHBOURS } from '@skald/ports';

interface MutableCount {
  text: number;
  photo: number;
}

export const DAY_MS = 86_400_000;

/**
 * Default cap on a counted `total` (a search, or filters the rollups cannot answer): exact up to here,
 * then the cap with totalCapped (see docs/DOCUMENT_STORE.md, "Log store"): exact up to 100,000.
 */
export const DEFAULT_COUNT_CAP = 100_000;

/** A total counted with `LIMIT cap + 1`: more than the cap is reported as the cap, capped. */
export function cappedTotal(counted: number, cap: number): { total: number; totalCapped: boolean } {
  return counted > cap ? { total: cap, totalCapped: true } : { total: counted, totalCapped: false };
}

/** Days since the Unix epoch (UTC) of an epoch-ms timestamp. */
export function epochDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

export function dayString(epochDayNumber: number): string {
  return new Date(epochDayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** Parses `YYYY-MM-DD` (UTC) into days since the epoch; throws RangeError otherwise. */
export function parseDay(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`invalid day ${JSON.stringify(day.slice(0, 20))}, expected YYYY-MM-DD`);
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms) || dayString(ms / DAY_MS) !== day) throw new RangeError(`invalid day ${JSON.stringify(day)}`);
  return ms / DAY_MS;
}

export function assertLogType(value: unknown): asserts value is LogType {
  if (value !== 'text' && value !== 'photo') throw new RangeError(`logType must be 'text' or 'photo'`);
}

/** Rejects malformed paging and bounds before they reach a database. */
export function validateLogQuery(query: LogQuery): void {
  if (typeof query.serverId !== 'string' || query.serverId === '') throw new RangeError('serverId is required');
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new RangeError('offset must be a non-negative integer');
  if (!Number.isSafeInteger(query.limit) || query.limit < 0) throw new RangeError('limit must be a non-negative integer');
  if (query.logType !== undefined) assertLogType(query.logType);
  for (const bound of [query.from, query.to]) {
    if (bound !== undefined && !Number.isFinite(bound)) throw new RangeError('from/to must be finite epoch milliseconds');
  }
  for (const text of [query.search, query.type, query.level, query.resource, query.afterId]) {
    if (text !== undefined && typeof text !== 'string') throw new RangeError('search/type/level/resource/afterId must be strings');
  }
}

/** Empty strings in filters mean "no filter" (that is how the UI sends an untouched filter box). */
export function present(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** True when [from, to] covers whole UTC days exactly, so rollup_day can answer the total. */
export function isDayAligned(from: number | undefined, to: number | undefined): boolean {
  return (from === undefined || from % DAY_MS === 0) && (to === undefined || (to + 1) % DAY_MS === 0);
}

export type StatsDimension = 'level' | 'type' | 'resource';

/**
 * Assembles LogStats from rollup rows. Rollup keys are case-insensitive, but each (value, logType) row
 * keeps its own first spelling, so values are merged here by lower case under the first spelling seen.
 */
export class StatsBuilder {
  readonly totals: MutableCount = { text: 0, photo: 0 };
  readonly perDay: Record<string, MutableCount> = {};
  readonly #dims: Record<StatsDimension, Record<string, MutableCount>> = { level: {}, type: {}, resource: {} };
  readonly #spelling: Record<StatsDimension, Map<string, string>> = { level: new Map(), type: new Map(), resource: new Map() };

  static #bump(entry: MutableCount, logType: string, n: number): void {
    if (logType === 'photo') entry.photo += n;
    else entry.text += n;
  }

  addTotal(logType: string, n: number): void {
    StatsBuilder.#bump(this.totals, logType, n);
  }

  addDay(day: string, logType: string, n: number): void {
    StatsBuilder.#bump((this.perDay[day] ??= { text: 0, photo: 0 }), logType, n);
  }

  addDim(dim: StatsDimension, value: string, logType: string, n: number): void {
    const lower = value.toLowerCase();
    let key = this.#spelling[dim].get(lower);
    if (key === undefined) {
      key = value;
      this.#spelling[dim].set(lower, key);
    }
    StatsBuilder.#bump((this.#dims[dim][key] ??= { text: 0, photo: 0 }), logType, n);
  }

  build(): LogStats {
    return { totals: this.totals, perDay: this.perDay, perLevel: this.#dims.level, perType: this.#dims.type, perResource: this.#dims.resource };
  }
}

/** Largest page scan() hands out at once. */
export const MAX_SCAN_PAGE = 10_000;

export function validateScanPageSize(pageSize: number): void {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_SCAN_PAGE) throw new RangeError(`pageSize must be an integer from 1 to ${MAX_SCAN_PAGE}`);
}

/** A UUIDv7 in its text form (version nibble 7, RFC 9562 variant). */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Room around ingestion's window for an id whose time is not quite the arrival: the id generator borrows
 * the next millisecond past 4,096 ids in one, and keeps counting on its last millisecond when the clock
 * steps back.
 */
const ID_TIME_SLACK_MS = 60_000;

/** An inclusive range of createdAt (epoch ms). */
export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

/**
 * Where a log with this id can lie in createdAt, for a store without an index on the id alone: a UUIDv7
 * (ingestion's ids) carries its arrival, `at`, and the log's time is within CLIENT_TIME_WINDOW of it. The
 * ranges widen from `at` (a log's own time is nearly always its arrival, or a game server's clock seconds
 * off it), so a store reads few rows for nearly every log and the whole window only for the rare log
 * stamped long before it arrived, or for an id of no log. Null for any other id: the whole server is looked through.
 */
export function idTimeRanges(id: string): { at: number; ranges: readonly TimeRange[] } | null {
  if (!UUID_V7.test(id)) return null;
  const at = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  const latest = at + CLIENT_TIME_WINDOW.maxAheadMs + ID_TIME_SLACK_MS;
  const range = (before: number, after: number): TimeRange => ({ from: Math.max(0, at - before), to: after });
  return {
    at,
    ranges: [range(5_000, at + 5_000), range(10 * 60_000, latest), range(CLIENT_TIME_WINDOW.maxAgeMs + ID_TIME_SLACK_MS, latest)],
  };
}

/** Refuses a malformed neighbours() call before it reaches a database. */
export function validateNeighbours(serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): void {
  if (typeof serverId !== 'string' || serverId === '') throw new RangeError('serverId is required');
  if (!Number.isFinite(key.createdAt) || typeof key.id !== 'string') throw new RangeError('key must be a finite createdAt and a string id');
  if (direction !== 'older' && direction !== 'newer') throw new RangeError("direction must be 'older' or 'newer'");
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_NEIGHBOURS) throw new RangeError(`limit must be an integer from 0 to ${MAX_NEIGHBOURS}`);
}
