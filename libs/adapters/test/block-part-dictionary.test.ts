import { describe, expect, it } from 'vitest';
import { blockWords, encodePartDictionary, PART_LISTED_ROWS_MAX, PartDictionary, PartDictionaryBuilder, partVerdicts } from '../src/log-store/block-part-dictionary.ts';
import { foldAscii, TokenDictionary, TokenDictionaryBuilder } from '../src/log-store/block-token-dictionary.ts';

type Row = readonly [message: string, metadata: string];

function builderOf(rows: readonly Row[], keepAllWords = false): TokenDictionaryBuilder {
  const builder = new TokenDictionaryBuilder({ keepAllWords });
  for (const row of rows) builder.addRow(row);
  return builder;
}

function partOf(blocks: readonly (readonly Row[])[], keepAllWords = false): PartDictionary {
  return new PartDictionary(encodePartDictionary(blocks.map((rows) => blockWords(TokenDictionary.decode(builderOf(rows, keepAllWords).encode())))));
}

/** Rows of a block that SQL `LIKE '%needle%'` matches (ASCII folded), ascending. */
function scanRows(rows: readonly Row[], needle: string): number[] {
  const folded = foldAscii(needle);
  return rows.flatMap((row, i) => (row.some((text) => foldAscii(text).includes(folded)) ? [i] : []));
}

function wordIndex(part: PartDictionary, word: string): number {
  return part.words.matching({ text: word, atStart: true, atEnd: true })[0]!;
}

