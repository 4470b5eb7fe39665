/**
 * Which accepted logs an alert rule counts: every field the filter gives must match. level, type and
 * resource compare equal ignoring case (as webhook filters do); search looks for the text in the message,
 * ignoring case; metadata names top-level keys whose value, as text, must equal the one given.
 */
import type { AlertFilter } from '@skald/contracts';
import type { WebhookLog } from '../platforms/index.ts';

const same = (filter: string | undefined, value: string) => filter === undefined || filter.toLowerCase() === value.toLowerCase();

function metadataText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function alertMatches(filter: AlertFilter, log: Pick<WebhookLog, 'level' | 'type' | 'resource' | 'message' | 'metadata'>): boolean {
  if (!same(filter.level, log.level) || !same(filter.type, log.type) || !same(filter.resource, log.resource)) return false;
  if (filter.search !== undefined && !log.message.toLowerCase().includes(filter.search.toLowerCase())) return false;
  if (filter.metadata !== undefined) {
    for (const [key, value] of Object.entries(filter.metadata)) {
      const actual = log.metadata?.[key];
      if (actual === undefined || metadataText(actual) !== value) return false;
    }
  }
  return true;
}

/** The filter as one line a person reads ("level=error, type=AntiCheat"), or "all logs". */
export function describeFilter(filter: AlertFilter): string {
  const parts: string[] = [];
  for (const key of ['level', 'type', 'resource', 'search'] as const) if (filter[key] !== undefined) parts.push(`${key}=${filter[key]}`);
  for (const [key, value] of Object.entries(filter.metadata ?? {})) parts.push(`metadata.${key}=${value}`);
  return parts.length === 0 ? 'all logs' : parts.join(', ');
}
