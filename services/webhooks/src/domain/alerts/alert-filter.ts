/**
 * Which accepted logs an alert rule counts: every field the filter gives must match. level, type and
 * resource compare equal ignoring case (as webhook filters do); search looks for the text in the message,
 * ignoring case (Unicode case folding: a regular expression of the text, so no message is copied to lower
 * case); metadata names top-level keys whose value, as text, must equal the one given.
 */
import type { AlertFilter } from '@skald/contracts';
import type { WebhookLog } from '../platforms/index.ts';

export function metadataText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

type FilterableLog = Pick<WebhookLog, 'level' | 'type' | 'resource' | 'message' | 'metadata'>;

/** A log with level, type and resource lower-cased once, however many rules look at it; the message as it came. */
export interface PreparedLog {
  readonly level: string;
  readonly type: string;
  readonly resource: string;
  readonly message: string;
  readonly metadata: WebhookLog['metadata'];
}

export function prepareLog(log: FilterableLog): PreparedLog {
  return { level: log.level.toLowerCase(), type: log.type.toLowerCase(), resource: log.resource.toLowerCase(), message: log.message, metadata: log.metadata };
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** Finds any of the texts in a message, ignoring case. */
export function searchPattern(texts: readonly string[]): RegExp {
  return new RegExp(texts.map(escapeRegExp).join('|'), 'iu');
}

/** The filter as a test of prepared logs, its texts lower-cased once (a rule is compared with every log of a read). */
export function compileAlertFilter(filter: AlertFilter): (log: PreparedLog) => boolean {
  const level = filter.level?.toLowerCase();
  const type = filter.type?.toLowerCase();
  const resource = filter.resource?.toLowerCase();
  const search = filter.search === undefined ? undefined : searchPattern([filter.search]);
  const metadata = filter.metadata === undefined ? [] : Object.entries(filter.metadata);
  return (log) => {
    if ((level !== undefined && level !== log.level) || (type !== undefined && type !== log.type) || (resource !== undefined && resource !== log.resource)) return false;
    if (search !== undefined && !search.test(log.message)) return false;
    for (const [key, value] of metadata) {
      const actual = log.metadata?.[key];
      if (actual === undefined || metadataText(actual) !== value) return false;
    }
    return true;
  };
}

export function alertMatches(filter: AlertFilter, log: FilterableLog): boolean {
  return compileAlertFilter(filter)(prepareLog(log));
}

/** The filter as one line a person reads ("level=error, type=AntiCheat"), or "all logs". */
export function describeFilter(filter: AlertFilter): string {
  const parts: string[] = [];
  for (const key of ['level', 'type', 'resource', 'search'] as const) if (filter[key] !== undefined) parts.push(`${key}=${filter[key]}`);
  for (const [key, value] of Object.entries(filter.metadata ?? {})) parts.push(`metadata.${key}=${value}`);
  return parts.length === 0 ? 'all logs' : parts.join(', ');
}
