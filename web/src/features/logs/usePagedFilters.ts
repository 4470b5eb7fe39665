import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EMPTY_FILTERS, type LogFilters } from './logFilters.ts';
import { useDebounced } from '../common/useDebounced.ts';

/** The filter fields a link may set (an alert's link to /logs names its rule's filter this way). */
const LINKABLE_FILTERS = ['search', 'type', 'level', 'resource', 'dateFrom', 'dateTo'] as const;

/** The filters a page opened with: the address's query fields over the empty form. */
export function filtersFromQuery(params: URLSearchParams): LogFilters {
  const filters: LogFilters = { ...EMPTY_FILTERS };
  for (const field of LINKABLE_FILTERS) filters[field] = params.get(field) ?? '';
  return filters;
}

/** Filter, page and page-size state for the log screens; the page returns to 1 when filters or size change. */
export function usePagedFilters(defaultSize: number) {
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<LogFilters>(() => filtersFromQuery(params));
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultSize);
  const settledFilters = useDebounced(filters, 300);
  useEffect(() => setPage(1), [settledFilters, pageSize]);
  return { filters, setFilters, settledFilters, page, setPage, pageSize, setPageSize };
}
