/** The log screens' filter form (spec 000 §2); each filled field goes on the list query string as it is named. */
export interface LogFilters {
  search: string;
  type: string;
  level: string;
  resource: string;
  dateFrom: string;
  dateTo: string;
}

export const EMPTY_FILTERS: LogFilters = { search: '', type: '', level: '', resource: '', dateFrom: '', dateTo: '' };
