/**
 * A case as a PDF (GET /cases/{id}/pdf): its title, status, notes, then each chosen log with its context
 * (time, level, type, resource, message and metadata of every line) and the photos of the case embedded.
 *
 * Text in any script: pdfkit's standard fonts are WinAnsi (a Cyrillic or Chinese name would print as '?'),
 * so the document embeds Noto fonts shipped as TTF/OTF by npm packages (SIL Open Font License 1.1): Noto
 * Sans (Latin, Greek, Cyrillic), Noto Sans CJK SC (Chinese ideographs, Japanese kana, CJK punctuation) and
 * Noto Sans KR (Hangul). Text is split into runs by the first font that has each character, so one name can
 * mix scripts; pdfkit embeds only the glyphs used (a subset), so a Latin-only case carries no CJK font, and
 * the CJK fonts are not even read unless a character needs them.
 *
 * The document streams: pages are flushed as they are finished and the builder waits while the answer's
 * unread bytes are above HIGH_WATER, so memory is bounded by one page and one photo, not by the case. Photos
 * are re-encoded by sharp to a JPEG of at most MAX_IMAGE_PX a side (pdfkit reads JPEG and PNG only, and a
 * 4K PNG screenshot would otherwise be decoded and stored whole).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Sharp from 'sharp';
import type { ObjectStore } from '@skald/ports';
import type { CaseLogDocument } from './case-store.ts';
import { caseItems } from './case-view.ts';
import type { StoredCase } from './cases.ts';

type PdfDoc = PDFKit.PDFDocument;

/** The fonts, first match wins per character. */
const FONT_FILES = [
  { name: 'latin', pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Regular.ttf' },
  { name: 'cjk', pkg: '@embedpdf/fonts-sc', file: 'NotoSansHans-Regular.otf' },
  { name: 'hangul', pkg: '@embedpdf/fonts-kr', file: 'NotoSansKR-Regular.otf' },
] as const;
const BOLD_FILE = { pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Bold.ttf' } as const;
type FontName = (typeof FONT_FILES)[number]['name'] | 'bold';

/** The file of a font package (its entry is dist/index.js; the fonts sit in fonts/). */
function fontPath(pkg: string, file: string): string {
  return join(dirname(fileURLToPath(import.meta.resolve(pkg))), '..', 'fonts', file);
}

/** The part of pdfkit's embedded font this module reads: the fontkit font's coverage. */
interface LoadedFont {
  readonly font?: { hasGlyphForCodePoint(codePoint: number): boolean };
}

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

/** Control characters would print as boxes: line breaks stay (they break lines), tabs become spaces. */
function clean(text: string): string {
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ')) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\n' || (code >= 0x20 && code !== 0x7f)) out += char;
  }
  return out;
}

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

/** Writes text in runs of the fonts that hold its characters. */
class ScriptWriter {
  readonly #doc: PdfDoc;
  readonly #coverage = new Map<FontName, LoadedFont['font'] | null>();
  /** Characters the primary font lacks, and the font that has them. */
  readonly #fallback = new Map<string, FontName>();

  constructor(doc: PdfDoc) {
    this.#doc = doc;
    for (const font of FONT_FILES) doc.registerFont(font.name, fontPath(font.pkg, font.file));
    doc.registerFont('bold', fontPath(BOLD_FILE.pkg, BOLD_FILE.file));
  }

  /** Loads the font on first use (the CJK files are 4-8 MB: read only when a character needs them). */
  #covers(name: FontName, codePoint: number): boolean {
    let font = this.#coverage.get(name);
    if (font === undefined) {
      this.#doc.font(name);
      font = (this.#doc as unknown as { _font: LoadedFont })._font.font ?? null;
      this.#coverage.set(name, font);
    }
    return font?.hasGlyphForCodePoint(codePoint) ?? false;
  }

  /** The font of one character: the first that has it, else the primary one (its blank glyph, never '?'). */
  #fontFor(char: string, primary: FontName): FontName {
    const codePoint = char.codePointAt(0) ?? 32;
    // ASCII is in both primary fonts (regular and bold): no lookup for the common case.
    if (codePoint < 0x7f || this.#covers(primary, codePoint)) return primary;
    const key = `${primary}:${codePoint}`;
    let font = this.#fallback.get(key);
    if (font === undefined) {
      font = FONT_FILES.find((candidate) => candidate.name !== primary && this.#covers(candidate.name, codePoint))?.name ?? primary;
      this.#fallback.set(key, font);
    }
    return font;
  }

  runs(text: string, primary: FontName): { font: FontName; text: string }[] {
    const runs: { font: FontName; text: string }[] = [];
    for (const char of text) {
      const font = this.#fontFor(char, primary);
      const last = runs[runs.length - 1];
      if (last && last.font === font) last.text += char;
      else runs.push({ font, text: char });
    }
    return runs;
  }

  /** A paragraph at the current position, wrapped to the page width. */
  write(text: string, options: { size: number; bold?: boolean; color?: string; indent?: number }): void {
    const runs = this.runs(clean(text), options.bold ? 'bold' : 'latin');
    const doc = this.#doc;
    doc.fillColor(options.color ?? '#000000').fontSize(options.size);
    const width = doc.page.width - 2 * MARGIN - (options.indent ?? 0);
    const x = MARGIN + (options.indent ?? 0);
    if (runs.length === 0) runs.push({ font: 'latin', text: ' ' });
    runs.forEach((run, i) => {
      doc.font(run.font);
      const continued = i < runs.length - 1;
      if (i === 0) doc.text(run.text, x, doc.y, { width, continued });
      else doc.text(run.text, { continued });
    });
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
  // Loaded on the first PDF, not at start-up: pdfkit and its font stack cost ~25 MB.
  const { default: PDFDocument } = await import('pdfkit');
  const { doc: record } = stored;
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: record.title, Creator: 'Skald' } });
  const done = (async () => {
    const writer = new ScriptWriter(doc);
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
