/**
 * How a log row of the embedded store reads and writes (sqlite-log-schema.ts holds the table itself): the
 * columns a page selects, the clustered key the delete paths collect, a stored row turned into a LogRecord
 * and a record bound into an INSERT. Every read and write module of the store shares these, so the column
 * lists and their order live in one place.
 */
import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';
import type { LogRecord } from '@skald/ports';
import { DIM_LEVEL, DIM_RESOURCE, DIM_TYPE } from './sqlite-log-schema.ts';

export const PAGE_COLUMNS = 'id, created_at, level, type, resource, message, metadata, log_type, image_key, thumb_key, expires_at, received_at';
export const ALIASED_PAGE_COLUMNS = PAGE_COLUMNS.split(', ')
  .map((c) => `l.${c}`)
  .join(', ');
/** The clustered key of a row, as the delete paths select it. */
export const KEY_COLUMNS = 'server_key, created_at, id';
/** What a search matches (docs/spec/part-1.txt section 5). */
export const SEARCH_COLUMNS = ['message', 'type', 'level', 'resource', 'metadata'] as const;

/** The rollup dimensions by their number in rollup_dim and their column (and LogQuery filter) name. */
export const DIM_BY_NAME = [
  [DIM_LEVEL, 'level'],
  [DIM_TYPE, 'type'],
  [DIM_RESOURCE, 'resource'],
] as const;
export const DIM_NUMBER = { level: DIM_LEVEL, type: DIM_TYPE, resource: DIM_RESOURCE } as const;

/** Values one row binds in an INSERT (LOG_COLUMNS). */
export const INSERT_COLUMNS = 13;

export function str(value: SQLOutputValue | undefined): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

export function num(value: SQLOutputValue | undefined): number {
  return typeof value === 'number' ? value : Number(value ?? 0);
}

function optionalStr(value: SQLOutputValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** LIKE pattern for a case-insensitive substring match; `\` escapes the wildcards typed by the user. */
export function likePattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function toRecord(serverId: string, row: Record<string, SQLOutputValue>): LogRecord {
  const metadata = optionalStr(row['metadata']);
  const receivedAt = row['received_at'];
  const record: { -readonly [K in keyof LogRecord]: LogRecord[K] } = {
    id: str(row['id']),
    serverId,
    createdAt: num(row['created_at']),
    level: str(row['level']),
    type: str(row['type']),
    resource: str(row['resource']),
    message: str(row['message']),
    metadata: metadata === null ? null : (JSON.parse(metadata) as Record<string, unknown>),
    logType: str(row['log_type']) === 'photo' ? 'photo' : 'text',
    imageKey: optionalStr(row['image_key']),
    thumbKey: optionalStr(row['thumb_key']),
    expiresAt: num(row['expires_at']),
  };
  // NULL: received at created_at (see sqlite-log-schema.ts).
  if (receivedAt !== null && receivedAt !== undefined) record.receivedAt = num(receivedAt);
  return record;
}

/** Writes one record's values at `o`, in LOG_COLUMNS order. */
export function fillRow(args: SQLInputValue[], o: number, serverKey: number, r: LogRecord): void {
  args[o] = serverKey;
  args[o + 1] = r.createdAt;
  args[o + 2] = r.id;
  args[o + 3] = r.level;
  args[o + 4] = r.type;
  args[o + 5] = r.resource;
  args[o + 6] = r.message;
  args[o + 7] = r.metadata === null ? null : JSON.stringify(r.metadata);
  args[o + 8] = r.logType;
  args[o + 9] = r.imageKey;
  args[o + 10] = r.thumbKey;
  args[o + 11] = r.expiresAt;
  args[o + 12] = r.receivedAt === undefined || r.receivedAt === r.createdAt ? null : r.receivedAt;
}
