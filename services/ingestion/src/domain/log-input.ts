/**
 * Validation and normalisation of public log input (docs/spec/part-2.txt section 3): the whole request is checked before
 * anything is published, so a 400 means nothing from that request was stored.
 *
 * Hand-written rather than schema-generated so that the error names the exact field (`[12].level`) and so
 * the hot path stays a few property reads per log.
 */
import { LOG_LEVELS, LOG_LIMITS } from '@skald/contracts';
import type { LogLevel } from '@skald/contracts';
import { ClientTime, readClientTime } from './log-time.ts';
import { METADATA_MAX_DEPTH, metadataShape } from './metadata-shape.ts';

export interface LogInput {
  readonly level: LogLevel;
  readonly type: string;
  readonly resource: string;
  readonly message: string;
  readonly metadata: Record<string, unknown> | null;
  /**
   * The time the client says the log happened (epoch ms), null when it sent none, or (a compatible format)
   * sent one that could not be read. Whether it is taken is decided at acceptance (accepted-log.ts).
   */
  readonly timestamp: number | null;
  /** What the client sent as the time, null when nothing: kept in the log's metadata if the time is refused. */
  readonly timestampSent: string | number | null;
}

/** A field that failed validation; `field` is the path the client sent, e.g. `message` or `[3].level`. */
export class InvalidFieldError extends Error {
  override readonly name = 'InvalidFieldError';
  readonly field: string;
  readonly reason: string;
  constructor(field: string, reason: string) {
    super(`Invalid field '${field}': ${reason}`);
    this.field = field;
    this.reason = reason;
  }
}

const ALLOWED_FIELDS = new Set(['message', 'level', 'type', 'resource', 'metadata', 'timestamp']);
const LEVEL_SET: ReadonlySet<string> = new Set(LOG_LEVELS);
/** Aliases seen in the wild: the FiveM resource documented in docs/spec/part-2.txt section 2 sends 'warning'. */
const LEVEL_ALIASES: Readonly<Record<string, LogLevel>> = { warning: 'warn', err: 'error', critical: 'fatal' };
const LEVEL_LIST = LOG_LEVELS.join(', ');

export const DEFAULT_TYPE = 'General';
export const DEFAULT_RESOURCE = 'unknown';
export const DEFAULT_LEVEL: LogLevel = 'info';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function normalizeLevel(value: unknown, path: string): LogLevel {
  if (value === undefined || value === null || value === '') return DEFAULT_LEVEL;
  if (typeof value !== 'string') throw new InvalidFieldError(path, `must be one of ${LEVEL_LIST}`);
  const lower = value.trim().toLowerCase();
  if (LEVEL_SET.has(lower)) return lower as LogLevel;
  const alias = LEVEL_ALIASES[lower];
  if (alias) return alias;
  throw new InvalidFieldError(path, `must be one of ${LEVEL_LIST}`);
}

function normalizeLabel(value: unknown, path: string, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw new InvalidFieldError(path, 'must be a string');
  const trimmed = value.trim();
  if (trimmed.length > LOG_LIMITS.maxFieldLength) {
    throw new InvalidFieldError(path, `must be at most ${LOG_LIMITS.maxFieldLength} characters`);
  }
  return trimmed === '' ? fallback : trimmed;
}

function normalizeMessage(value: unknown, path: string): string {
  if (value === undefined || value === null) throw new InvalidFieldError(path, 'is required');
  if (typeof value !== 'string') throw new InvalidFieldError(path, 'must be a string');
  if (value.trim() === '') throw new InvalidFieldError(path, 'must not be empty');
  if (value.length > LOG_LIMITS.maxMessageLength) {
    throw new InvalidFieldError(path, `must be at most ${LOG_LIMITS.maxMessageLength} characters`);
  }
  return value;
}

function normalizeMetadata(value: unknown, path: string): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw new InvalidFieldError(path, 'must be a JSON object');
  // The shape first: JSON.stringify below recurses per nesting level and would overflow the stack.
  const shape = metadataShape(value);
  if (shape === 'fits') return value;
  if (shape === 'depth') {
    throw new InvalidFieldError(path, `must nest objects and arrays at most ${METADATA_MAX_DEPTH} levels deep`);
  }
  if (shape === 'size' || JSON.stringify(value).length > LOG_LIMITS.maxMetadataLength) {
    throw new InvalidFieldError(path, `must be at most ${LOG_LIMITS.maxMetadataLength} characters as JSON`);
  }
  return value;
}

