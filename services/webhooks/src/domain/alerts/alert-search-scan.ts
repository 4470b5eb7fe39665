/**
 * Which of several search texts a message holds, ignoring case as `searchPattern` does (Unicode simple case
 * folding: `/text/iu`), in one pass over the message instead of one expression per text. Exact: a text is
 * marked if and only if its own expression finds it. The texts are split in two groups, each scanned its own
 * way, so that one text of the second kind does not slow down the usual ones:
 *
 * Texts of ASCII characters only, each at least 3 long (the usual searches: "was killed by", "noclip"): a
 * Wu-Manber scan. A window as long as the shortest text slides over the message; its last two characters,
 * case-folded, say how far it may jump without passing over a start of any text (most windows jump several
 * characters), and where a text's prefix may end there, that text is compared character by character. Under
 * simple case folding the only characters beyond ASCII that fold to ASCII are U+017F (to s) and U+212A (to
 * k); every other one matches no character of such texts.
 *
 * Other texts: one expression of every text, longest first, each in a capture group, run from every
 * position where one matched, one position on. At a position the first alternative that matches is the
 * longest text found there, and every other text found at that position is a case-folded prefix of it, so
 * those are worked out once here and marked with it.
 */
import { searchPattern } from './alert-filter.ts';

export interface SearchScan {
  /**
   * Marks the texts `message` holds: afterwards `holds(i)` tells for text i (its place in the texts given).
   * Returns whether it holds any.
   */
  scan(message: string): boolean;
  holds(text: number): boolean;
}

/**
 * What a character folds to for ASCII texts: ASCII lower case, or NONE (NUL, which the texts of the sliding
 * window never hold) for a character that matches none of theirs. Seven bits, so that a pair of folded
 * characters indexes a table of 16 KiB, which stays in the processor's nearest cache.
 */
const NONE = 0;
/** Every UTF-16 code unit's fold (64 KiB, one lookup a character without a branch); surrogates fold to NONE. */
const FOLD = new Uint8Array(0x1_0000).fill(NONE);
for (let c = 0; c < 128; c++) FOLD[c] = c >= 65 && c <= 90 ? c + 32 : c;
FOLD[0x17f] = 115;
FOLD[0x212a] = 107;

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** Marks set per scan: a text counts as held when its stamp is the current scan's, so nothing is cleared between messages. */
class Stamps {
  readonly #stamps: Uint32Array;
  #current = 0;
  constructor(size: number) {
    this.#stamps = new Uint32Array(size);
  }
  next(): void {
    this.#current += 1;
    if (this.#current === 0xffff_ffff) {
      this.#stamps.fill(0);
      this.#current = 1;
    }
  }
  mark(text: number): void {
    this.#stamps[text] = this.#current;
  }
  has(text: number): boolean {
    return this.#stamps[text] === this.#current;
  }
}

/** Whether a text goes to the sliding window (ASCII, 3 characters or more) rather than to the expression of all. */
export function slidesInWindow(text: string): boolean {
  if (text.length < 3) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0 || code >= 128) return false;
  }
  return true;
}

export function createSearchScan(texts: readonly string[]): SearchScan {
  const stamps = new Stamps(texts.length);
  const windowed: number[] = [];
  const others: number[] = [];
  texts.forEach((text, i) => (slidesInWindow(text) ? windowed : others).push(i));
  const slide = windowed.length === 0 ? null : wuManber(windowed.map((i) => texts[i]!), windowed, stamps);
  const expression = others.length === 0 ? null : alternation(others.map((i) => texts[i]!), others, stamps);
  return {
    scan(message) {
      stamps.next();
      const inWindow = slide !== null && slide(message);
      // Not short-circuited: each group marks its own texts.
      const inExpression = expression !== null && expression(message);
      return inWindow || inExpression;
    },
    holds: (text) => stamps.has(text),
  };
}

/** Marks `places[i]` for the text i of `texts` a message holds. */
function wuManber(texts: readonly string[], places: readonly number[], stamps: Stamps): (message: string) => boolean {
  const shortest = Math.min(...texts.map((t) => t.length));
  const folded = texts.map((t) => Uint8Array.from(t, (ch) => FOLD[ch.charCodeAt(0)]!));
  // Per pair of folded characters (the window's last two): how far the window may move on, and the texts
  // whose first `shortest` characters end with that pair.
  const shift = new Uint8Array(128 * 128).fill(Math.min(255, shortest - 1));
  const ending: (number[] | undefined)[] = new Array<number[] | undefined>(128 * 128);
  folded.forEach((text, index) => {
    for (let q = 1; q < shortest; q++) {
      const pair = (text[q - 1]! << 7) | text[q]!;
      shift[pair] = Math.min(shift[pair]!, shortest - 1 - q);
    }
    const last = (text[shortest - 2]! << 7) | text[shortest - 1]!;
    (ending[last] ??= []).push(index);
  });
  return (message) => {
    const length = message.length;
    let any = false;
    let end = shortest - 1;
    while (end < length) {
      const pair = (FOLD[message.charCodeAt(end - 1)]! << 7) | FOLD[message.charCodeAt(end)]!;
      const jump = shift[pair]!;
      if (jump > 0) {
        end += jump;
        continue;
      }
      const start = end - shortest + 1;
      for (const index of ending[pair]!) {
        const text = folded[index]!;
        if (start + text.length > length) continue;
        let k = 0;
        while (k < text.length && FOLD[message.charCodeAt(start + k)] === text[k]) k += 1;
        if (k === text.length) {
          stamps.mark(places[index]!);
          any = true;
        }
      }
      end += 1;
    }
    return any;
  };
}

/** Marks `places[i]` for the text i of `texts` a message holds. */
function alternation(texts: readonly string[], places: readonly number[], stamps: Stamps): (message: string) => boolean {
  // Group g (1-based) holds text order[g - 1]: longest first, so a position reports its longest text.
  const order = texts.map((_, i) => i).sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);
  const all = new RegExp(order.map((i) => `(${escapeRegExp(texts[i]!)})`).join('|'), 'giu');
  // Per text, itself and the texts found wherever it is: those it starts with, ignoring case.
  const implied = texts.map((text, i) => {
    const also = [i];
    texts.forEach((other, j) => {
      if (j !== i && other.length <= text.length && new RegExp(`^(?:${escapeRegExp(other)})`, 'iu').test(text)) also.push(j);
    });
    return also.map((j) => places[j]!);
  });
  // One expression for "any of them" answers the usual message, which holds none, without the groups.
  const any = searchPattern(texts);
  return (message) => {
    if (!any.test(message)) return false;
    all.lastIndex = 0;
    for (let found = all.exec(message); found !== null; found = all.exec(message)) {
      let group = 1;
      while (found[group] === undefined) group += 1;
      for (const text of implied[order[group - 1]!]!) stamps.mark(text);
      // On one position (a whole code point), so a text found inside the match is found too.
      all.lastIndex = found.index + ((message.codePointAt(found.index) ?? 0) > 0xffff ? 2 : 1);
    }
    return true;
  };
}
