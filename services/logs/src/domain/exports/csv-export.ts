/**
 * CSV exports as a stream of text chunks: one chunk per page of rows, the header row with the first. Memory holds
 * one page whatever the export's size, and the first chunk goes out as soon as the first page is read.
 * Columns: a single-kind export has that kind's columns; the custom export (several kinds in one file)
 * has a `kind` column and every column of every kind, empty where a kind has none.
 */
import type { ExportType } from '@skald/contracts';
import type { LogRecord } from '@skald/ports';
import type { AuditCopyDocument } from './audit-copy.ts';
import { csvCell, csvRow, jsonCell } from './csv.ts';
import type { ExportRow } from './export-rows.ts';

export const LOG_COLUMNS = ['id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata'] as const;
export const AUDIT_COLUMNS = ['id', 'created_at', 'user_id', 'user_email', 'action', 'details'] as const;
export const CUSTOM_COLUMNS = ['kind', 'id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata', 'user_id', 'user_email', 'action', 'details'] as const;

type Column = (typeof CUSTOM_COLUMNS)[number];

// One CSV line per row, built by concatenation (no per-row object or array: a million-row export makes a
// million of each, and the garbage is what grows the process's memory, not the rows it holds).
const c = csvCell;

function detailsOf(details: string | Record<string, unknown>): string {
  return typeof details === 'string' ? details : jsonCell(details);
}

function logLine(log: LogRecord): string {
  return `${c(log.id)},${c(new Date(log.createdAt).toISOString())},${c(log.level)},${c(log.type)},${c(log.resource)},${c(log.message)},${c(jsonCell(log.metadata))}\r\n`;
}

function auditLine(a: AuditCopyDocument): string {
  return `${c(a._id)},${c(a.at)},${c(a.actorId)},${c(a.actorEmail)},${c(a.action)},${c(detailsOf(a.details))}\r\n`;
}

function customLine(row: ExportRow): string {
  if (row.kind === 'auditlogs') {
    const a = row.audit;
    return `auditlogs,${c(a._id)},${c(a.at)},,,,,,${c(a.actorId)},${c(a.actorEmail)},${c(a.action)},${c(detailsOf(a.details))}\r\n`;
  }
  const log = row.log;
  return `${row.kind},${c(log.id)},${c(new Date(log.createdAt).toISOString())},${c(log.level)},${c(log.type)},${c(log.resource)},${c(log.message)},${c(jsonCell(log.metadata))},,,,\r\n`;
}

function lineOf(row: ExportRow, layout: ExportType | 'custom'): string {
  if (layout === 'custom') return customLine(row);
  return row.kind === 'auditlogs' ? auditLine(row.audit) : logLine(row.log);
}

export function columnsFor(layout: ExportType | 'custom'): readonly Column[] {
  if (layout === 'custom') return CUSTOM_COLUMNS;
  return layout === 'auditlogs' ? AUDIT_COLUMNS : LOG_COLUMNS;
}

export async function* csvChunks(rows: AsyncIterable<ExportRow[]>, layout: ExportType | 'custom'): AsyncIterable<string> {
  const columns = columnsFor(layout);
  // The header goes out with the first page, so the first chunk proves the store answers.
  let chunk = csvRow(columns);
  for await (const page of rows) {
    for (const row of page) chunk += lineOf(row, layout);
    yield chunk;
    chunk = '';
  }
  if (chunk !== '') yield chunk;
}
