/**
 * Log ids are UUIDv7 assigned at ingestion (services/ingestion/src/domain/uuidv7.ts): lower-case hex, the
 * first 48 bits the acceptance time in epoch ms, strictly increasing within one ingestion process. A
 * Last-Event-ID is one of them.
 */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isLogId(value: string): boolean {
  return UUID_V7.test(value);
}

/** Epoch ms in a log id: the time ingestion received it (the log's createdAt unless its client's own time was taken). */
export function logIdTime(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/** A text that sorts after every log id made before `ms` and before every one made at `ms` or later (LogQuery.afterId). */
export function logIdFloor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}
