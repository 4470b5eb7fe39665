import { EMPTY_FILTERS, type LogFilters } from './logFilters.ts';

/**
 * Everything a log screen shows, as its address carries it: a copied link opens the same view. The display
 * (cards or table) is the browser's own choice and not part of it.
 */
export interface LogView {
  filters: LogFilters;
  page: number;
  pageSize: number;
  live: boolean;
  /** A log whose neighbours the screen shows instead of the list (`?log=`). */
  log: string | null;
}

export interface ViewRules {
  sizes: readonly number[];
  /** The spec's first page size: left out of the address. */
  defaultSize: number;
  /** What an address without a page size means in this browser (the table shows more lines than the cards). */
  absentSize?: number;
  /** Whether the screen has a live tail (/photologs has none). */
  liveAllowed: boolean;
}

/** Filter fields in the order they appear in the address. */
export const FILTER_FIELDS = ['search', 'type', 'level', 'resource', 'dateFrom', 'dateTo', 'timeFrom', 'timeTo'] as const satisfies readonly (keyof LogFilters)[];

/** Fields a person types letter by letter: their changes reach the address once typing settles, replacing it. */
export const TYPED_FIELDS: readonly (keyof LogFilters)[] = ['search', 'type', 'resource'];

function isInstant(text: string): boolean {
  return /^\d{4}-\d\d-\d\dT/.test(text) && !Number.isNaN(Date.parse(text));
}

function positiveInt(raw: string | null): number | null {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 ? n : null;
}

/** The view an address names; anything missing or out of range falls back to the screen's default. */
export function viewFromQuery(params: URLSearchParams, rules: ViewRules): LogView {
  const filters: LogFilters = { ...EMPTY_FILTERS };
  for (const field of FILTER_FIELDS) filters[field] = params.get(field) ?? '';
  // A bar's range is a pair of instants; half a pair or a word is no range.
  if (!isInstant(filters.timeFrom) || !isInstant(filters.timeTo)) {
    filters.timeFrom = '';
    filters.timeTo = '';
  }
  const size = positiveInt(params.get('pageSize'));
  const log = params.get('log');
  return {
    filters,
    page: positiveInt(params.get('page')) ?? 1,
    pageSize: size !== null && rules.sizes.includes(size) ? size : (rules.absentSize ?? rules.defaultSize),
    live: rules.liveAllowed && params.get('live') === '1',
    log: log !== null && log !== '' ? log : null,
  };
}

/** The one address of a view: defaults left out, fields in a fixed order, so equal views have equal links. */
export function queryFromView(serverId: string, view: LogView, rules: ViewRules): URLSearchParams {
  const query = new URLSearchParams({ serverId });
  for (const field of FILTER_FIELDS) if (view.filters[field] !== '') query.set(field, view.filters[field]);
  if (view.page > 1) query.set('page', String(view.page));
  if (view.pageSize !== rules.defaultSize) query.set('pageSize', String(view.pageSize));
  if (view.live && rules.liveAllowed) query.set('live', '1');
  if (view.log !== null) query.set('log', view.log);
  return query;
}

/** A key equal for equal filter values (the form and the address compare through it). */
export function filtersKey(filters: LogFilters): string {
  return FILTER_FIELDS.map((field) => filters[field]).join('\u0000');
}

/** Whether `next` differs from `current` only in fields a person types. */
export function onlyTypedFieldsChanged(current: LogFilters, next: LogFilters): boolean {
  return FILTER_FIELDS.every((field) => TYPED_FIELDS.includes(field) || current[field] === next[field]);
}

/** The address of the logs around one log: what a "copy link" gives. */
export function contextHref(serverId: string, logId: string): string {
  return `/logs?${new URLSearchParams({ serverId, log: logId }).toString()}`;
}
