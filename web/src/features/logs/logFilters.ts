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
