import { useEffect, useState } from 'react';
import { EMPTY_FILTERS, type LogFilters } from './logFilters.ts';
import { useDebounced } from '../common/useDebounced.ts';

/** Filter, page and page-size state for the log screens; the page returns to 1 when filters or size change. */
export function usePagedFilters(defaultSize: number) {
  const [filters, setFilters] = useState<LogFilters>(EMPTY_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultSize);
  const settledFilters = useDebounced(filters, 300);
  useEffect(() => setPage(1), [settledFilters, pageSize]);
  return { filters, setFilters, settledFilters, page, setPage, pageSize, setPageSize };
}
