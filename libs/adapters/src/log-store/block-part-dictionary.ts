/**
 * The dictionary of a part: consecutive blocks of one stream (docs/STORAGE.md, "The layout"), every word they
 * hold with, per block, how many rows hold it. One read of it answers, for every block of the part, what the
 * block's own dictionary (block-token-dictionary.ts) would in the usual case, so a word search over a server's
 * blocks reads a few parts instead of every block.
 *
 * Layout: a varint with the length of a zstd head, the head, then zstd chunks of the entries. The head holds the
 * count of words, each chunk's compressed length and first word, each word's entry length, then the words
 * (SortedWords). An entry lists, per block holding the word, the block's gap from the one before and its row
 * count times 2, plus 1 when the rows themselves follow (their gaps): they do for a word PART_LISTED_ROWS_MAX
 * rows of the block or fewer hold, so that the rows of a rare word are known without the block's own
 * dictionary. A query decompresses the head and only the chunks of the words it matched: a part of 512 blocks
 * has megabytes of entries and a head of tens of kilobytes.
 */
import { promisify } from 'node:util';
import { constants, zstdCompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { ByteReader, ByteWriter } from './block-bytes.ts';
import { constrains, needlePieces, SortedWords } from './block-token-dictionary.ts';
import type { TokenDictionary } from './block-token-dictionary.ts';
import { Lru } from './block-lru.ts';

/** Entries are cut into zstd chunks of about this many bytes. */
const CHUNK_BYTES = 32 * 1024;
/** Decompressed chunks a decoded part keeps (the store keeps a few dozen decoded parts). */
const CHUNKS_KEPT = 8;

/**
 * A word's rows are listed in the part while the block has this many of them or fewer: the rows of a word a
 * block holds once or twice (most of a block's distinct words, and the rare ones searched for) are read from
 * the part; more would cost bytes for every common word of every block (measured in docs/STORAGE.md).
 */
export const PART_LISTED_ROWS_MAX = 2;

/** One word of a block: its row count, and its rows (ascending) when it has PART_LISTED_ROWS_MAX or fewer. */
export type BlockWord = readonly [word: string, rows: number, rowList?: readonly number[] | null];

/** One block's words (TokenDictionary: blockWords). */
export type BlockWords = readonly BlockWord[];

/** A block's words as a part takes them from its dictionary: row counts, and the rows of the rarest. */
export function blockWords(dictionary: TokenDictionary): BlockWord[] {
  return Array.from({ length: dictionary.size }, (_, i) => {
    const rows = dictionary.rows(i);
    return [dictionary.word(i), rows, rows <= PART_LISTED_ROWS_MAX ? dictionary.rowList(i) : null] as const;
  });
}

/** A block's entry for one word in a part: the block's position, its row count, its rows when listed. */
export interface PartBlockEntry {
  readonly block: number;
  readonly rows: number;
  readonly rowList: readonly number[] | null;
}

export function encodePartDictionary(blocks: readonly BlockWords[], level = 6): Buffer {
  const builder = new PartDictionaryBuilder();
  for (const words of blocks) builder.add(words);
  return builder.encode(level);
}

const pause = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
const zstdCompressAsync = promisify(zstdCompress);

/** Entry bytes made per slice of the async encoding between turns of the event loop. */
const BYTES_PER_SLICE = 256 * 1024;

/**
 * The same encoding a block at a time: the store's parts (up to 512 blocks of thousands of words each, ~1 s in
 * one piece) are built across turns of the event loop, their chunks compressed on the thread pool.
 */
export class PartDictionaryBuilder {
  readonly #byWord = new Map<string, { block: number; rows: number; rowList: readonly number[] | null }[]>();
  #blocks = 0;

  /** The next block's words with their row counts, and the rows of those with PART_LISTED_ROWS_MAX or fewer. */
  add(words: BlockWords): void {
    const block = this.#blocks++;
    for (const [word, rows, rowList] of words) {
      let entry = this.#byWord.get(word);
      if (entry === undefined) this.#byWord.set(word, (entry = []));
      entry.push({ block, rows, rowList: rows <= PART_LISTED_ROWS_MAX && rowList !== undefined && rowList !== null ? rowList : null });
    }
  }

  #entry(word: string): Buffer {
    const w = new ByteWriter();
    let previous = -1;
    for (const { block, rows, rowList } of this.#byWord.get(word)!) {
      w.varint(block - previous - 1);
      previous = block;
      w.varint(rows * 2 + (rowList === null ? 0 : 1));
      let previousRow = -1;
      for (const row of rowList ?? []) {
        w.varint(row - previousRow - 1);
        previousRow = row;
      }
    }
    return Buffer.from(w.done());
  }

  /** The entries cut into chunks of about CHUNK_BYTES: each chunk's first word and its bytes. */
  static #chunks(entries: readonly Buffer[]): { first: number; bytes: Buffer }[] {
    const chunks: { first: number; bytes: Buffer }[] = [];
    let first = 0;
    let size = 0;
    entries.forEach((entry, i) => {
      size += entry.length;
      if (size >= CHUNK_BYTES || i === entries.length - 1) {
        chunks.push({ first, bytes: Buffer.concat(entries.slice(first, i + 1)) });
        first = i + 1;
        size = 0;
      }
    });
    return chunks;
  }

  /** The head (word count, chunks, entry lengths, words), uncompressed. */
  static #head(words: readonly string[], entries: readonly Buffer[], chunks: readonly { first: number; frame: Buffer }[]): Buffer {
    const head = new ByteWriter();
    head.varint(words.length);
    head.varint(chunks.length);
    for (const chunk of chunks) {
      head.varint(chunk.frame.length);
      head.varint(chunk.first);
    }
    for (const entry of entries) head.varint(entry.length);
    head.bytes(SortedWords.encode(words));
    return Buffer.from(head.done());
  }

  static #join(headFrame: Buffer, chunks: readonly { frame: Buffer }[]): Buffer {
    const prefix = new ByteWriter();
    prefix.varint(headFrame.length);
    return Buffer.concat([prefix.done(), headFrame, ...chunks.map((c) => c.frame)]);
  }

  encode(level = 6): Buffer {
    const compress = (bytes: Buffer): Buffer => zstdCompressSync(bytes, { params: { [constants.ZSTD_c_compressionLevel]: level } });
    const words = [...this.#byWord.keys()].sort();
    const entries = words.map((word) => this.#entry(word));
    const chunks = PartDictionaryBuilder.#chunks(entries).map((c) => ({ first: c.first, frame: compress(c.bytes) }));
    return PartDictionaryBuilder.#join(compress(PartDictionaryBuilder.#head(words, entries, chunks)), chunks);
  }

  async encodeAsync(level = 6): Promise<Buffer> {
    const compress = (bytes: Buffer): Promise<Buffer> => zstdCompressAsync(bytes, { params: { [constants.ZSTD_c_compressionLevel]: level } });
    const words = [...this.#byWord.keys()].sort();
    await pause();
    const entries: Buffer[] = [];
    let slice = 0;
    for (const word of words) {
      const entry = this.#entry(word);
      entries.push(entry);
      slice += entry.length;
      if (slice >= BYTES_PER_SLICE) {
        slice = 0;
        await pause();
      }
    }
    const raw = PartDictionaryBuilder.#chunks(entries);
    const chunks = await Promise.all(raw.map(async (c) => ({ first: c.first, frame: await compress(c.bytes) })));
    return PartDictionaryBuilder.#join(await compress(PartDictionaryBuilder.#head(words, entries, chunks)), chunks);
  }
}

export class PartDictionary {
  readonly words: SortedWords;
  /** Each word's chunk, and its entry's offset and length in the chunk's decompressed bytes. */
  readonly #chunkOf: Uint32Array;
  readonly #entryAt: Uint32Array;
  readonly #entryLength: Uint32Array;
  readonly #frames: { at: number; length: number }[] = [];
  /** The chunks decompressed last (at most CHUNKS_KEPT: a part of 512 blocks has megabytes of entries). */
  readonly #chunks = new Lru<Buffer>(CHUNKS_KEPT);
  readonly #blob: Buffer;

  constructor(blob: Uint8Array) {
    this.#blob = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
    const prefix = new ByteReader(this.#blob);
    const headLength = prefix.varint();
    const head = new ByteReader(zstdDecompressSync(this.#blob.subarray(prefix.pos, prefix.pos + headLength)));
    let frameAt = prefix.pos + headLength;
    const n = head.varint();
    const chunkCount = head.varint();
    const firsts: number[] = [];
    for (let c = 0; c < chunkCount; c++) {
      const length = head.varint();
      this.#frames.push({ at: frameAt, length });
      frameAt += length;
      firsts.push(head.varint());
    }
    this.#chunkOf = new Uint32Array(n);
    this.#entryAt = new Uint32Array(n);
    this.#entryLength = new Uint32Array(n);
    let chunk = 0;
    let at = 0;
    for (let i = 0; i < n; i++) {
      if (chunk + 1 < chunkCount && i === firsts[chunk + 1]) {
        chunk++;
        at = 0;
      }
      const length = head.varint();
      this.#chunkOf[i] = chunk;
      this.#entryAt[i] = at;
      this.#entryLength[i] = length;
      at += length;
    }
    this.words = new SortedWords(head.rest().toString('utf8'), n);
  }

  /** The blocks (index in the part) holding word `index`, each with how many of its rows hold it. */
  blocks(index: number): Map<number, number> {
    return new Map(this.entries(index).map((e) => [e.block, e.rows]));
  }

  /** The blocks holding word `index` in order, each with its row count and its rows when listed. */
  entries(index: number): PartBlockEntry[] {
    const c = this.#chunkOf[index]!;
    const chunk = this.#chunks.get(c, () => {
      const frame = this.#frames[c]!;
      return zstdDecompressSync(this.#blob.subarray(frame.at, frame.at + frame.length));
    });
    const r = new ByteReader(chunk);
    r.pos = this.#entryAt[index]!;
    const end = r.pos + this.#entryLength[index]!;
    const out: PartBlockEntry[] = [];
    let block = -1;
    while (r.pos < end) {
      block += r.varint() + 1;
      const counted = r.varint();
      const rows = Math.floor(counted / 2);
      let rowList: number[] | null = null;
      if (counted % 2 === 1) {
        rowList = [];
        for (let k = 0, row = -1; k < rows; k++) rowList.push((row += r.varint() + 1));
      }
      out.push({ block, rows, rowList });
    }
    return out;
  }
}

/** What the part's dictionary says of one of its blocks. */
export type PartVerdict =
  /** No row of the block holds the needle. */
  | { readonly kind: 'none' }
  /**
   * Exactly this many rows hold it: one word of the block contains the needle, or several whose rows the part
   * lists. The rows (ascending) when listed, else null (the block's own dictionary lists them, or its text).
   */
  | { readonly kind: 'exact'; readonly rows: number; readonly rowList: readonly number[] | null }
  /** The block's own dictionary, then maybe its text, decide. */
  | { readonly kind: 'block' };

/**
 * Each block's verdict: none when a piece of the needle that can be looked up has no fit word in the block;
 * for a needle inside one word, the exact count when one fit word is in the block, or when several are and the
 * part lists the rows of each (then their union); otherwise `block`. Null
 * when no piece can be looked up (the caller falls back to bloom filters and text). `keepAllWords` must be
 * what the blocks' dictionaries were built with.
 */
export function partVerdicts(part: PartDictionary, blockCount: number, needle: string, keepAllWords = false): PartVerdict[] | null {
  const all = needlePieces(needle);
  const pieces = all.filter((p) => constrains(p, keepAllWords));
  if (pieces.length === 0) return null;
  const inOneWord = all.length === 1 && pieces.length === 1 && !pieces[0]!.atStart && !pieces[0]!.atEnd;
  const verdicts: PartVerdict[] = Array.from({ length: blockCount }, () => ({ kind: 'block' }));
  for (const piece of pieces) {
    const hits = new Uint32Array(blockCount);
    const rows = new Uint32Array(blockCount);
    // Per block, the rows of the fit words while each of them is listed (null once one is not).
    const listed: (number[] | null | undefined)[] = new Array(blockCount);
    for (const word of part.words.matching(piece)) {
      for (const entry of part.entries(word)) {
        hits[entry.block]!++;
        rows[entry.block] = entry.rows;
        const union = listed[entry.block];
        if (union === null) continue;
        if (entry.rowList === null) listed[entry.block] = null;
        else if (union === undefined) listed[entry.block] = [...entry.rowList];
        else union.push(...entry.rowList);
      }
    }
    for (let block = 0; block < blockCount; block++) {
      if (hits[block] === 0) verdicts[block] = { kind: 'none' };
      else if (inOneWord) {
        const union = listed[block] ?? null;
        if (hits[block] === 1) verdicts[block] = { kind: 'exact', rows: rows[block]!, rowList: union };
        else if (union !== null) {
          const rowList = [...new Set(union)].sort((a, b) => a - b);
          verdicts[block] = { kind: 'exact', rows: rowList.length, rowList };
        }
      }
    }
  }
  return verdicts;
}
