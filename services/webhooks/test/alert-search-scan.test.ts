import { describe, expect, it } from 'vitest';
import { searchPattern } from '../src/domain/alerts/alert-filter.ts';
import { createSearchScan } from '../src/domain/alerts/alert-search-scan.ts';

/** A small deterministic generator (the test must fail the same way every run). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

// Characters chosen to meet the folding rules: ASCII letters of both cases, the two characters beyond ASCII
// that fold to ASCII letters (U+017F to s, U+212A to k), others that do not (dotted I, dotless i, sharp s and
// its capital, Kelvin's neighbour), an astral character, separators and regular-expression syntax.
const ALPHABET = ['a', 'b', 'k', 's', 'K', 'S', 'A', 'B', 'ſ', 'K', 'İ', 'ı', 'ß', 'ẞ', 'é', 'É', '😀', ' ', '_', '(', '.', '*', '1'];

function text(rand: () => number, min: number, max: number, alphabet: readonly string[]): string {
  const length = min + Math.floor(rand() * (max - min + 1));
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rand() * alphabet.length)]!;
  return out;
}

/** The reference: each text's own expression, as a filter of that search alone tests it. */
function expected(texts: readonly string[], message: string): boolean[] {
  return texts.map((t) => searchPattern([t]).test(message));
}

function check(texts: readonly string[], messages: readonly string[]): void {
  const scan = createSearchScan(texts);
  for (const message of messages) {
    const want = expected(texts, message);
    const any = scan.scan(message);
    const got = texts.map((_, i) => scan.holds(i));
    expect(got, `${JSON.stringify(texts)} in ${JSON.stringify(message)}`).toEqual(want);
    expect(any, JSON.stringify(message)).toBe(want.some(Boolean));
  }
}

describe('the search scan (which texts a message holds, ignoring case)', () => {
  it('marks exactly the texts their own expressions find, for ASCII texts of 3 or more (the sliding window)', () => {
    const rand = random(7);
    const asciiAlphabet = ['a', 'b', 'k', 's', 'K', 'S', 'A', 'B', ' ', '_', '(', '.'];
    for (let round = 0; round < 300; round++) {
      const texts = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => text(rand, 3, 7, asciiAlphabet));
      // Messages built around the texts (so they occur, in other cases, next to each other), and random ones.
      const messages = Array.from({ length: 20 }, () => {
        const around = texts[Math.floor(rand() * texts.length)]!;
        const cased = [...around].map((ch) => (rand() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join('').replace(/s/g, () => (rand() < 0.2 ? 'ſ' : 's')).replace(/k/gi, (k) => (rand() < 0.2 ? 'K' : k));
        return rand() < 0.7 ? `${text(rand, 0, 6, ALPHABET)}${cased}${text(rand, 0, 6, ALPHABET)}` : text(rand, 0, 30, ALPHABET);
      });
      check(texts, messages);
    }
  });

  it('marks exactly the texts their own expressions find, for short or non-ASCII texts (the expression of all)', () => {
    const rand = random(11);
    for (let round = 0; round < 300; round++) {
      const texts = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => text(rand, 1, 5, ALPHABET));
      const messages = Array.from({ length: 20 }, () => {
        const around = texts[Math.floor(rand() * texts.length)]!;
        return rand() < 0.7 ? `${text(rand, 0, 4, ALPHABET)}${around.toUpperCase()}${text(rand, 0, 4, ALPHABET)}${around}` : text(rand, 0, 25, ALPHABET);
      });
      check(texts, messages);
    }
  });

  it('marks exactly the texts their own expressions find when one scan holds texts of both kinds (each kind scanned its own way)', () => {
    const rand = random(13);
    const asciiAlphabet = ['a', 'b', 'k', 's', 'K', 'S', 'A', 'B', ' ', '_', '(', '.'];
    for (let round = 0; round < 300; round++) {
      // Sliding-window texts and expression texts mixed, in any order, some the same as or inside one another.
      const texts = Array.from({ length: 2 + Math.floor(rand() * 8) }, () => (rand() < 0.5 ? text(rand, 3, 7, asciiAlphabet) : text(rand, 1, 4, ALPHABET)));
      const messages = Array.from({ length: 20 }, () => {
        const around = texts[Math.floor(rand() * texts.length)]!;
        const other = texts[Math.floor(rand() * texts.length)]!;
        return rand() < 0.7 ? `${text(rand, 0, 4, ALPHABET)}${around.toUpperCase()}${text(rand, 0, 3, ALPHABET)}${other}` : text(rand, 0, 25, ALPHABET);
      });
      check(texts, messages);
    }
  });

  it('finds texts inside, overlapping and at the start of one another, in messages of game servers', () => {
    check(
      ['was killed by', 'killed', 'KILLED BY', 'weapon_pistol', 'pistol', 'noclip', 'SCRIPT ERROR', 'error: ', 'd by'],
      [
        'Tony Vercetti was killed by Nicat using WEAPON_PISTOL',
        'SCRIPT ERROR: @qb-core/server.lua:12: attempt to index a nil value',
        'Player used NoClip',
        'nothing to see here',
        'was kille',
        'killed',
        'waS KiLLed by',
        'was ſomething killed by 😀',
        '',
      ],
    );
  });

  it('answers a scan with no texts with nothing', () => {
    const scan = createSearchScan([]);
    expect(scan.scan('anything')).toBe(false);
  });
});
