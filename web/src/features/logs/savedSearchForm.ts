/**
 * The saved-search menu's logic (docs/LOGS_API.md "Saved searches"): what of the page's filters a search
 * keeps, the filters a search sets when applied, its one-line summary, the name check (the server's own
 * sentences) and who may delete it.
 */
import { SAVED_SEARCH_LIMITS, SAVED_SEARCH_NAME_REQUIRED, SAVED_SEARCH_NAME_TOO_LONG, SAVED_SEARCH_NO_FILTER } from '@skald/contracts/api';
import type { SavedSearch, SavedSearchQuery, ServerRole } from '@skald/contracts/api';
import { EMPTY_FILTERS, type LogFilters } from './logFilters.ts';

export const SAVED_SEARCH_TEXT = {
  menu: 'Saved searches',
  nameLabel: 'Name for the current filters',
  save: 'Save current filters',
  saved: 'Search saved.',
  deleted: 'Saved search deleted.',
  empty: 'No saved searches yet: set filters, name them and save them for the whole team.',
  noFilter: SAVED_SEARCH_NO_FILTER,
  loadFailed: 'Saved searches could not be loaded. Check your connection.',
  saveFailed: 'The search could not be saved. Try again.',
  deleteFailed: 'The saved search could not be deleted. Try again.',
  confirmDelete: 'Delete this saved search for everyone?',
} as const;

/** The filters a search keeps: the six the server stores, trimmed, blank ones left out (a histogram bar's range is not one). */
export function queryOfFilters(filters: LogFilters): SavedSearchQuery {
  const query: Record<string, string> = {};
  for (const field of ['search', 'type', 'level', 'resource', 'dateFrom', 'dateTo'] as const) {
    const value = filters[field].trim();
    if (value !== '') query[field] = value;
  }
  return query as SavedSearchQuery;
}

export function hasFilter(filters: LogFilters): boolean {
  return Object.keys(queryOfFilters(filters)).length > 0;
}

/** Applying a search replaces every filter of the page, a histogram bar's range included. */
export function filtersOfQuery(query: SavedSearchQuery): LogFilters {
  return { ...EMPTY_FILTERS, ...query };
}

/** 'Search “bank” · Level error · Type Robbery · 2025-08-01 to 2025-08-20' */
export function querySummary(query: SavedSearchQuery): string {
  const parts: string[] = [];
  if (query.search) parts.push(`Search “${query.search}”`);
  if (query.level) parts.push(`Level ${query.level}`);
  if (query.type) parts.push(`Type ${query.type}`);
  if (query.resource) parts.push(`Resource ${query.resource}`);
  if (query.dateFrom && query.dateTo) parts.push(`${query.dateFrom} to ${query.dateTo}`);
  else if (query.dateFrom) parts.push(`from ${query.dateFrom}`);
  else if (query.dateTo) parts.push(`until ${query.dateTo}`);
  return parts.join(' · ');
}

/** The server's sentence for a name it would refuse (a taken name only the server can tell), or null. */
export function nameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return SAVED_SEARCH_NAME_REQUIRED;
  if ([...trimmed].length > SAVED_SEARCH_LIMITS.maxNameLength) return SAVED_SEARCH_NAME_TOO_LONG;
  return null;
}

/** Who the server lets delete a search: the member who saved it, and the server's owner and admins. */
export function mayDelete(search: SavedSearch, userId: string | undefined, role: ServerRole | undefined): boolean {
  return role === 'owner' || role === 'admin' || (userId !== undefined && search.createdBy === userId);
}
