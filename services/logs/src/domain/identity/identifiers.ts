/**
 * Game identifiers in text: `<kind>:<value>` with a known kind (IDENTIFIER_KINDS), the kind matched
 * case-insensitively and answered lower case, the value kept as written. An identifier is a word of the
 * text (see SEPARATORS); one longer than MAX_IDENTIFIER_LENGTH, with an empty value, or with a control or
 * non-ASCII character is not an identifier (docs/PLAYERS.md, "What is extracted").
 */
import { IDENTIFIER_KINDS, MAX_IDENTIFIER_LENGTH, NON_LINKING_IDENTIFIER_KINDS } from '@skald/contracts';

/*
 * Characters that end an identifier and may precede one: white space and the punctuation that wraps
 * identifiers in log texts (`John (license:…)`, `"license:…",`, Discord's `**license:…**`). Other control
 * characters are not separators: a word holding one is refused whole. Written as a hand scanner (char
 * codes, no regular expression): extraction runs on every stored log, so it has to cost well under a
 * microsecond for a typical one.
 */
/** ASCII punctuation that separates, as a table by char code (a Set lookup per character costs too much). */
const PUNCTUATION_SEPARATORS = new Uint8Array(128);
for (const c of ',;()[]{}<>"\'`|*') PUNCTUATION_SEPARATORS[c.charCodeAt(0)] = 1;
const EQUALS = 0x3d;
const COLON = 0x3a;

/** What JavaScript's \s matches: ASCII white space and the Unicode spaces. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function isSeparator(c: number): boolean {
  return c < 128 ? PUNCTUATION_SEPARATORS[c] === 1 || (c <= 0x20 && isSpace(c)) : isSpace(c);
}

/** Letters and digits: what a kind is made of (`license2`). */
function isKindChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

function isControl(c: number): boolean {
  return c <= 0x1f || (c >= 0x7f && c <= 0x9f);
}

/** Sentence punctuation after an identifier (`… by license:abc.`) is not part of it. */
function isTrailingPunctuation(c: number): boolean {
  return c === 0x2e || c === COLON || c === 0x21 || c === 0x3f;
}

const LONGEST_KIND = Math.max(...IDENTIFIER_KINDS.map((kind) => kind.length));

/** `ip:`, `token:`: compared with startsWith (no string cut and hashed per identifier). */
const NON_LINKING_PREFIXES = NON_LINKING_IDENTIFIER_KINDS.map((kind) => `${kind}:`);

/** A known kind right before a colon, in any case: what every identifier holds. */
const KIND_BEFORE_COLON = new RegExp(`(?:${IDENTIFIER_KINDS.join('|')}):`, 'i');

/**
 * Whether `text` may hold an identifier: false means it holds none. A cheap test (one pass of a regular
 * expression) that lets a log's metadata, kept as JSON text, go unparsed when it names nobody; JSON text
 * writes a kind and its colon as they are (it escapes only quotes, backslashes and control characters).
 */
export function mayHoldIdentifier(text: string): boolean {
  return KIND_BEFORE_COLON.test(text);
}

/** The kind of an identifier as answered here (`license:abc` → `license`). */
export function kindOf(identifier: string): string {
  return identifier.slice(0, identifier.indexOf(':'));
}

/** `ip` and `token` identifiers are listed with a player but never join two players. */
export function isLinking(identifier: string): boolean {
  for (const prefix of NON_LINKING_PREFIXES) if (identifier.startsWith(prefix)) return false;
  return true;
}

/**
 * Every identifier in `text`, in order of appearance, repeats included. A text that starts with an
 * identifier and holds a control character anywhere is no identifier at all: it was meant as one value
 * (`"license:abc\u0000"`), and cutting it at the control character would invent a shorter one.
 */
export function identifiersIn(text: string): readonly string[] {
  // Cheap refusal first: most strings of a log hold no colon.
  if (text.indexOf(':') < 0) return NONE;
  return scan(text);
}

/**
 * The identifier `text` is exactly (`license:abc`, nothing around it, as metadata lists identifiers), or
 * null when it is anything else (identifiersIn reads those). The common case, checked without a scan's
 * allocations; what it answers is what identifiersIn would find.
 */
