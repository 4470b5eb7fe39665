/**
 * What every compatible format is turned into: the native log object of POST /logs (message, level, type,
 * resource, metadata), which then goes through the SAME validation (log-input.ts normalizeLog), quota and
 * publish as a native log. The mappers only translate; they never decide what is valid.
 *
 * Leniency where the native API would refuse: the clients these formats come from never retry, so an
 * answer other than the one they expect loses their logs. A message longer than the limit is
 * cut (and marked), an unknown level becomes `info` (the original kept in metadata), and the text a Lua
 * table turns into when a client calls tostring() on it (`table: 0x55d0c1a2b3c4`) is dropped.
 */
import { LOG_LEVELS, LOG_LIMITS } from '@skald/contracts';
import { isPlainObject } from '../log-input.ts';
import { ClientTime, readClientTime } from '../log-time.ts';

export interface CompatLog {
  readonly message: string;
  readonly level?: string;
  readonly type?: string;
  readonly resource?: string;
  readonly metadata?: Record<string, unknown> | null;
  /** The time the client sent with the log, as the format's mapper read it (log-time.ts). */
  readonly timestamp?: ClientTime;
}

/** A body or part of one that is not the shape the format expects: answered 400 naming what was expected. */
export class CompatShapeError extends Error {
  override readonly name = 'CompatShapeError';
  readonly field: string;
  constructor(field: string, expected: string) {
    super(`Invalid field '${field}': expected ${expected}`);
    this.field = field;
  }
}

/** `table: 0x7f3a2c0e1b40`: what tostring() makes of a Lua table. */
const LUA_TABLE_TEXT = /^\s*table:\s*0x[0-9a-f]+\s*$/i;
/** The address alone: what is left after a client split `table: 0x…` on its colon. */
const LUA_ADDRESS = /^\s*0x[0-9a-f]+\s*$/i;

export function isLuaTableText(value: unknown): boolean {
  return typeof value === 'string' && LUA_TABLE_TEXT.test(value);
}

function isSplitLuaTable(key: string, value: unknown): boolean {
  return key === 'table' && typeof value === 'string' && LUA_ADDRESS.test(value);
}

/** `k1:v1,k2:v2` as Datadog tags and ox_lib's player tags carry them; each split on its FIRST colon. */
export function splitTags(text: string): Record<string, unknown> {
  const tags: Record<string, unknown> = {};
  for (const raw of text.split(',')) {
    const tag = raw.trim();
    if (tag === '' || isLuaTableText(tag)) continue;
    const colon = tag.indexOf(':');
    if (colon <= 0) {
      tags[tag] = true;
      continue;
    }
    const key = tag.slice(0, colon).trim();
    const value = tag.slice(colon + 1);
    if (isSplitLuaTable(key, value)) continue;
    tags[key] = value;
  }
  return tags;
}

/** Copies metadata without the values that are a Lua table's address (older ox_lib sends `table = " 0x…"`). */
export function withoutLuaTables(metadata: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (isLuaTableText(value) || isSplitLuaTable(key, value)) continue;
    kept[key] = value;
  }
  return kept;
}

/**
 * Lua's json.encode writes an empty table as `[]` and a table with keys 1..n as an array: metadata that
 * arrives as an array is kept under `items` (an empty one is no metadata).
 */
export function metadataOf(value: unknown, field: string): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : { items: value };
  if (isPlainObject(value)) return withoutLuaTables(value);
  throw new CompatShapeError(field, 'a JSON object');
}

const LEVELS: ReadonlySet<string> = new Set([...LOG_LEVELS, 'warning', 'err', 'critical']);

/** A level the native API knows (aliases included) passes as is; anything else is info, the original kept. */
export function lenientLevel(level: unknown, metadata: Record<string, unknown> | null): { level: string; metadata: Record<string, unknown> | null } {
  if (level === undefined || level === null || level === '') return { level: 'info', metadata };
  const text = String(level).trim().toLowerCase();
  if (LEVELS.has(text)) return { level: text, metadata };
  return { level: 'info', metadata: { ...metadata, originalLevel: String(level).slice(0, LOG_LIMITS.maxFieldLength) } };
}

/** A message cut to the limit (marked in metadata) instead of refused. */
export function fittedMessage(message: string, metadata: Record<string, unknown> | null): { message: string; metadata: Record<string, unknown> | null } {
  if (message.length <= LOG_LIMITS.maxMessageLength) return { message, metadata };
  return { message: message.slice(0, LOG_LIMITS.maxMessageLength), metadata: { ...metadata, messageTruncatedFrom: message.length } };
}

/** A label (type, resource) cut to the field limit; empty or not text is left to the native default. */
export function label(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text.slice(0, LOG_LIMITS.maxFieldLength);
}

/**
 * A format's time field read by the native rules (epoch ms, or ISO 8601 with its offset), leniently: a value
 * that is neither is noted as unreadable in the log's metadata, never a refusal of the log. Absent: undefined.
 */
export function lenientTime(value: unknown): ClientTime | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' || typeof value === 'number') return new ClientTime(readClientTime(value), value);
  return new ClientTime(null, JSON.stringify(value));
}

/** The final native log of a compatible one: level and message made lenient, metadata null when empty. */
export function compatLog(parts: {
  message: string;
  level?: unknown;
  type?: unknown;
  resource?: unknown;
  metadata: Record<string, unknown> | null;
  timestamp?: ClientTime | undefined;
}): CompatLog {
  const leveled = lenientLevel(parts.level, parts.metadata);
  const fitted = fittedMessage(parts.message, leveled.metadata);
  const metadata = fitted.metadata !== null && Object.keys(fitted.metadata).length > 0 ? fitted.metadata : null;
  const type = label(parts.type);
  const resource = label(parts.resource);
  return {
    message: fitted.message,
    level: leveled.level,
    ...(type === undefined ? {} : { type }),
    ...(resource === undefined ? {} : { resource }),
    metadata,
    ...(parts.timestamp === undefined ? {} : { timestamp: parts.timestamp }),
  };
}
