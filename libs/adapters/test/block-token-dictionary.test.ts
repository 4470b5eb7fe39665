import { describe, expect, it } from 'vitest';
import {
  addWords,
  dictionaryVerdict,
  foldAscii,
  isHighEntropyWord,
  LISTED_ROWS_MAX,
  needlePieces,
  TokenDictionary,
  TokenDictionaryBuilder,
} from '../src/log-store/block-token-dictionary.ts';

/** A block's rows as the store searches them: message and metadata JSON. */
type Row = readonly [message: string, metadata: string];

function dictionaryOf(rows: readonly Row[], keepAllWords = false): TokenDictionary {
  const builder = new TokenDictionaryBuilder({ keepAllWords });
  for (const row of rows) builder.addRow(row);
  return TokenDictionary.decode(builder.encode());
}

/** The rows SQL `LIKE '%needle%'` matches (ASCII case folded) in either text: what the dictionary must agree with. */
function scan(rows: readonly Row[], needle: string): number[] {
  const folded = foldAscii(needle);
  return rows.flatMap((row, i) => (row.some((text) => foldAscii(text).includes(folded)) ? [i] : []));
}

function words(text: string, keepAllWords = false): string[] {
  const into = new Set<string>();
  addWords(text, into, keepAllWords);
  return [...into];
}

describe('block token dictionary: words', () => {
  it('cuts at ASCII characters other than letters, digits and _, folds ASCII letters only', () => {
    expect(words('[DEATH] Tony Vercetti was killed (WEAPON_KNIFE)')).toEqual(['death', 'tony', 'vercetti', 'was', 'killed', 'weapon_knife']);
    // Letters beyond ASCII belong to words and keep their case, as LIKE compares them.
    expect(words('Ébène café-Straße')).toEqual(['Ébène', 'café', 'straße']);
  });

  it('leaves out words of digits only and long hex words unless told to keep every word', () => {
    expect(isHighEntropyWord('12500')).toBe(true);
    expect(isHighEntropyWord('3f9a1c77e0')).toBe(true);
    expect(isHighEntropyWord('deadbeef')).toBe(false);
    expect(isHighEntropyWord('abc123')).toBe(false);
    expect(words('license:3f9a1c77e0b2 paid 12500 to player_7')).toEqual(['license', 'paid', 'to', 'player_7']);
    expect(words('license:3f9a1c77e0b2 paid 12500', true)).toEqual(['license', '3f9a1c77e0b2', 'paid', '12500']);
  });

  it('splits a needle into pieces that must start, end or lie inside a word', () => {
    expect(needlePieces('vercetti')).toEqual([{ text: 'vercetti', atStart: false, atEnd: false }]);
    expect(needlePieces('Tony Vercetti')).toEqual([
      { text: 'tony', atStart: false, atEnd: true },
      { text: 'vercetti', atStart: true, atEnd: false },
    ]);
    expect(needlePieces('license:')).toEqual([{ text: 'license', atStart: false, atEnd: true }]);
    expect(needlePieces(' by ')).toEqual([{ text: 'by', atStart: true, atEnd: true }]);
    expect(needlePieces(': ')).toEqual([]);
  });
});

describe('block token dictionary: encoding', () => {
  it('keeps each word with how many rows hold it, and lists the rows of the words few rows hold', () => {
    const rows: Row[] = Array.from({ length: LISTED_ROWS_MAX + 3 }, (_, i) => [`player joined ${i % 2 === 0 ? 'lobby' : 'arena'}`, i === 4 ? '{"tag":"vip"}' : '']);
    const dictionary = dictionaryOf(rows);
    const byWord = new Map(Array.from({ length: dictionary.size }, (_, i) => [dictionary.word(i), i]));
    expect([...byWord.keys()].sort()).toEqual(['arena', 'joined', 'lobby', 'player', 'tag', 'vip']);
    expect(dictionary.rows(byWord.get('player')!)).toBe(rows.length);
    // More rows than listed: counted only.
    expect(dictionary.rowList(byWord.get('player')!)).toBeNull();
    expect(dictionary.rowList(byWord.get('arena')!)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17]);
    expect(dictionary.rowList(byWord.get('vip')!)).toEqual([4]);
  });

  it('decodes an empty block and words beyond ASCII', () => {
    expect(dictionaryOf([]).size).toBe(0);
    const dictionary = dictionaryOf([['Zoë a gagné 5€', '']]);
    expect(Array.from({ length: dictionary.size }, (_, i) => dictionary.word(i))).toEqual(['5€', 'a', 'gagné', 'zoë']);
    expect(dictionaryVerdict(dictionary, 'GAGNÉ')).toEqual({ kind: 'none' });
    expect(dictionaryVerdict(dictionary, 'gagné')).toEqual({ kind: 'exact', rows: 1, rowList: [0] });
  });
});

