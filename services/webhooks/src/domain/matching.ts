/**
 * Which logs a webhook receives: its event_type against the log's type, its log_level against
 * the level, its resource against the resource; case-insensitive; a null filter matches everything.
 */
import type { WebhookFilters } from './webhook-store.ts';
import type { WebhookLog } from './platforms/index.ts';

const same = (filter: string | null, value: string) => filter === null || filter.toLowerCase() === value.toLowerCase();

export function matches(filters: WebhookFilters, log: Pick<WebhookLog, 'type' | 'level' | 'resource'>): boolean {
  return same(filters.eventType, log.type) && same(filters.logLevel, log.level) && same(filters.resource, log.resource);
}
