/**
 * The /logs/my filters applied to one log in memory, for logs that reach a live tail without passing
 * through a store query. Same rules as the log store (libs/ports LogQuery): type, level and resource are
 * case-insensitive equality, search a case-insensitive substring of message, type, level, resource or
 * the metadata's JSON text, from/to inclusive bounds on createdAt. Paging fields are ignored.
 */
import type { LogQuery, LogRecord } from '@skald/ports';

export type TailFilters = Omit<LogQuery, 'offset' | 'limit' | 'afterId'>;

const fold = (text: string): string => text.toLowerCase();

function present(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

export function tailMatcher(filters: TailFilters): (record: LogRecord) => boolean {
  const level = present(filters.level) ? fold(filters.level) : undefined;
  const type = present(filters.type) ? fold(filters.type) : undefined;
  const resource = present(filters.resource) ? fold(filters.resource) : undefined;
  const needle = present(filters.search) ? fold(filters.search) : undefined;
  return (r) => {
    if (filters.logType !== undefined && r.logType !== filters.logType) return false;
    if (level !== undefined && fold(r.level) !== level) return false;
    if (type !== undefined && fold(r.type) !== type) return false;
    if (resource !== undefined && fold(r.resource) !== resource) return false;
    if (filters.from !== undefined && r.createdAt < filters.from) return false;
    if (filters.to !== undefined && r.createdAt > filters.to) return false;
    if (needle === undefined) return true;
    const texts = [r.message, r.type, r.level, r.resource, r.metadata === null ? '' : JSON.stringify(r.metadata)];
    return texts.some((text) => fold(text).includes(needle));
  };
}
