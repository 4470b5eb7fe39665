/**
 * The rows of an export, read in pages from the service's own stores: logs and photo logs from the log
 * store (LogStore.scan: keyset pages, nothing held between them), audit entries from the service's audit
 * copy. Kinds follow one another in the order asked for; inside a kind, newest first.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ExportType } from '@skald/contracts';
import type { LogRecord, LogStore } from '@skald/ports';
import type { AuditCopy, AuditCopyDocument } from './audit-copy.ts';
import type { ExportSelection } from './export-query.ts';

/** Rows per page read from a store (and per chunk written). */
export const EXPORT_PAGE_ROWS = 1000;

export type ExportRow = { readonly kind: 'logs' | 'photologs'; readonly log: LogRecord } | { readonly kind: 'auditlogs'; readonly audit: AuditCopyDocument };

export interface ExportSources {
  readonly logStore: LogStore;
  readonly auditCopy: AuditCopy;
}

async function* rowsOfKind(sources: ExportSources, selection: ExportSelection, kind: ExportType, pageRows: number): AsyncIterable<ExportRow[]> {
  const period = { ...(selection.from === undefined ? {} : { from: selection.from }), ...(selection.to === undefined ? {} : { to: selection.to }) };
  if (kind === 'auditlogs') {
    for await (const page of sources.auditCopy.scan(selection.serverId, period, pageRows)) yield page.map((audit) => ({ kind, audit }));
    return;
  }
  const query = {
    serverId: selection.serverId,
    logType: kind === 'logs' ? ('text' as const) : ('photo' as const),
    ...(selection.level === undefined ? {} : { level: selection.level }),
    ...(selection.type === undefined ? {} : { type: selection.type }),
    ...(selection.resource === undefined ? {} : { resource: selection.resource }),
    ...period,
  };
  for await (const page of sources.logStore.scan(query, pageRows)) yield page.map((log) => ({ kind, log }));
}

/**
 * Every row of the selection, page by page. After each page the event loop gets a turn: the embedded
 * stores answer synchronously, so without it a million-row export would run in microtasks alone, keeping
 * its own socket from sending (no first byte until the end) and every other request of the process waiting.
 */
export async function* exportRows(sources: ExportSources, selection: ExportSelection, pageRows = EXPORT_PAGE_ROWS): AsyncIterable<ExportRow[]> {
  for (const kind of selection.kinds) {
    for await (const page of rowsOfKind(sources, selection, kind, pageRows)) {
      yield page;
      await nextTurn();
    }
  }
}