describe('part dictionary', () => {
  const blocks: Row[][] = [
    [
      ['[DEATH] Tony Vercetti was killed by Mia Santos (WEAPON_KNIFE)', '{"weaponHash":2578778090}'],
      ['Tony Price: lol', ''],
    ],
    [['Kim Price joined', '{"identifiers":["license:3f9a1c77e0b2aa"]}']],
    [
      ['Mia Vercetti: anyone selling a car?', ''],
      ['Mia Vercetti bought 2x water', ''],
    ],
  ];
  const part = partOf(blocks);

  it('gives each word the blocks holding it and their row counts', () => {
    expect(part.blocks(wordIndex(part, 'vercetti'))).toEqual(
      new Map([
        [0, 1],
        [2, 2],
      ]),
    );
    expect(part.blocks(wordIndex(part, 'price'))).toEqual(
      new Map([
        [0, 1],
        [1, 1],
      ]),
    );
  });

  it('answers per block: none, an exact count for a needle inside one word, or the block decides', () => {
    expect(partVerdicts(part, 3, 'vercett')).toEqual([
      { kind: 'exact', rows: 1, rowList: [0] },
      { kind: 'none' },
      { kind: 'exact', rows: 2, rowList: [0, 1] },
    ]);
    // `i` is in several words of every block, each held by a row or two: the union of their listed rows.
    expect(partVerdicts(part, 3, 'i')).toEqual([
      { kind: 'exact', rows: 2, rowList: [0, 1] },
      { kind: 'exact', rows: 1, rowList: [0] },
      { kind: 'exact', rows: 2, rowList: [0, 1] },
    ]);
    expect(partVerdicts(part, 3, 'mia vercetti')?.map((v) => v.kind)).toEqual(['block', 'none', 'block']);
    // Digits and hex only: no piece to look up, the caller uses its bloom filters.
    expect(partVerdicts(part, 3, '2578')).toBeNull();
    expect(partVerdicts(part, 3, 'c77e0')).toBeNull();
  });

  it('keeps the words of many blocks in several chunks and finds each one', () => {
    // 1,000 words in each of 40 blocks: ~80 KB of entries, cut into chunks of 32 KB.
    const many: Row[][] = Array.from({ length: 40 }, (_, b) => Array.from({ length: 1000 }, (_, r) => [`word_${r} common`, b === 7 && r === 3 ? '{"tag":"once"}' : ''] as const));
    const big = partOf(many);
    expect(big.words.size).toBe(1003);
    const everywhere = new Map(Array.from({ length: 40 }, (_, b) => [b, 1]));
    expect(big.blocks(wordIndex(big, 'word_0'))).toEqual(everywhere);
    expect(big.blocks(wordIndex(big, 'word_999'))).toEqual(everywhere);
    expect(big.blocks(wordIndex(big, 'common'))).toEqual(new Map(Array.from({ length: 40 }, (_, b) => [b, 1000])));
    expect(big.blocks(wordIndex(big, 'once'))).toEqual(new Map([[7, 1]]));
    expect(partVerdicts(big, 40, 'once')?.filter((v) => v.kind !== 'none')).toEqual([{ kind: 'exact', rows: 1, rowList: [3] }]);
  });

  it('lists the rows of the words a block holds at most PART_LISTED_ROWS_MAX times, and counts the others', () => {
    const rows: Row[] = Array.from({ length: 10 }, (_, r) => [`row${r} ${r < PART_LISTED_ROWS_MAX ? 'few' : ''} ${r <= PART_LISTED_ROWS_MAX ? 'more' : ''} word${r % 5}x`, ''] as const);
    const listed = partOf([rows]);
    expect(listed.entries(wordIndex(listed, 'few'))).toEqual([{ block: 0, rows: PART_LISTED_ROWS_MAX, rowList: Array.from({ length: PART_LISTED_ROWS_MAX }, (_, r) => r) }]);
    expect(listed.entries(wordIndex(listed, 'more'))).toEqual([{ block: 0, rows: PART_LISTED_ROWS_MAX + 1, rowList: null }]);
    // `word` is in 5 words of 2 rows each: listed, so the union is exact; `ore` is in one unlisted word only.
    expect(partVerdicts(listed, 1, 'word')).toEqual([{ kind: 'exact', rows: 10, rowList: Array.from({ length: 10 }, (_, r) => r) }]);
    expect(partVerdicts(listed, 1, 'ore')).toEqual([{ kind: 'exact', rows: PART_LISTED_ROWS_MAX + 1, rowList: null }]);
    // `or` is in `word0x`..`word4x` (listed) and in `more` (not): the block's own dictionary decides.
    expect(partVerdicts(listed, 1, 'or')).toEqual([{ kind: 'block' }]);
    // A block's words given without their rows (counts only) are counted, never listed.
    const counted = new PartDictionary(encodePartDictionary([[['few', 1]]]));
    expect(counted.entries(0)).toEqual([{ block: 0, rows: 1, rowList: null }]);
  });

  it('agrees with a scan of each block for every needle of generated blocks', () => {
    let seed = 11;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const alphabet = ['a', 'b', 'E', 'f', 'x', 'g', '_', '1', '9', ' ', ':', 'é'];
    const text = (length: number): string => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
    const generated: Row[][] = Array.from({ length: 6 }, () => Array.from({ length: 30 }, () => [text(random(20)), random(2) === 0 ? '' : text(random(12))] as const));
    for (const keepAllWords of [false, true]) {
      const built = partOf(generated, keepAllWords);
      for (let i = 0; i < 2000; i++) {
        const needle = text(1 + random(4));
        const verdicts = partVerdicts(built, generated.length, needle, keepAllWords);
        if (verdicts === null) continue;
        verdicts.forEach((verdict, block) => {
          const context = `${JSON.stringify(needle)} in block ${block} (keepAllWords ${keepAllWords})`;
          const rows = scanRows(generated[block]!, needle);
          if (verdict.kind === 'none') expect(rows, context).toEqual([]);
          if (verdict.kind === 'exact') expect(verdict.rows, context).toBe(rows.length);
          if (verdict.kind === 'exact' && verdict.rowList !== null) expect(verdict.rowList, context).toEqual(rows);
        });
      }
    }
  });

  it('encodes a block at a time across turns of the event loop what the encoding in one piece holds', async () => {
    // Enough words for several chunks.
    const many = Array.from({ length: 12 }, (_, b) => Array.from({ length: 3000 }, (_, i) => [`word${b % 3}x${i}y`, (i % 7) + 1 + b] as const));
    for (const blocks of [many, many.slice(0, 1)]) {
      const builder = new PartDictionaryBuilder();
      for (const words of blocks) builder.add(words);
      const part = new PartDictionary(await builder.encodeAsync());
      const whole = new PartDictionary(encodePartDictionary(blocks));
      expect(part.words.size).toBe(whole.words.size);
      for (let i = 0; i < whole.words.size; i++) {
        expect(part.words.word(i)).toBe(whole.words.word(i));
        expect(part.blocks(i)).toEqual(whole.blocks(i));
      }
    }
    const builder = new PartDictionaryBuilder();
    for (const words of many) builder.add(words);
    const part = new PartDictionary(await builder.encodeAsync());
    expect(part.blocks(wordIndex(part, 'word1x2999y'))).toEqual(new Map([1, 4, 7, 10].map((b) => [b, (2999 % 7) + 1 + b] as const)));
  });
});
