/**
 * PDF exports: a paged A4 landscape table (time, level, type, resource, message for logs; time,
 * user, action, details for audit entries) under the server's name and the period, built with pdfkit.
 * A PDF is for reading, not for a million rows: it holds the newest PDF_ROW_CAP rows and, when there were
 * more, says so on its first page and points to the CSV export, which has every row. The document is built
 * in memory (bounded by the cap) and sent whole, so a failure while building answers an error, not half a file.
 *
 * Text in any script: the Noto fonts of ../pdf/script-fonts.ts, per character, as in the case PDF.
 */
import type { ExportType } from '@skald/contracts';
import type { ExportRow } from './export-rows.ts';
import { openPdf, printableText } from '../pdf/script-fonts.ts';

/** Most rows a PDF export holds (about 120 pages). */
export const PDF_ROW_CAP = 5000;

export function cutNotice(cap: number): string {
  return `This export was cut at ${cap.toLocaleString('en-US')} rows (the newest). Export CSV to get every row.`;
}

interface ColumnSpec {
  readonly title: string;
  readonly width: number;
  readonly cell: (row: ExportRow) => string;
}

const time = (row: ExportRow): string => (row.kind === 'auditlogs' ? row.audit.at : new Date(row.log.createdAt).toISOString()).replace('T', ' ').slice(0, 19);
const logField = (field: 'level' | 'type' | 'resource' | 'message') => (row: ExportRow): string => (row.kind === 'auditlogs' ? '' : row.log[field]);
const auditField = (pick: (a: Extract<ExportRow, { kind: 'auditlogs' }>['audit']) => string) => (row: ExportRow): string => (row.kind === 'auditlogs' ? pick(row.audit) : '');

const LOG_TABLE: readonly ColumnSpec[] = [
  { title: 'Time (UTC)', width: 105, cell: time },
  { title: 'Level', width: 50, cell: logField('level') },
  { title: 'Type', width: 90, cell: logField('type') },
  { title: 'Resource', width: 90, cell: logField('resource') },
  { title: 'Message', width: 435, cell: logField('message') },
];

const AUDIT_TABLE: readonly ColumnSpec[] = [
  { title: 'Time (UTC)', width: 105, cell: time },
  { title: 'User', width: 170, cell: auditField((a) => a.actorEmail || a.actorId) },
  { title: 'Action', width: 140, cell: auditField((a) => a.action) },
  { title: 'Details', width: 355, cell: auditField((a) => (typeof a.details === 'string' ? a.details : JSON.stringify(a.details))) },
];

const TITLES: Record<ExportType, string> = { logs: 'Logs', photologs: 'Photo logs', auditlogs: 'Audit logs' };

/** One line of text: line breaks and tabs become a space, other control characters go. */
function oneLine(text: string): string {
  return printableText(text.replace(/[\r\n\t]+/g, ' '));
}

export interface PdfHeading {
  readonly serverName: string;
  readonly kind: ExportType;
  /** Shown as the period: the selection's bounds, or the rows' oldest and newest days. */
  readonly period: string;
  readonly generatedAt: string;
}

const MARGIN = 36;
const ROW_HEIGHT = 13;
const FONT_SIZE = 8;

/** Reads at most PDF_ROW_CAP + 1 rows (the extra one tells that the export was cut). */
export async function collectRows(rows: AsyncIterable<ExportRow[]>, cap = PDF_ROW_CAP): Promise<{ rows: ExportRow[]; cut: boolean }> {
  const kept: ExportRow[] = [];
  for await (const page of rows) {
    for (const row of page) {
      if (kept.length === cap) return { rows: kept, cut: true };
      kept.push(row);
    }
  }
  return { rows: kept, cut: false };
}

export async function buildPdf(heading: PdfHeading, rows: readonly ExportRow[], cut: { readonly cut: boolean; readonly cap: number }): Promise<Buffer> {
  const { doc, fonts } = await openPdf({ size: 'A4', layout: 'landscape', margin: MARGIN, info: { Title: `${heading.serverName}: ${TITLES[heading.kind]}`, Creator: 'Skald' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const table = heading.kind === 'auditlogs' ? AUDIT_TABLE : LOG_TABLE;
  const bottom = doc.page.height - MARGIN;
  let y = MARGIN;

  doc.fontSize(14);
  fonts.text(oneLine(`${heading.serverName}: ${TITLES[heading.kind]}`), MARGIN, y, { bold: true });
  y += 20;
  doc.fontSize(9);
  fonts.text(oneLine(`Period: ${heading.period}    Rows: ${rows.length}    Generated: ${heading.generatedAt}`), MARGIN, y, {});
  y += 14;
  if (cut.cut) {
    fonts.text(cutNotice(cut.cap), MARGIN, y, { bold: true });
    y += 14;
  }

  const header = (): void => {
    let x = MARGIN;
    doc.fontSize(FONT_SIZE);
    for (const column of table) {
      fonts.text(column.title, x, y, { width: column.width - 4, lineBreak: false, bold: true });
      x += column.width;
    }
    y += ROW_HEIGHT;
    doc.moveTo(MARGIN, y - 3).lineTo(MARGIN + table.reduce((w, c) => w + c.width, 0), y - 3).lineWidth(0.5).stroke();
  };

  header();
  if (rows.length === 0) fonts.text('No rows in this period.', MARGIN, y, {});
  for (const row of rows) {
    if (y + ROW_HEIGHT > bottom) {
      doc.addPage();
      y = MARGIN;
      header();
    }
    let x = MARGIN;
    for (const column of table) {
      // One line per cell: a longer text is cut with an ellipsis (the CSV holds it whole).
      fonts.text(oneLine(column.cell(row)), x, y, { width: column.width - 4, height: ROW_HEIGHT, ellipsis: true });
      x += column.width;
    }
    y += ROW_HEIGHT;
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
