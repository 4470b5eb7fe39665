/**
 * The token dictionary of one block of logs (docs/STORAGE.md, "The layout"): every distinct word of the
 * block's searched text with how many of its rows hold it. A search reads it instead of the block's text to
 * skip the block or to count its matches exactly, and reads the text only when the dictionary cannot decide.
 *
 * The search it serves is the row store's: a case-insensitive substring of the message or metadata JSON (SQL
 * `LIKE '%needle%'`, which folds ASCII letters only). Words are therefore cut so that a substring's
 * occurrences can be reasoned about from them:
 * - a word is a maximal run of characters that are not ASCII separators (anything but ASCII letters, digits
 *   and `_`), ASCII-lower-cased: `Tony Vercetti (WEAPON_KNIFE)` holds `tony`, `vercetti`, `weapon_knife`;
 *   characters beyond ASCII belong to words, so any needle splits the same way its matches do;
 * - a needle without separators lies inside one word wherever it occurs, so the rows holding it are exactly
 *   the rows holding a word that contains it: one such word in the block gives the exact count;
 * - a needle with separators (`tony vercetti`, `license:`) splits into pieces, each of which must be a word,
 *   or a word's start, end or inside, depending on the separators around it: a block lacking such a word for
 *   any piece holds no match, otherwise its text decides.
 * Words of digits only (amounts, positions, balances) and long hex words (identifiers, hashes) are left out by
 * default: they are most of a block's distinct words, and a needle made of them is rare enough that the
 * blocks' bloom filters skip most blocks for it. A piece that could lie inside such a word then constrains
 * nothing (below, `constrains`).
 */
import { ByteReader, ByteWriter } from './block-bytes.ts';

/** True for the characters that end a word: ASCII other than letters, digits and `_`. */
function isSeparatorCode(code: number): boolean {
  if (code >= 0x80) return false;
  return !((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f);
}

/** ASCII lower case: what SQL LIKE folds (other letters keep their case). */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

const HEX_WORD_MIN = 8;

/** Words the dictionary leaves out unless told to keep every word: digits only, or 8+ hex digits with a digit. */
export function isHighEntropyWord(word: string): boolean {
  // A loop rather than regular expressions: the sealer asks it of every word of every row.
  let digits = 0;
  let hex = true;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) digits++;
    else if (code < 0x61 || code > 0x66) hex = false;
  }
  if (digits > 0 && digits === word.length) return true;
  return hex && digits > 0 && word.length >= HEX_WORD_MIN;
}

/**
 * Whether a dictionary lacking every word fit for `piece` proves that no row holds it. A whole word proves
 * it unless such words are left out; a part of a word does only when no left-out word could contain it,
 * i.e. it holds a character that is neither a digit nor a-f.
 */
export function constrains(piece: NeedlePiece, keepAllWords: boolean): boolean {
  if (keepAllWords) return true;
  if (piece.atStart && piece.atEnd) return !isHighEntropyWord(piece.text);
  return /[^0-9a-f]/.test(piece.text);
}

/** A maximal run of word characters in a folded text: `text.slice(start, end)`. */
export interface WordRun {
  readonly start: number;
  readonly end: number;
}

/** The word runs of an ASCII-folded text, in order. */
export function* wordRuns(folded: string): Generator<WordRun> {
  let start = -1;
  for (let i = 0; i <= folded.length; i++) {
    const separator = i === folded.length || isSeparatorCode(folded.charCodeAt(i));
    if (!separator) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      yield { start, end: i };
      start = -1;
    }
  }
}

/** The distinct folded words of `text` a dictionary keeps (those TokenDictionaryBuilder.addRow records), added to `into`. */
export function addWords(text: string, into: Set<string>, keepAllWords = false): void {
  const folded = foldAscii(text);
  for (const { start, end } of wordRuns(folded)) {
    const word = folded.slice(start, end);
    if (keepAllWords || !isHighEntropyWord(word)) into.add(word);
  }
}

/** A word's rows are listed (not only counted) while it has at most this many in the block. */
export const LISTED_ROWS_MAX = 16;

/**
 * Builds a block's dictionary from its rows in block order: for each row, the texts a search matches
 * (message, metadata JSON).
 */
export class TokenDictionaryBuilder {
  /**
   * Each word: how many rows hold it, the last row that did (a word met again in the same row counts once), and
   * its rows while it has at most LISTED_ROWS_MAX of them (null past that). One map lookup per word met: the
   * sealer builds a dictionary of every block it writes.
   */
  readonly #words = new Map<string, { rows: number; last: number; list: number[] | null }>();
  readonly #keepAllWords: boolean;
  #row = 0;

