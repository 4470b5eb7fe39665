/**
 * The adjacent word pairs of a block of logs, as a bloom filter (docs/STORAGE.md, "Search"): which pairs of
 * words follow each other in a row's message or metadata JSON. It lets a needle of several words that are
 * each common (`tony vercetti`, `killed by`) skip the blocks that hold its words but never side by side,
 * without reading their text.
 *
 * The rule that keeps a search exact: two pieces next to each other in a needle are separated by separators
 * only, so wherever the needle occurs the words holding them are consecutive word runs of one text (the
 * separators between them may differ from the needle's only where the needle's own are a part of them, so
 * the pair ignores them). A pair is recorded for every two consecutive word runs of a text unless one of them
 * is a word the dictionaries leave out; a piece that could lie inside such a word does not constrain, so no
 * lookup ever needs such a pair. The filter answers "maybe" or "surely not": a block it rules out holds no
 * match; any other block is decided as before, by its dictionaries and its text.
 */
import { constrains, foldAscii, isHighEntropyWord, type NeedlePiece, needlePieces, wordRuns } from './block-token-dictionary.ts';

/** 32-bit FNV-1a of `a`, a NUL, then `b` (UTF-16 code units). */
export function pairHash(a: string, b: string): number {
  let h = 0x811c9dc5;
  const feed = (code: number): void => {
    h = Math.imul(h ^ code, 0x01000193);
  };
  for (let i = 0; i < a.length; i++) feed(a.charCodeAt(i));
  feed(0);
  for (let i = 0; i < b.length; i++) feed(b.charCodeAt(i));
  return h >>> 0;
}

/** The hashes of the consecutive word pairs of `text`, added to `into`. */
export function addWordPairs(text: string, into: Set<number>, keepAllWords = false): void {
  const folded = foldAscii(text);
  let previous: string | null = null;
  for (const { start, end } of wordRuns(folded)) {
    const word = folded.slice(start, end);
    const kept = keepAllWords || !isHighEntropyWord(word);
    if (previous !== null && kept) into.add(pairHash(previous, word));
    previous = kept ? word : null;
  }
}

const BITS_PER_PAIR = 10;
const PROBES = 7;

function secondHash(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return ((x ^ (x >>> 16)) >>> 0) | 1;
}

/** A bloom filter of pair hashes: ~1% false "maybe" at 10 bits a pair, 7 probes. */
export class WordPairFilter {
  readonly #bits: Uint8Array;

  private constructor(bits: Uint8Array) {
    this.#bits = bits;
  }

  static build(hashes: ReadonlySet<number>): WordPairFilter {
    const filter = new WordPairFilter(new Uint8Array(Math.max(8, Math.ceil((hashes.size * BITS_PER_PAIR) / 8))));
    for (const h of hashes) filter.#probe(h, true);
    return filter;
  }

  static decode(bytes: Uint8Array): WordPairFilter {
    return new WordPairFilter(bytes);
  }

  encode(): Uint8Array {
    return this.#bits;
  }

  #probe(h: number, set: boolean): boolean {
    const size = this.#bits.length * 8;
    const step = secondHash(h);
    for (let k = 0; k < PROBES; k++) {
      const bit = (h + Math.imul(k, step)) >>> 0;
      const at = bit % size;
      if (set) this.#bits[at >>> 3]! |= 1 << (at & 7);
      else if ((this.#bits[at >>> 3]! & (1 << (at & 7))) === 0) return false;
    }
    return true;
  }

  mayHold(a: string, b: string): boolean {
    return this.#probe(pairHash(a, b), false);
  }
}

/** Word pairs of a needle a filter can rule out: two adjacent pieces that both constrain. */
export function needlePairs(needle: string, keepAllWords = false): [NeedlePiece, NeedlePiece][] {
  const pieces = needlePieces(needle);
  const pairs: [NeedlePiece, NeedlePiece][] = [];
  for (let i = 0; i + 1 < pieces.length; i++) {
    if (constrains(pieces[i]!, keepAllWords) && constrains(pieces[i + 1]!, keepAllWords)) pairs.push([pieces[i]!, pieces[i + 1]!]);
  }
  return pairs;
}

/** Past this many candidate word combinations for one pair of pieces, the pair is not looked up. */
export const PAIR_COMBINATIONS_MAX = 256;

/**
 * False when the block surely holds no match: for some adjacent pair of pieces, no word fit for the first
 * followed by a word fit for the second is in the filter. `wordsFor` gives the block's words fit for a piece
 * (from its dictionary or its part's; every word the dictionaries keep, or the answer is not safe).
 */
export function pairsMayMatch(filter: WordPairFilter, pairs: readonly (readonly [NeedlePiece, NeedlePiece])[], wordsFor: (piece: NeedlePiece) => readonly string[]): boolean {
  for (const [first, second] of pairs) {
    const as = wordsFor(first);
    const bs = wordsFor(second);
    if (as.length * bs.length > PAIR_COMBINATIONS_MAX) continue;
    if (!as.some((a) => bs.some((b) => filter.mayHold(a, b)))) return false;
  }
  return true;
}

/**
 * Word pairs as words of a token dictionary, for exact counts: `A`, the separator run between them with each
 * character moved to a private-use code point (U+E000 + its code, a word character to the dictionaries), then
 * `B`. A needle of two pieces with no separator before or after them becomes one piece the same way
 * (`pairNeedle`), and it lies inside a pair word exactly when a text holds the needle there: its moved
 * separators line up only with the same separator run whole, since the pieces around them are word characters.
 * So the rows a token dictionary of pair words gives for it are the rows holding the needle.
 */
function moveSeparators(separators: string): string {
  let moved = '';
  for (let i = 0; i < separators.length; i++) moved += String.fromCharCode(0xe000 + separators.charCodeAt(i));
  return moved;
}

/** The pair words of `text` (see above), each once, in order; pairs with a left-out word are not made. */
export function pairWords(text: string, keepAllWords = false): string[] {
  const folded = foldAscii(text);
  const out: string[] = [];
  let previous: { word: string; end: number } | null = null;
  for (const { start, end } of wordRuns(folded)) {
    const word = folded.slice(start, end);
    const kept = keepAllWords || !isHighEntropyWord(word);
    if (previous !== null && kept) out.push(`${previous.word}${moveSeparators(folded.slice(previous.end, start))}${word}`);
    previous = kept ? { word, end } : null;
  }
  return out;
}

/**
 * The needle as a pair word's inside, when the pair dictionary answers it exactly: two pieces that both
 * constrain, nothing but word characters at its ends. Otherwise null.
 */
export function pairNeedle(needle: string, keepAllWords = false): string | null {
  const folded = foldAscii(needle);
  const pieces = needlePieces(folded);
  if (pieces.length !== 2 || pieces[0]!.atStart || pieces[1]!.atEnd) return null;
  if (!constrains(pieces[0]!, keepAllWords) || !constrains(pieces[1]!, keepAllWords)) return null;
  const between = folded.slice(pieces[0]!.text.length, folded.length - pieces[1]!.text.length);
  return `${pieces[0]!.text}${moveSeparators(between)}${pieces[1]!.text}`;
}
