/**
 * The streams' text dictionaries (docs/STORAGE.md, "The layout"): a block's text in groups of rows, each its own
 * zstd frame, compresses each group with its stream's dictionary, the first group of the first block of the
 * stream that filled one. A read by key then decompresses one group of a block, and the dictionary is shared
 * by every block of the stream (cached here, raw). Rows of `text_dictionaries`, keyed by the dictionary's
 * content (TextDictionary.id): two seals making one at once store it once; a seal inserts the one it made in its
 * own transaction, so no block refers to a dictionary that is not stored.
 *
 * Nothing here is cached but the raw bytes by id, which the id names exactly (its content): a connection reads
 * the stream's dictionary from the table at each seal, so a rolled-back seal never leaves one believed stored.
 */
import type { SQLOutputValue } from 'node:sqlite';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { LogRecord } from '@skald/ports';
import { TEXT_GROUP_ROWS, textDictionaryOf } from './block-codec.ts';
import type { TextDictionary } from './block-codec.ts';
import { Lru } from './block-lru.ts';

/** A connection's prepared statement, as node:sqlite and the store's statement cache give it. */
type Prepare = (sql: string) => {
  get(...params: (string | number)[]): Record<string, SQLOutputValue> | undefined;
  run(...params: (string | number | Uint8Array)[]): unknown;
};

/** A dictionary a seal made, to store with its block (zstd). */
export interface NewTextDictionary {
  readonly id: number;
  readonly frame: Uint8Array;
}

/** What a block's text is encoded with: the dictionary, and the one to store with the block if it is new. */
export interface TextDictionaryChoice {
  readonly dictionary: TextDictionary | null;
  readonly made: NewTextDictionary | null;
}

// A FiveM stream's dictionary is ~300 KB raw: a few servers' streams in memory.
const KEPT = 16;

export class TextDictionaries {
  readonly #prepare: Prepare;
  readonly #raw = new Lru<Buffer>(KEPT);
  readonly #groupRows: number;

  /** `groupRows`: rows of a group of the texts this connection encodes (tests use fewer than TEXT_GROUP_ROWS). */
  constructor(prepare: Prepare, groupRows = TEXT_GROUP_ROWS) {
    this.#prepare = prepare;
    this.#groupRows = groupRows;
  }

  /** A stored dictionary's raw bytes (what BlockText asks for). */
  readonly raw = (id: number): Buffer => {
    // The ids are 48 bits: well inside the Lru's number keys.
    return this.#raw.get(id, () => {
      const frame = this.#prepare('SELECT dict FROM text_dictionaries WHERE dict_id = ?').get(id)?.['dict'];
      if (!(frame instanceof Uint8Array)) throw new Error(`block log store: text dictionary ${id} is not stored`);
      return zstdDecompressSync(frame);
    });
  };

  /**
   * The dictionary to encode a block of the stream with: the stream's stored one, else one made from these
   * rows (in block order; none when they are fewer than a group: the block is then one frame).
   */
  choose(serverKey: number, stream: string, rows: readonly LogRecord[], level: number): TextDictionaryChoice {
    const stored = this.#prepare('SELECT dict_id FROM text_dictionaries WHERE server_key = ? AND stream = ? ORDER BY dict_id LIMIT 1').get(serverKey, stream)?.['dict_id'];
    if (stored !== undefined && stored !== null) {
      const id = Number(stored);
      return { dictionary: { id, bytes: this.raw(id), groupRows: this.#groupRows }, made: null };
    }
    const dictionary = textDictionaryOf(rows, this.#groupRows);
    if (dictionary === null) return { dictionary: null, made: null };
    return { dictionary, made: { id: dictionary.id, frame: zstdCompressSync(dictionary.bytes, { params: { [constants.ZSTD_c_compressionLevel]: level } }) } };
  }

  /** Stores a dictionary a seal made, inside its transaction (the same one made twice is one row). */
  insert(serverKey: number, stream: string, made: NewTextDictionary): void {
    this.#prepare('INSERT OR IGNORE INTO text_dictionaries (dict_id, server_key, stream, dict) VALUES (?, ?, ?, ?)').run(made.id, serverKey, stream, made.frame);
  }
}
