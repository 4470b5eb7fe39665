/**
 * Datadog logs intake v2 (`POST /api/v2/logs`), the array ox_lib's `datadog` provider sends:
 * `[{ hostname, service, message, resource, ddsource, ddtags }]` (a single object is accepted too).
 *   - service (ox_lib's event) → type, resource → resource, message → message, status → level;
 *   - ddtags `k:v,k:v` → metadata.tags, each split on its first colon; a `table: 0x…` tag (a Lua table
 *     argument passed through tostring) is dropped; hostname, ddsource and any other field → metadata;
 *   - `timestamp`, else `date` (Datadog's own date attributes: epoch ms or ISO 8601) → the log's time
 *     (log-time.ts); when both are sent, `date` stays in metadata.
 */
import { LOG_LIMITS } from '@skald/contracts';
import { isPlainObject } from '../log-input.ts';
import { CompatShapeError, compatLog, lenientTime, splitTags, withoutLuaTables } from './compat-log.ts';
import type { CompatLog } from './compat-log.ts';

const EXPECTED = 'a Datadog log array [{"message":"…","service":"…","ddtags":"k:v,…"}]';

function datadogLog(value: unknown, field: string): CompatLog {
  if (!isPlainObject(value)) throw new CompatShapeError(field, EXPECTED);
  const { message, service, resource, status, level, ddtags, timestamp, date, ...rest } = value;
  const text = typeof message === 'string' && message.trim() !== '' ? message : typeof message === 'object' && message !== null ? JSON.stringify(message) : undefined;
  const fallback = typeof service === 'string' && service.trim() !== '' ? service : undefined;
  if (text === undefined && fallback === undefined) throw new CompatShapeError(`${field}.message`, 'the log text as a string');
  const tags = typeof ddtags === 'string' ? splitTags(ddtags) : {};
  const metadata: Record<string, unknown> = { ...withoutLuaTables(rest) };
  if (Object.keys(tags).length > 0) metadata['tags'] = tags;
  const timed = timestamp !== undefined && timestamp !== null;
  if (timed && date !== undefined) metadata['date'] = date;
  return compatLog({ message: text ?? fallback!, level: status ?? level, type: service, resource, metadata, timestamp: lenientTime(timed ? timestamp : date) });
}

export function parseDatadogBody(body: unknown): CompatLog[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) throw new CompatShapeError('body', `${EXPECTED} with at least one log`);
  if (items.length > LOG_LIMITS.maxBatch) throw new CompatShapeError('body', `at most ${LOG_LIMITS.maxBatch} logs`);
  return items.map((item, i) => datadogLog(item, Array.isArray(body) ? `[${i}]` : 'body'));
}