const TIMESTAMP_RULE = 'must be an ISO 8601 time with its UTC offset (2025-08-20T11:59:59Z) or epoch milliseconds';

/** The client's time of a present `timestamp` in epoch ms: a compatible format's reading as it is, else the native rule (400 otherwise). */
function clientTimeMs(value: unknown, prefix: string): number | null {
  if (value instanceof ClientTime) return value.ms;
  const ms = typeof value === 'string' || typeof value === 'number' ? readClientTime(value) : null;
  if (ms === null) throw new InvalidFieldError(`${prefix}timestamp`, TIMESTAMP_RULE);
  return ms;
}

/** What was sent as a present `timestamp` (clientTimeMs has refused anything else). */
function timestampSent(value: unknown): string | number {
  return value instanceof ClientTime ? value.sent : (value as string | number);
}

/** Validates one log object; `prefix` is '' for a single log or `[i].` inside a batch. */
export function normalizeLog(value: unknown, prefix = '', messageRequired = true): LogInput {
  if (!isPlainObject(value)) throw new InvalidFieldError(prefix === '' ? 'body' : prefix.slice(0, -1), 'must be a JSON object');
  // for...in rather than Object.keys: no array per log. Inherited keys could only come from a polluted
  // Object.prototype, and would be refused here, not let through.
  for (const key in value) {
    if (!ALLOWED_FIELDS.has(key)) throw new InvalidFieldError(`${prefix}${key}`, 'is not an allowed field');
  }
  const time = value['timestamp'];
  const timed = time !== undefined && time !== null;
  return {
    message:
      !messageRequired && (value['message'] === undefined || value['message'] === '')
        ? ''
        : normalizeMessage(value['message'], `${prefix}message`),
    level: normalizeLevel(value['level'], `${prefix}level`),
    type: normalizeLabel(value['type'], `${prefix}type`, DEFAULT_TYPE),
    resource: normalizeLabel(value['resource'], `${prefix}resource`, DEFAULT_RESOURCE),
    metadata: normalizeMetadata(value['metadata'], `${prefix}metadata`),
    timestamp: timed ? clientTimeMs(time, prefix) : null,
    timestampSent: timed ? timestampSent(time) : null,
  };
}

export interface ParsedLogBody {
  /** The body was an array: the answer lists every id (`{ ids }`), else one (`{ id }`). */
  readonly batch: boolean;
  readonly logs: LogInput[];
}

/** A JSON body: one log object, or an array of 1..maxBatch log objects. */
export function parseLogBody(body: unknown): ParsedLogBody {
  if (Array.isArray(body)) {
    if (body.length === 0) throw new InvalidFieldError('body', 'must contain at least one log');
    if (body.length > LOG_LIMITS.maxBatch) {
      throw new InvalidFieldError('body', `must contain at most ${LOG_LIMITS.maxBatch} logs`);
    }
    const logs = new Array<LogInput>(body.length);
    for (let i = 0; i < body.length; i++) logs[i] = normalizeLog(body[i], `[${i}].`);
    return { batch: true, logs };
  }
  return { batch: false, logs: [normalizeLog(body)] };
}

/** Photo-log multipart fields are strings; metadata arrives as JSON text. */
export function parsePhotoFields(fields: Readonly<Record<string, string>>): LogInput {
  const allowed = new Set(['message', 'level', 'type', 'resource', 'metadata', 'timestamp']);
  for (const key of Object.keys(fields)) {
    if (!allowed.has(key)) throw new InvalidFieldError(key, 'is not an allowed field');
  }
  let metadata: unknown = undefined;
  const rawMetadata = fields['metadata'];
  if (rawMetadata !== undefined && rawMetadata.trim() !== '') {
    if (rawMetadata.length > LOG_LIMITS.maxMetadataLength) {
      throw new InvalidFieldError('metadata', `must be at most ${LOG_LIMITS.maxMetadataLength} characters as JSON`);
    }
    try {
      metadata = JSON.parse(rawMetadata);
    } catch {
      throw new InvalidFieldError('metadata', 'must be a JSON object string');
    }
  }
  // docs/spec/part-2.txt section 3 marks only the photo as required for photo logs; the message may be empty.
  return normalizeLog({ ...fields, metadata }, '', false);
}
