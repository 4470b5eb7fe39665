/**
 * The list query shared by GET /logs/my, /logs/my/combined and /photologs/my: schema for Fastify and the
 * translation into the LogStore's LogQuery. Filtering, search and paging all run in the store.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import type { LogQuery, LogType } from '@skald/ports';
import { endOfDayIn, isTimeZone, startOfDayIn } from './local-days.ts';

export const MAX_PAGE_SIZE = 250;
/** Without `page`, a list answers the newest this many logs (the spec's polling screens expect "the list"). */
export const UNPAGED_LIMIT = 1000;
export const DEFAULT_LOG_PAGE_SIZE = 10;
export const DEFAULT_PHOTO_PAGE_SIZE = 6;

const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
/** Empty string allowed: the web client sends `dateFrom=&dateTo=` when no date is picked. */
const day = Type.Optional(Type.String({ maxLength: 10, pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' }));
/** An ISO 8601 instant with its offset (`2025-03-10T14:00:00Z`); empty allowed, like the days. */
const instant = Type.Optional(Type.String({ maxLength: 40 }));
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** An IANA zone name (`Europe/Berlin`) or an offset (`+02:00`); empty or absent means UTC. */
const zone = Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_+\\-/:]*$' }));

export const ListQuerySchema = Type.Object(
  {
    serverId: Type.String({ minLength: 1, maxLength: 64 }),
    search: text(200),
    type: text(200),
    level: text(200),
    resource: text(200),
    dateFrom: day,
    dateTo: day,
    /** The time zone in which dateFrom and dateTo name their days; UTC when absent. */
    timeZone: zone,
    /**
     * Narrower than a day (a histogram bar): logs created at timeFrom or later and before timeTo;
     * applied together with dateFrom/dateTo.
     */
    timeFrom: instant,
    timeTo: instant,
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuerySchema>;

export type ListQueryResult = { readonly ok: true; readonly query: LogQuery } | { readonly ok: false; readonly error: string };

/** Blank filter values mean "no filter" (forms send empty fields). */
function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * `serverId` is the server the route's guard granted (serverAccessOf), never the query string's own field
 * read a second time: the checked id and the queried id are one by construction.
 */
export function toLogQuery(serverId: string, input: ListQuery, logType: LogType | undefined, defaultPageSize: number): ListQueryResult {
  let from: number | undefined;
  let to: number | undefined;
  const dateFrom = nonBlank(input.dateFrom);
  const dateTo = nonBlank(input.dateTo);
  const timeZone = nonBlank(input.timeZone) ?? 'UTC';
  if (!isTimeZone(timeZone)) return { ok: false, error: 'timeZone must be a time zone such as Europe/Berlin or +02:00' };
  if (dateFrom !== undefined) {
    const start = startOfDayIn(dateFrom, timeZone);
    if (start === null) return { ok: false, error: 'dateFrom must be a date YYYY-MM-DD' };
    from = start;
  }
  if (dateTo !== undefined) {
    const end = endOfDayIn(dateTo, timeZone);
    if (end === null) return { ok: false, error: 'dateTo must be a date YYYY-MM-DD' };
    to = end;
  }
  const timeFrom = nonBlank(input.timeFrom);
  if (timeFrom !== undefined) {
    const at = parseInstant(timeFrom);
    if (at === null) return { ok: false, error: 'timeFrom must be an ISO 8601 time such as 2025-03-10T14:00:00Z' };
    from = Math.max(from ?? at, at);
  }
  const timeTo = nonBlank(input.timeTo);
  if (timeTo !== undefined) {
    const at = parseInstant(timeTo);
    if (at === null) return { ok: false, error: 'timeTo must be an ISO 8601 time such as 2025-03-10T15:00:00Z' };
    // Exclusive: the store's bound is inclusive.
    to = Math.min(to ?? at - 1, at - 1);
  }
  const paged = input.page !== undefined;
  const pageSize = input.pageSize ?? defaultPageSize;
  const query: LogQuery = {
    serverId,
    ...(logType ? { logType } : {}),
    ...optional('search', nonBlank(input.search)),
    ...optional('type', nonBlank(input.type)),
    ...optional('level', nonBlank(input.level)),
    ...optional('resource', nonBlank(input.resource)),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    offset: paged ? (input.page! - 1) * pageSize : 0,
    limit: paged ? pageSize : UNPAGED_LIMIT,
  };
  return { ok: true, query };
}

function parseInstant(text: string): number | null {
  if (!INSTANT_PATTERN.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
