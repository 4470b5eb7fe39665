import { userTimeZone } from './userTimeZone.ts';

/** The log screens' filter form (docs/spec/part-1.txt section 2); each filled field goes on the list query string as it is named. */
export interface LogFilters {
  search: string;
  type: string;
  level: string;
  resource: string;
  dateFrom: string;
  dateTo: string;
  /**
   * A narrower range than whole days, set by a click on a histogram bar: ISO instants, timeFrom
   * inclusive, timeTo exclusive (the bar's own from and to).
   */
  timeFrom: string;
  timeTo: string;
}

export const EMPTY_FILTERS: LogFilters = { search: '', type: '', level: '', resource: '', dateFrom: '', dateTo: '', timeFrom: '', timeTo: '' };

/**
 * The query of the logs the filters pick on a server, as the list and the live tail send it: only filled
 * filters, trimmed. A date filter names the user's local day, so it travels with the browser's time zone.
 */
export function filterParams(serverId: string, filters: LogFilters): Record<string, string> {
  const params: Record<string, string> = { serverId };
  for (const [key, value] of Object.entries(filters)) {
    const trimmed = value.trim();
    if (trimmed !== '') params[key] = trimmed;
  }
  const timeZone = params['dateFrom'] || params['dateTo'] ? userTimeZone() : undefined;
  if (timeZone) params['timeZone'] = timeZone;
  return params;
}
