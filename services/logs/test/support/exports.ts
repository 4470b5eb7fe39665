/** Helpers of the export tests: the CSV parsed back with a real CSV parser, a PDF's text through pdftotext. */
import { execFile } from 'node:child_process';
import { writeFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import type { AuditRecorded } from '@skald/contracts';
import type { BusMessage } from '@skald/ports';

/** Rows of an RFC 4180 CSV (strict: a malformed quote fails the test). */
export function parseCsv(text: string): string[][] {
  return parse(text, { relax_quotes: false, relax_column_count: false, skip_empty_lines: false, record_delimiter: '\r\n' }) as string[][];
}

const run = promisify(execFile);

/** True when poppler's pdftotext is installed (.ci/run installs it). */
export async function hasPdftotext(): Promise<boolean> {
  try {
    await run('pdftotext', ['-v']);
    return true;
  } catch {
    return false;
  }
}

/** The PDF's text, laid out as on the page (pdftotext -layout). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skald-pdf-'));
  try {
    const file = join(dir, 'export.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The audit entries among the published bus messages. */
export function auditEntries(published: readonly BusMessage[]): AuditRecorded[] {
  return published.filter((m) => m.topic === 'skald.audit.v1').map((m) => (m.payload as { data: AuditRecorded }).data);
}
