/**
 * A case as a PDF (GET /cases/{id}/pdf): its title, status, notes, then each chosen log with its context
 * (time, level, type, resource, message and metadata of every line) and the photos of the case embedded.
 *
 * Text in any script: the Noto fonts of ../pdf/script-fonts.ts, per character.
 *
 * The document streams: pages are flushed as they are finished and the builder waits while the answer's
 * unread bytes are above HIGH_WATER, so memory is bounded by one page and one photo, not by the case. Photos
 * are re-encoded by sharp to a JPEG of at most MAX_IMAGE_PX a side (pdfkit reads JPEG and PNG only, and a
 * 4K PNG screenshot would otherwise be decoded and stored whole).
 */
import type Sharp from 'sharp';
import type { ObjectStore } from '@skald/ports';
import type { CaseLogDocument } from './case-store.ts';
import { caseItems } from './case-view.ts';
import type { StoredCase } from './cases.ts';
import { openPdf, printableText } from '../pdf/script-fonts.ts';
import type { PdfDoc, ScriptFonts } from '../pdf/script-fonts.ts';

export interface CasePdfHeading {
  readonly serverName: string;
  /** Who opened it, as the PDF names them (an e-mail address, else the user id). */
  readonly openedBy: string;
  readonly generatedAt: string;
}

const MARGIN = 40;
const TEXT_SIZE = 8.5;
const META_SIZE = 7.5;
/** Unread bytes of the answer above which the builder waits for the client. */
const HIGH_WATER = 1024 * 1024;
const MAX_IMAGE_PX = 1400;
const IMAGE_HEIGHT = 300;
/** Metadata is printed as JSON, cut past this many characters (the case page shows it whole). */
const MAX_METADATA_CHARS = 4000;

function timeOf(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

let sharpLoaded: Promise<typeof Sharp> | null = null;
function loadSharp(): Promise<typeof Sharp> {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return sharpLoaded;
}

/** Writes paragraphs at the current position, wrapped to the page width. */
class ScriptWriter {
  readonly #doc: PdfDoc;
  readonly #fonts: ScriptFonts;

  constructor(doc: PdfDoc, fonts: ScriptFonts) {
    this.#doc = doc;
    this.#fonts = fonts;
  }

  write(text: string, options: { size: number; bold?: boolean; color?: string; indent?: number }): void {
    const doc = this.#doc;
    doc.fillColor(options.color ?? '#000000').fontSize(options.size);
    const width = doc.page.width - 2 * MARGIN - (options.indent ?? 0);
    this.#fonts.text(printableText(text), MARGIN + (options.indent ?? 0), doc.y, { width, bold: options.bold });
  }
}

export interface CasePdfDeps {
  readonly objects: Pick<ObjectStore, 'get'>;
}

async function waitForRoom(doc: PdfDoc): Promise<void> {
  while (doc.readableLength > HIGH_WATER && !doc.destroyed) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The photo as a JPEG pdfkit embeds, or null when the copy is gone or not an image sharp reads. */
async function photoJpeg(objects: CasePdfDeps['objects'], key: string): Promise<Buffer | null> {
  const object = await objects.get(key);
  if (object === null) return null;
  const bytes = await readAll(object.body);
  try {
    const sharp = await loadSharp();
    return await sharp(bytes).rotate().resize({ width: MAX_IMAGE_PX, height: MAX_IMAGE_PX, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
  } catch {
    return null;
  }
}

function ensureRoom(doc: PdfDoc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

async function writeLine(doc: PdfDoc, writer: ScriptWriter, deps: CasePdfDeps, log: CaseLogDocument, chosen: boolean): Promise<void> {
  ensureRoom(doc, 30);
  const marker = chosen ? '▶ ' : '';
  const head = `${marker}${timeOf(log.createdAt)}   ${log.level.toUpperCase()}   ${log.type}   ${log.resource}${log.logType === 'photo' ? '   (photo)' : ''}`;
  writer.write(head, { size: TEXT_SIZE, bold: chosen, color: chosen ? '#000000' : '#555555' });
  writer.write(log.message === '' ? '(no message)' : log.message, { size: TEXT_SIZE, color: chosen ? '#000000' : '#444444', indent: 12 });
  if (log.metadata !== null) {
    const json = JSON.stringify(log.metadata);
    const shown = json.length > MAX_METADATA_CHARS ? `${json.slice(0, MAX_METADATA_CHARS)}… (cut: ${json.length} characters)` : json;
    writer.write(`metadata: ${shown}`, { size: META_SIZE, color: '#666666', indent: 12 });
  }
  if (log.imageKey !== null) {
    const jpeg = await photoJpeg(deps.objects, log.imageKey);
    if (jpeg === null) {
      writer.write('(the photo could not be read)', { size: META_SIZE, color: '#aa0000', indent: 12 });
    } else {
      ensureRoom(doc, IMAGE_HEIGHT + 10);
      const top = doc.y + 2;
      doc.image(jpeg, MARGIN + 12, top, { fit: [doc.page.width - 2 * MARGIN - 12, IMAGE_HEIGHT] });
      doc.y = top + IMAGE_HEIGHT + 6;
    }
  } else if (log.logType === 'photo') {
    writer.write('(the photo was already gone when the case was opened)', { size: META_SIZE, color: '#aa0000', indent: 12 });
  }
  doc.moveDown(0.3);
  await waitForRoom(doc);
}

/**
 * The PDF as a stream (pdfkit's document is a Readable): the caller sends it as the answer while this
 * function writes into it. Resolves once the document is ended; a failure destroys the stream (the client
 * sees the connection cut, never a complete-looking file) and rejects.
 */
export async function startCasePdf(stored: StoredCase, heading: CasePdfHeading, deps: CasePdfDeps): Promise<{ stream: PdfDoc; done: Promise<void> }> {
  const { doc: record } = stored;
  const { doc, fonts } = await openPdf({ size: 'A4', margin: MARGIN, info: { Title: record.title, Creator: 'Skald' } });
  const done = (async () => {
    const writer = new ScriptWriter(doc, fonts);
    writer.write(record.title, { size: 16, bold: true });
    doc.moveDown(0.3);
    const items = caseItems(stored);
    writer.write(
      `Server: ${heading.serverName}   Status: ${record.status}   Logs chosen: ${items.length}   Opened: ${timeOf(record.createdAt)} by ${heading.openedBy}   Generated: ${heading.generatedAt}`,
      { size: 9, color: '#333333' },
    );
    doc.moveDown(0.6);
    writer.write('Notes', { size: 11, bold: true });
    writer.write(record.notes.trim() === '' ? '(none)' : record.notes, { size: 9.5 });
    doc.moveDown(0.8);
    let n = 0;
    for (const item of items) {
      n += 1;
      ensureRoom(doc, 60);
      writer.write(`${n}. ${item.log.type} · ${item.log.resource} · ${timeOf(item.log.createdAt)}`, { size: 11, bold: true });
      writer.write(`${item.before.length} line(s) before, ${item.after.length} after; the chosen log is marked ▶.`, { size: META_SIZE, color: '#666666' });
      doc.moveDown(0.2);
      for (const log of item.before) await writeLine(doc, writer, deps, log, false);
      await writeLine(doc, writer, deps, item.log, true);
      for (const log of item.after) await writeLine(doc, writer, deps, log, false);
      doc.moveDown(0.6);
    }
    doc.end();
  })().catch((error: unknown) => {
    doc.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  });
  return { stream: doc, done };
}
