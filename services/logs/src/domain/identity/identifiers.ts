/**
 * Game identifiers in text: `<kind>:<value>` with a known kind (IDENTIFIER_KINDS), the kind matched
 * case-insensitively and answered lower case, the value kept as written. An identifier is a word of the
 * text (see SEPARATORS); one longer than MAX_IDENTIFIER_LENGTH, with an empty value, or with a control or
 * non-ASCII character is not an identifier (docs/PLAYERS.md, "What is extracted").
 */
import { IDENTIFIER_KINDS, MAX_IDENTIFIER_LENGTH, NON_LINKING_IDENTIFIER_KINDS } from '@skald/contracts';

/**
 * Characters that end an identifier and may precede one: white space and the punctuation that wraps
 * identifiers in log texts (`John (license:…)`, `"license:…",`, Discord's `**license:…**`). Other control
 * characters are not separators: a word holding one is refused whole.
 */
const SEPARATOR_CLASS = String.raw`\s,;()\[\]{}<>"'\x60|*`;

/** Longest kinds first, so `license2:` is not read as `license` followed by `2:`. */
const KIND_ALTERNATIVES = [...IDENTIFIER_KINDS].sort((a, b) => b.length - a.length).join('|');

const WORD = new RegExp(String.raw`(?<![^${SEPARATOR_CLASS}=])(${KIND_ALTERNATIVES}):([^${SEPARATOR_CLASS}]*)`, 'gi');

/** A value starting with an identifier, taken whole when it carries a control character (below). */
const STARTS_WITH_IDENTIFIER = new RegExp(String.raw`^\s*(?:${KIND_ALTERNATIVES}):`, 'i');

// eslint-disable-next-line no-control-regex -- the rule is about control characters
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
/** Sentence punctuation after an identifier (`… by license:abc.`) is not part of it. */
const TRAILING_PUNCTUATION = /[.:!?]+$/;

const NON_LINKING: ReadonlySet<string> = new Set(NON_LINKING_IDENTIFIER_KINDS);

/** The kind of an identifier as answered here (`license:abc` → `license`). */
export function kindOf(identifier: string): string {
  return identifier.slice(0, identifier.indexOf(':'));
}

/** `ip` and `token` identifiers are listed with a player but never join two players. */
export function isLinking(identifier: string): boolean {
  return !NON_LINKING.has(kindOf(identifier));
}

/**
 * Every identifier in `text`, in order of appearance, repeats included. A text that starts with an
 * identifier and holds a control character anywhere is no identifier at all: it was meant as one value
 * (`"license:abc\u0000"`), and cutting it at the control character would invent a shorter one.
 */
export function identifiersIn(text: string): string[] {
  // Cheap refusal first: most strings of a log hold no colon.
  if (text.indexOf(':') < 0) return [];
  if (STARTS_WITH_IDENTIFIER.test(text) && CONTROL.test(text)) return [];
  const found: string[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    const identifier = identifierOf(match[1]!, match[2]!);
    if (identifier !== null) found.push(identifier);
  }
  return found;
}

function identifierOf(kind: string, rawValue: string): string | null {
  const value = rawValue.replace(TRAILING_PUNCTUATION, '');
  if (value === '' || !PRINTABLE_ASCII.test(value)) return null;
  const identifier = `${kind.toLowerCase()}:${value}`;
  return identifier.length > MAX_IDENTIFIER_LENGTH ? null : identifier;
}
