import { describe, expect, it } from 'vitest';
import { seededRandom } from '@skald/ports/contract/seeded-random.ts';
import { dictionaryVerdict, foldAscii, TokenDictionary, TokenDictionaryBuilder } from '../src/log-store/block-token-dictionary.ts';
import { addWordPairs, needlePairs, pairHash, pairNeedle, pairsMayMatch, pairWords, WordPairFilter } from '../src/log-store/block-word-pairs.ts';

/** A block's rows as the store searches them: message and metadata JSON. */
type Row = readonly [message: string, metadata: string];

function filterOf(rows: readonly Row[]): WordPairFilter {
  const hashes = new Set<number>();
  for (const row of rows) for (const text of row) addWordPairs(text, hashes);
  return WordPairFilter.build(hashes);
}

function dictionaryOf(rows: readonly Row[]): TokenDictionary {
  const builder = new TokenDictionaryBuilder();
  for (const row of rows) builder.addRow(row);
  return TokenDictionary.decode(builder.encode());
}

/** Whether SQL `LIKE '%needle%'` (ASCII case folded) matches any row: what the filter must never deny. */
function scanHolds(rows: readonly Row[], needle: string): boolean {
  const folded = foldAscii(needle);
  return rows.some((row) => row.some((text) => foldAscii(text).includes(folded)));
}

function mayMatch(rows: readonly Row[], needle: string): boolean {
  const dictionary = dictionaryOf(rows);
  return pairsMayMatch(filterOf(rows), needlePairs(needle), (piece) => dictionary.matching(piece).map((i) => dictionary.word(i)));
}

const VOCABULARY = ['tony', 'Vercetti', 'killed', 'by', 'sold', 'sword', 'xtony', 'vercettis', 'WEAPON_KNIFE', 'café', '12500', '3f9a1c77e0b2', 'player_7'];
const SEPARATORS = [' ', ' ', ': ', '-', ' (', '", "'];

function sentence(next: () => number, words: number): string {
  let text = '';
  for (let i = 0; i < words; i++) {
    text += VOCABULARY[Math.floor(next() * VOCABULARY.length)]!;
    if (i + 1 < words) text += SEPARATORS[Math.floor(next() * SEPARATORS.length)]!;
  }
  return text;
}

describe('block word pairs', () => {
  it('records consecutive words of one text, skipping pairs with a left-out word', () => {
    const hashes = new Set<number>();
    addWordPairs('Tony Vercetti paid 12500 to Tommy', hashes);
    expect(hashes).toEqual(new Set([pairHash('tony', 'vercetti'), pairHash('vercetti', 'paid'), pairHash('to', 'tommy')]));
  });

  it('rules out a block that holds both words but never side by side', () => {
    const rows: Row[] = [
      ['Tony joined', '{"name":"Vercetti"}'],
      ['Vercetti was killed by Tony', ''],
    ];
    expect(scanHolds(rows, 'tony vercetti')).toBe(false);
    expect(mayMatch(rows, 'tony vercetti')).toBe(false);
    expect(mayMatch(rows, 'killed by')).toBe(true);
    // The pair spans the two texts of a row nowhere: message end + metadata start is not adjacent.
    expect(mayMatch(rows, 'joined {"name')).toBe(false);
  });

  it('never rules out a block a LIKE scan finds the needle in (thousands of generated blocks and needles)', () => {
    const next = seededRandom(36);
    let ruledOut = 0;
    for (let block = 0; block < 300; block++) {
      const rows: Row[] = Array.from({ length: 1 + Math.floor(next() * 6) }, () => [sentence(next, 1 + Math.floor(next() * 5)), next() < 0.5 ? '' : JSON.stringify({ who: sentence(next, 2) })]);
      for (let n = 0; n < 20; n++) {
        const whole = sentence(next, 2 + Math.floor(next() * 2));
        // Cut into the outer words sometimes, so pieces are word ends and starts as well as whole words.
        const from = next() < 0.5 ? Math.floor(next() * 3) : 0;
        const to = whole.length - (next() < 0.5 ? Math.floor(next() * 3) : 0);
        const needle = whole.slice(from, Math.max(from + 1, to));
        const may = mayMatch(rows, needle);
        if (scanHolds(rows, needle)) expect(may, `${needle} in ${JSON.stringify(rows)}`).toBe(true);
        else if (!may) ruledOut++;
      }
    }
    // The filter is of use: it rules out a good share of the blocks that lack the needle.
    expect(ruledOut).toBeGreaterThan(1000);
  });

  it('counts the rows of a two-piece needle exactly from a dictionary of pair words (checked against a LIKE scan)', () => {
    const next = seededRandom(37);
    let exact = 0;
    for (let block = 0; block < 200; block++) {
      const rows: Row[] = Array.from({ length: 1 + Math.floor(next() * 12) }, () => [sentence(next, 1 + Math.floor(next() * 5)), next() < 0.5 ? '' : JSON.stringify({ who: sentence(next, 2) })]);
      const builder = new TokenDictionaryBuilder({ keepAllWords: true });
      for (const row of rows) builder.addRow(row.map((text) => pairWords(text).join(' ')));
      const pairs = TokenDictionary.decode(builder.encode());
      for (let n = 0; n < 20; n++) {
        const whole = sentence(next, 2);
        const from = Math.floor(next() * 3);
        const needle = whole.slice(Math.min(from, whole.length - 1), whole.length - Math.floor(next() * 3));
        const inside = pairNeedle(needle);
        if (inside === null) continue;
        const verdict = dictionaryVerdict(pairs, inside, true);
        const rowsHolding = rows.flatMap((row, i) => (row.some((text) => foldAscii(text).includes(foldAscii(needle))) ? [i] : []));
        if (verdict.kind === 'none') expect(rowsHolding, needle).toEqual([]);
        if (verdict.kind === 'exact') {
          exact++;
          expect(verdict.rows, needle).toBe(rowsHolding.length);
          if (verdict.rowList !== null) expect(verdict.rowList).toEqual(rowsHolding);
        }
      }
    }
    expect(exact).toBeGreaterThan(50);
  });

  it('makes a pair needle only of two pieces with word characters at both ends', () => {
    expect(pairNeedle('Tony Vercetti')).toBe('tony\ue020vercetti');
    expect(pairNeedle(' tony vercetti')).toBeNull();
    expect(pairNeedle('killed by tony')).toBeNull();
    expect(pairNeedle('paid 12500')).toBeNull();
    expect(pairWords('Tony, Vercetti paid 12500 to Tommy')).toEqual(['tony\ue02c\ue020vercetti', 'vercetti\ue020paid', 'to\ue020tommy']);
  });
});
