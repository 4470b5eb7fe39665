/**
 * CSV exports as a stream of text chunks: one chunk per page of rows, the header row with the first. Memory holds
 * one page whatever the export's size, and the first chunk goes out as soon as the first page is read.
 * Columns: a single-kind export has that kind's columns; the custom export (several kinds in one file)
 * has a `kind` column and every column of every kind, empty where a kind has none.
 */
import type { ExportType } from '@skald/contracts';
import { csvRow, jsonCell } from './csv.ts';
import type { ExportRow } from './export-rows.ts';

export const LOG_COLUMNS = ['id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata'] as const;
export const AUDIT_COLUMNS = ['id', 'created_at', 'user_id', 'user_email', 'action', 'details'] as const;
export const CUSTOM_COLUMNS = ['kind', 'id', 'created_at', 'level', 'type', 'resource', 'message', 'metadata', 'user_id', 'user_email', 'action', 'details'] as const;

type Column = (typeof CUSTOM_COLUMNS)[number];

function cellsOf(row: ExportRow): Record<Column, string> {
  if (row.kind === 'auditlogs') {
    const a = row.audit;
    const details = typeof a.details === 'string' ? a.details : jsonCell(a.details);
    return { kind: row.kind, id: a._id, created_at: a.at, level: '', type: '', resource: '', message: '', metadata: '', user_id: a.actorId, user_email: a.actorEmail, action: a.action, details };
  }
  const l = row.log;
  return {
    kind: row.kind,
    id: l.id,
    created_at: new Date(l.createdAt).toISOString(),
    level: l.level,
    type: l.type,
    resource: l.resource,
    message: l.message,
    metadata: jsonCell(l.metadata),
    user_id: '',
    user_email: '',
    action: '',
    details: '',
  };
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
    for (const row of page) {
      const cells = cellsOf(row);
      chunk += csvRow(columns.map((c) => cells[c]));
    }
    yield chunk;
    chunk = '';
  }
  if (chunk !== '') yield chunk;
}