  constructor(options: { keepAllWords?: boolean } = {}) {
    this.#keepAllWords = options.keepAllWords ?? false;
  }

  addRow(texts: readonly string[]): void {
    const row = this.#row++;
    for (const text of texts) {
      const folded = foldAscii(text);
      let start = -1;
      for (let i = 0; i <= folded.length; i++) {
        if (i < folded.length && !isSeparatorCode(folded.charCodeAt(i))) {
          if (start < 0) start = i;
          continue;
        }
        if (start < 0) continue;
        const word = folded.slice(start, i);
        start = -1;
        const entry = this.#words.get(word);
        if (entry === undefined) {
          if (this.#keepAllWords || !isHighEntropyWord(word)) this.#words.set(word, { rows: 1, last: row, list: [row] });
          continue;
        }
        if (entry.last === row) continue;
        entry.last = row;
        entry.rows++;
        if (entry.list !== null) {
          if (entry.rows <= LISTED_ROWS_MAX) entry.list.push(row);
          else entry.list = null;
        }
      }
    }
  }

  /** The words at least `minRows` rows hold, with their row counts. */
  frequent(minRows: number): [string, number][] {
    const out: [string, number][] = [];
    for (const [word, entry] of this.#words) if (entry.rows >= minRows) out.push([word, entry.rows]);
    return out;
  }

  /**
   * The count of words, each word's row count, the row lists of the words with at most LISTED_ROWS_MAX rows
   * (as gaps), all varints; then the sorted words, each followed by a NUL (UTF-8).
   */
  encode(): Buffer {
    const words = [...this.#words.keys()].sort();
    const w = new ByteWriter();
    w.varint(words.length);
    for (const word of words) w.varint(this.#words.get(word)!.rows);
    for (const word of words) {
      let previous = -1;
      for (const row of this.#words.get(word)!.list ?? []) {
        w.varint(row - previous - 1);
        previous = row;
      }
    }
    w.bytes(SortedWords.encode(words));
    return Buffer.from(w.done());
  }
}

/**
 * Sorted words as one NUL-separated string, searched with indexOf rather than a loop over words: the word list of
 * a block's dictionary and of a part's (block-part-dictionary.ts).
 */
export class SortedWords {
  /** `\0word0\0word1\0...wordN\0`: every word is found as `\0word\0`. */
  readonly #joined: string;
  /** Start of each word in #joined. */
  readonly #starts: Uint32Array;

  /** `text`: the `n` words, each followed by a NUL. */
  constructor(text: string, n: number) {
    this.#joined = `\0${text}`;
    this.#starts = new Uint32Array(n);
    let at = 1;
    for (let i = 0; i < n; i++) {
      this.#starts[i] = at;
      at = this.#joined.indexOf('\0', at) + 1;
    }
  }

  /** The words, each followed by a NUL, as SortedWords reads them. */
  static encode(words: readonly string[]): Buffer {
    return Buffer.from(words.map((word) => `${word}\0`).join(''), 'utf8');
  }

  get size(): number {
    return this.#starts.length;
  }

  word(index: number): string {
    const start = this.#starts[index]!;
    return this.#joined.slice(start, this.#joined.indexOf('\0', start));
  }

  /** The index of the word whose text spans position `at` of the joined string. */
  #wordAt(at: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.#starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * The words a piece must be: `\0piece\0` for a whole word, `\0piece` for a start, `piece\0` for an end,
   * `piece` anywhere for the inside of a word.
   */
  matching(piece: NeedlePiece): number[] {
    const pattern = `${piece.atStart ? '\0' : ''}${piece.text}${piece.atEnd ? '\0' : ''}`;
    const found: number[] = [];
    let last = -1;
    for (let at = this.#joined.indexOf(pattern); at >= 0; at = this.#joined.indexOf(pattern, at + 1)) {
      // A match starting at a word's leading NUL belongs to the word after it.
      const index = this.#wordAt(piece.atStart ? at + 1 : at);
      if (index !== last) found.push(index);
      last = index;
    }
    return found;
  }
}

/** A decoded block dictionary: its words, their row counts and row lists. */
export class TokenDictionary {
  readonly #words: SortedWords;
  readonly #counts: Uint32Array;
  /** Where each listed word's rows start in #lists (-1: not listed). */
  readonly #listAt: Int32Array;
  readonly #lists: Buffer;

  private constructor(words: SortedWords, counts: Uint32Array, listAt: Int32Array, lists: Buffer) {
    this.#words = words;
    this.#counts = counts;
    this.#listAt = listAt;
    this.#lists = lists;
  }

  static decode(bytes: Uint8Array): TokenDictionary {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const reader = new ByteReader(buf);
    const n = reader.varint();
    const counts = new Uint32Array(n);
    for (let i = 0; i < n; i++) counts[i] = reader.varint();
    const listAt = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      if (counts[i]! > LISTED_ROWS_MAX) continue;
      listAt[i] = reader.pos;
      for (let r = 0; r < counts[i]!; r++) reader.varint();
    }
    return new TokenDictionary(new SortedWords(buf.toString('utf8', reader.pos), n), counts, listAt, buf);
  }

  get size(): number {
    return this.#words.size;
  }

  word(index: number): string {
    return this.#words.word(index);
  }

  /** How many of the block's rows hold word `index`. */
  rows(index: number): number {
    return this.#counts[index]!;
  }

  /** The rows holding word `index`, ascending, when it has at most LISTED_ROWS_MAX of them; otherwise null. */
  rowList(index: number): number[] | null {
    const at = this.#listAt[index]!;
    if (at < 0) return null;
    const reader = new ByteReader(this.#lists);
    reader.pos = at;
    const rows: number[] = [];
    let row = -1;
    for (let r = 0; r < this.#counts[index]!; r++) rows.push((row += reader.varint() + 1));
    return rows;
  }

  matching(piece: NeedlePiece): number[] {
    return this.#words.matching(piece);
  }
}

/** One word-run of a needle and where it must sit in a word of a matching row. */
export interface NeedlePiece {
  readonly text: string;
  /** A separator precedes it in the needle: it starts a word. */
  readonly atStart: boolean;
  /** A separator follows it in the needle: it ends a word. */
  readonly atEnd: boolean;
}

/** The word-runs of a folded needle (empty when it holds no word character). */
export function needlePieces(needle: string): NeedlePiece[] {
  const folded = foldAscii(needle);
  const pieces: NeedlePiece[] = [];
  for (const { start, end } of wordRuns(folded)) {
    pieces.push({ text: folded.slice(start, end), atStart: start > 0, atEnd: end < folded.length });
  }
  return pieces;
}

/** What a block's dictionary says of a needle's matches among its rows' message and metadata. */
export type DictionaryVerdict =
  /** No row of the block holds the needle. */
  | { readonly kind: 'none' }
  /**
   * Exactly `rows` rows hold it: one word of the block contains it, or several whose rows are all listed. The
   * rows themselves (ascending) when listed, else null (the text finds them).
   */
  | { readonly kind: 'exact'; readonly rows: number; readonly rowList: readonly number[] | null }
  /** The block may hold it: its text decides. `atMost` bounds the rows when known. */
  | { readonly kind: 'read'; readonly atMost: number };

/** The union of the listed rows of `words`, or null when one of them is not listed. */
function listedUnion(dictionary: TokenDictionary, words: readonly number[]): number[] | null {
  const union = new Set<number>();
  for (const w of words) {
    const rows = dictionary.rowList(w);
    if (rows === null) return null;
    for (const r of rows) union.add(r);
  }
  return [...union].sort((a, b) => a - b);
}

/**
 * The verdict for a needle on one block. `keepAllWords` must be what the dictionary was built with: a piece
 * that could lie inside a left-out word cannot be looked up.
 */
export function dictionaryVerdict(dictionary: TokenDictionary, needle: string, keepAllWords = false): DictionaryVerdict {
  const pieces = needlePieces(needle);
  let atMost = Number.POSITIVE_INFINITY;
  let single: number[] | null = null;
  for (const piece of pieces) {
    if (!constrains(piece, keepAllWords)) continue;
    const words = dictionary.matching(piece);
    if (words.length === 0) return { kind: 'none' };
    let rows = 0;
    for (const w of words) rows += dictionary.rows(w);
    atMost = Math.min(atMost, rows);
    if (pieces.length === 1 && !piece.atStart && !piece.atEnd) single = words;
  }
  if (single !== null) {
    if (single.length === 1) return { kind: 'exact', rows: dictionary.rows(single[0]!), rowList: dictionary.rowList(single[0]!) };
    const union = listedUnion(dictionary, single);
    if (union !== null) return { kind: 'exact', rows: union.length, rowList: union };
  }
  return { kind: 'read', atMost };
}
