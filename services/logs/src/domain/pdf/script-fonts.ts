/**
 * Text in any script for the PDFs (the case PDF and the PDF export). pdfkit's standard fonts are WinAnsi (a
 * Cyrillic or Chinese name would print as '?'), so each document embeds Noto fonts shipped as TTF/OTF by npm
 * packages (SIL Open Font License 1.1): Noto Sans (Latin, Greek, Cyrillic), Noto Sans CJK SC (Chinese
 * ideographs, Japanese kana, CJK punctuation) and Noto Sans KR (Hangul). Text is split into runs by the first
 * font that has each character, so one name can mix scripts; pdfkit embeds only the glyphs used (a subset), so
 * a Latin-only document carries no CJK font, and the CJK fonts are not even read unless a character needs them.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type PdfDoc = PDFKit.PDFDocument;

/** The fonts, first match wins per character. */
const FONT_FILES = [
  { name: 'latin', pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Regular.ttf' },
  { name: 'cjk', pkg: '@embedpdf/fonts-sc', file: 'NotoSansHans-Regular.otf' },
  { name: 'hangul', pkg: '@embedpdf/fonts-kr', file: 'NotoSansKR-Regular.otf' },
] as const;
const BOLD_FILE = { pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Bold.ttf' } as const;
type FontName = (typeof FONT_FILES)[number]['name'] | 'bold';

export interface TextRun {
  readonly font: FontName;
  text: string;
}

/** pdfkit's text options, plus the weight: bold text falls back to the regular fonts of other scripts. */
export type ScriptTextOptions = PDFKit.Mixins.TextOptions & { readonly bold?: boolean };

/** The file of a font package (its entry is dist/index.js; the fonts sit in fonts/). */
function fontPath(pkg: string, file: string): string {
  return join(dirname(fileURLToPath(import.meta.resolve(pkg))), '..', 'fonts', file);
}

/** The part of pdfkit's embedded font this module reads: the fontkit font's coverage. */
interface LoadedFont {
  readonly font?: { hasGlyphForCodePoint(codePoint: number): boolean };
}

/**
 * Control characters would print as boxes: line breaks stay (they break lines), tabs become spaces.
 * A one-line cell turns its line breaks into spaces before this.
 */
export function printableText(text: string): string {
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ')) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\n' || (code >= 0x20 && code !== 0x7f)) out += char;
  }
  return out;
}

/** Writes text in runs of the fonts that hold its characters. */
export class ScriptFonts {
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

  runs(text: string, primary: FontName): TextRun[] {
    const runs: TextRun[] = [];
    for (const char of text) {
      const font = this.#fontFor(char, primary);
      const last = runs[runs.length - 1];
      if (last && last.font === font) last.text += char;
      else runs.push({ font, text: char });
    }
    return runs;
  }

  /**
   * Writes text at (x, y), one pdfkit text call a run, the later ones continuing the first (so wrapping,
   * width, height and ellipsis hold for the whole text). Leaves the primary font selected.
   */
  text(text: string, x: number, y: number, options: ScriptTextOptions): void {
    const { bold, ...textOptions } = options;
    const primary: FontName = bold ? 'bold' : 'latin';
    const runs = this.runs(text, primary);
    if (runs.length === 0) runs.push({ font: primary, text: ' ' });
    const doc = this.#doc;
    runs.forEach((run, i) => {
      doc.font(run.font);
      const continued = i < runs.length - 1;
      if (i === 0) doc.text(run.text, x, y, { ...textOptions, continued });
      else doc.text(run.text, { continued });
    });
    if (runs[runs.length - 1]?.font !== primary) doc.font(primary);
  }
}

/** A new document with the script fonts registered. pdfkit is loaded on the first PDF, not at start-up: it and its font stack cost ~25 MB. */
export async function openPdf(options: PDFKit.PDFDocumentOptions): Promise<{ doc: PdfDoc; fonts: ScriptFonts }> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument(options);
  return { doc, fonts: new ScriptFonts(doc) };
}