export function wholeIdentifier(text: string): string | null {
  const colon = text.indexOf(':');
  const end = text.length;
  if (colon < 2 || colon > LONGEST_KIND || end === colon + 1 || end > MAX_IDENTIFIER_LENGTH) return null;
  for (let i = 0; i < colon; i++) if (!isKindChar(text.charCodeAt(i))) return null;
  const kind = knownKind(text, 0, colon);
  if (kind === null || isTrailingPunctuation(text.charCodeAt(end - 1))) return null;
  for (let i = colon + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || PUNCTUATION_SEPARATORS[c] === 1) return null;
  }
  return identifierOf(text, kind, colon, end);
}

const NONE: readonly string[] = Object.freeze([]);

function scan(text: string): readonly string[] {
  let colon = text.indexOf(':');
  let found: string[] | null = null;
  let first = true;
  while (colon >= 0) {
    const kind = kindBefore(text, colon);
    if (kind === null) {
      first = false;
      colon = text.indexOf(':', colon + 1);
      continue;
    }
    // One pass over the value: where it ends, and whether every character of it is printable ASCII.
    let end = colon + 1;
    let printable = true;
    for (; end < text.length; end++) {
      const c = text.charCodeAt(end);
      if (c < 0x21 || c > 0x7e) {
        if (isSeparator(c)) break;
        printable = false;
      } else if (PUNCTUATION_SEPARATORS[c] === 1) {
        break;
      }
    }
    if (first) {
      first = false;
      // A text that starts with an identifier and holds a control character anywhere (before it, in it, or
      // after it behind a line break or a tab) is refused whole. A text that is exactly a printable
      // identifier (the common case) holds none: it is not scanned again.
      const at = colon - kind.length;
      if ((at > 0 || end < text.length || !printable) && startsText(text, at) && hasControl(text, 0)) return [];
    }
    let valueEnd = end;
    while (valueEnd > colon + 1 && isTrailingPunctuation(text.charCodeAt(valueEnd - 1))) valueEnd--;
    if (printable) {
      const identifier = identifierOf(text, kind, colon, valueEnd);
      if (identifier !== null) (found ??= []).push(identifier);
    }
    colon = end < text.length ? text.indexOf(':', end) : -1;
  }
  return found === null ? NONE : found;
}

/** The known kind (lower case) written just before the colon at `colon`, at a word's start; else null. */
function kindBefore(text: string, colon: number): string | null {
  let start = colon;
  while (start > 0 && colon - start <= LONGEST_KIND && isKindChar(text.charCodeAt(start - 1))) start--;
  const length = colon - start;
  if (length < 2 || length > LONGEST_KIND) return null;
  if (start > 0) {
    const before = text.charCodeAt(start - 1);
    if (!isSeparator(before) && before !== EQUALS) return null;
  }
  return knownKind(text, start, length);
}

/** The kind spelled (in any case) by text[start, start + length), without cutting the text; else null. */
function knownKind(text: string, start: number, length: number): string | null {
  for (const kind of IDENTIFIER_KINDS) {
    if (kind.length !== length) continue;
    let i = 0;
    // Kinds are lower-case ASCII letters and digits: OR 0x20 folds an upper-case letter, leaves digits as they are.
    while (i < length && (text.charCodeAt(start + i) | 0x20) === kind.charCodeAt(i)) i++;
    if (i === length) return kind;
  }
  return null;
}

/** Nothing but white space before `index`. */
function startsText(text: string, index: number): boolean {
  for (let i = 0; i < index; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

function hasControl(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) if (isControl(text.charCodeAt(i))) return true;
  return false;
}

/** `<kind>:<value>` for text[colon+1, end) (printable ASCII); null when the value is empty or too long. */
function identifierOf(text: string, kind: string, colon: number, end: number): string | null {
  if (end === colon + 1 || kind.length + end - colon > MAX_IDENTIFIER_LENGTH) return null;
  // The text itself when it is exactly the identifier, kind already lower case (the common case: no copy).
  if (colon === kind.length && end === text.length && text.startsWith(kind)) return text;
  return kind + text.slice(colon, end);
}