describe('block token dictionary: verdicts', () => {
  const rows: Row[] = [
    ['[DEATH] Tony Vercetti was killed by Mia Santos (WEAPON_KNIFE)', '{"weapon":"WEAPON_KNIFE","weaponHash":2578778090}'],
    ['[JOIN] Tony Price joined the server', '{"player":{"identifiers":["license:3f9a1c77e0b2aa"]}}'],
    ['Mia Vercetti: anyone selling a car?', ''],
    ['**Kim Price (citizenid: ABC12345 | id: 12)** $500 (bank) added', '{"webhook":"playermoney"}'],
  ];
  const dictionary = dictionaryOf(rows);

  it('counts a needle inside one word exactly, with its rows', () => {
    expect(dictionaryVerdict(dictionary, 'vercetti')).toEqual({ kind: 'exact', rows: 2, rowList: [0, 2] });
    expect(dictionaryVerdict(dictionary, 'KNIF')).toEqual({ kind: 'exact', rows: 1, rowList: [0] });
  });

  it('counts a needle several listed words contain from the union of their rows', () => {
    // `er` is in vercetti, killed, server, playermoney: words of every row, each listed.
    expect(dictionaryVerdict(dictionary, 'er')).toEqual({ kind: 'exact', rows: 4, rowList: [0, 1, 2, 3] });
  });

  it('skips a block lacking a word for any piece, and leaves the rest to the text', () => {
    expect(dictionaryVerdict(dictionary, 'frobnicate')).toEqual({ kind: 'none' });
    expect(dictionaryVerdict(dictionary, 'tony stone')).toEqual({ kind: 'none' });
    expect(dictionaryVerdict(dictionary, 'tony vercetti')).toEqual({ kind: 'read', atMost: 2 });
    expect(dictionaryVerdict(dictionary, 'license:')).toEqual({ kind: 'read', atMost: 1 });
  });

  it('does not rule out a needle that could lie inside a left-out word', () => {
    // 2578778090 (digits) and 3f9a1c77e0b2aa (hex) are not in the dictionary.
    expect(dictionaryVerdict(dictionary, '8778')).toEqual({ kind: 'read', atMost: Number.POSITIVE_INFINITY });
    expect(dictionaryVerdict(dictionary, 'c77e')).toEqual({ kind: 'read', atMost: Number.POSITIVE_INFINITY });
    expect(dictionaryVerdict(dictionary, 'license:3f9a')).toEqual({ kind: 'read', atMost: 1 });
    expect(dictionaryVerdict(dictionaryOf(rows, true), '8778', true)).toEqual({ kind: 'exact', rows: 1, rowList: [0] });
  });

  it('agrees with a scan of the rows for every needle of a generated block', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const alphabet = ['a', 'b', 'E', 'f', 'x', '_', '1', '9', ' ', ':', '"', 'é', 'É'];
    const text = (length: number): string => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
    const block: Row[] = Array.from({ length: 60 }, () => [text(random(24)), random(2) === 0 ? '' : text(random(16))]);
    for (const keepAllWords of [false, true]) {
      const built = dictionaryOf(block, keepAllWords);
      for (let i = 0; i < 3000; i++) {
        const needle = text(1 + random(5));
        const matches = scan(block, needle);
        const verdict = dictionaryVerdict(built, needle, keepAllWords);
        const context = `${JSON.stringify(needle)} (keepAllWords ${keepAllWords})`;
        if (verdict.kind === 'none') expect(matches, context).toEqual([]);
        else if (verdict.kind === 'exact') {
          expect(verdict.rows, context).toBe(matches.length);
          if (verdict.rowList !== null) expect(verdict.rowList, context).toEqual(matches);
        } else expect(verdict.atMost, context).toBeGreaterThanOrEqual(matches.length);
      }
    }
  });
});
