/**
 * Fivemanage logs (`POST /api/logs`, `/api/logs/batch`, `/api/v3/logs`): one object or an array of
 * `{ level, message, resource, metadata }`, as the Fivemanage SDK (@fivemanage/winston), ox_lib's
 * `fivemanage` provider and QBCore's qb-log (Config.Logging = 'fivemanage') send them.
 *   - type: the `X-Fivemanage-Dataset` header when set and not `default`, else metadata.service (ox_lib
 *     puts its event there), else the native default;
 *   - metadata.tags as a `k:v,k:v` string (ox_lib before 2025-12) becomes an object of tags;
 *   - ox_lib (since 2025-12) splits each string argument on `:` only, so `'k1:v1,k2:v2'` arrives as
 *     `k1 = "v1,k2"`: stored as it arrives (docs/INGESTION.md);
 *   - an empty Lua table arrives as `[]`: no metadata;
 *   - a top-level `timestamp` (epoch ms or ISO 8601) → the log's time (log-time.ts). The clients above send
 *     none; it is read when a script adds one.
 */
import { LOG_LIMITS } from '@skald/contracts';
import { isPlainObject } from '../log-input.ts';
import { CompatShapeError, compatLog, lenientTime, metadataOf, splitTags } from './compat-log.ts';
import type { CompatLog } from './compat-log.ts';

const EXPECTED = 'a Fivemanage log {"level":"info","message":"…","resource":"…","metadata":{…}} or an array of them';

function fivemanageLog(value: unknown, field: string, dataset: string | undefined): CompatLog {
  if (!isPlainObject(value)) throw new CompatShapeError(field, EXPECTED);
  const { level, message, resource, metadata: rawMetadata, timestamp, ...rest } = value;
  if (typeof message !== 'string' || message.trim() === '') throw new CompatShapeError(`${field}.message`, 'the log text as a string');
  const metadata = { ...metadataOf(rawMetadata, `${field}.metadata`), ...rest };
  if (typeof metadata['tags'] === 'string') metadata['tags'] = splitTags(metadata['tags']);
  const service = typeof metadata['service'] === 'string' ? metadata['service'] : undefined;
  const type = dataset !== undefined && dataset !== '' && dataset !== 'default' ? dataset : service;
  return compatLog({ message, level, type, resource, metadata, timestamp: lenientTime(timestamp) });
}

export function parseFivemanageBody(body: unknown, dataset: string | undefined): CompatLog[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) throw new CompatShapeError('body', `${EXPECTED} (at least one)`);
  if (items.length > LOG_LIMITS.maxBatch) throw new CompatShapeError('body', `at most ${LOG_LIMITS.maxBatch} logs`);
  return items.map((item, i) => fivemanageLog(item, Array.isArray(body) ? `[${i}]` : 'body', dataset));
}
