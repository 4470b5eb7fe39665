/**
 * The blocks of the block log store as the read paths see them: each server's directory (every block's
 * stream, time and expiry range, row counts and per-value counts, newest first by max_at), loaded from the
 * `blocks` table once and dropped whenever a block of the server is written or removed; and the decoded parts
 * of recently read blocks (columns, text, token dictionary, row keys, rare rows), least recently used dropped first.
 * Writing a block (the sealer's and a rewrite's) lives here too, so the caches never outlive what they cache.
 */
import { zstdDecompressSync } from 'node:zlib';
import type { LogRecord } from '@skald/ports';
import type { BlockConnection } from './block-store-connection.ts';
import { BLOCK_ZSTD_LEVEL, TEXT_GROUP_ROWS, BlockText, decodeBlock, decodeBlockKeys, decodeBlockMeta, rowOf } from './block-codec.ts';
import { RareRows, rareRowsOfBlock } from './block-rare.ts';
import type { BlockColumns, BlockMeta } from './block-codec.ts';
import { sealBlock, sealBlockAsync } from './block-seal.ts';
import { TextDictionaries } from './block-text-dictionaries.ts';
import type { SealedBlock } from './block-seal.ts';
import { foldAscii, TokenDictionary } from './block-token-dictionary.ts';
import { Lru } from './block-lru.ts';
import { BlockParts } from './block-parts.ts';
import { blockWords } from './block-part-dictionary.ts';
import type { BlockWords } from './block-part-dictionary.ts';
import { num, str } from './sqlite-log-rows.ts';

export interface BlockEntry {
  readonly blockId: number;
  readonly serverKey: number;
  /** The ASCII-lower-cased level every row of the block has. */
  readonly stream: string;
  readonly minAt: number;
  readonly maxAt: number;
  readonly n: number;
  readonly photos: number;
  readonly minExpires: number;
  readonly maxExpires: number;
  /** Rows per ASCII-lower-cased type and resource. */
  readonly types: ReadonlyMap<string, number>;
  readonly resources: ReadonlyMap<string, number>;
  /**
   * Every distinct level, type and resource of the block, ASCII-lower-cased (a search matches them too); one
   * array for the blocks of a server that have the same ones.
   */
  readonly values: readonly string[];
}

export interface StoredDims {
  readonly level: Record<string, number>;
  readonly type: Record<string, number>;
  readonly resource: Record<string, number>;
}

function folded(counts: Record<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [value, n] of Object.entries(counts)) {
    const key = foldAscii(value);
    out.set(key, (out.get(key) ?? 0) + n);
  }
  return out;
}

/** The key a row is stored under: created_at and id. */
export function rowKey(createdAt: number, id: string): string {
  return `${createdAt}\u0000${id}`;
}

/** How many times each part of a block was decoded (not found in its cache): diagnostics, tests and benches. */
export interface BlockDecodes {
  columns: number;
  keys: number;
  text: number;
  dictionaries: number;
  rareRows: number;
}

export class BlockDirectory {
  readonly #conn: BlockConnection;
  readonly #decodes: BlockDecodes = { columns: 0, keys: 0, text: 0, dictionaries: 0, rareRows: 0 };
  readonly #servers = new Map<number, BlockEntry[]>();
  readonly #columns = new Lru<BlockColumns>(32);
  // Fewer than a 5-million-log timeline page's 10 blocks, so a reload decodes them again: 16 (a reload then
  // decodes nothing) doubled the timeline's p95 through the route (docs/PLAYERS.md, "The timeline on blocks").
  readonly #texts = new Lru<BlockText>(8);
  readonly #folded = new Lru<Buffer>(8);
  // The meta frames of recent reads, decompressed once each: their keys order a query's matches, the values of
  // the rows a page shows are read from them, and `columns` makes every row's from them.
  readonly #meta = new Lru<BlockMeta>(128);
  // A search reads the dictionaries of the blocks its parts do not rule out, and of the blocks in no part yet:
  // 512 decoded (~13 MB per million bench logs' 242) keep a million-log server's in memory.
  readonly #dictionaries = new Lru<TokenDictionary>(512);
  // A rare type's page reads one small frame per block holding it (hundreds at 5 million logs): kept, a
  // few KB each, so the next pages and queries of the rare values read none.
  readonly #rare = new Lru<RareRows | null>(2048);
  readonly #level: number;
  /** The part dictionaries over runs of each stream's blocks (block-parts.ts). */
  readonly parts: BlockParts;
  /** The streams' text dictionaries (block-text-dictionaries.ts), which grouped texts are compressed with. */
  readonly textDictionaries: TextDictionaries;
  /** Rows of a group of the texts this store seals. */
  readonly textGroupRows: number;

  constructor(conn: BlockConnection, options: { zstdLevel?: number; partFanout?: number; textGroupRows?: number } = {}) {
    this.#conn = conn;
    this.textGroupRows = options.textGroupRows ?? TEXT_GROUP_ROWS;
    this.textDictionaries = new TextDictionaries((sql) => conn.prepare(sql), this.textGroupRows);
    this.#level = options.zstdLevel ?? BLOCK_ZSTD_LEVEL;
    this.parts = new BlockParts(conn, { blocks: (serverKey) => this.entries(serverKey), words: (blockId) => this.#words(blockId) }, options.partFanout);
  }

  /** A block's words with their row counts and short row lists, decoded afresh (a part's build reads each block once: no cache). */
  #words(blockId: number): BlockWords {
    return blockWords(TokenDictionary.decode(zstdDecompressSync(this.#blob(blockId, 'words'))));
  }

  /** The decodes so far (a copy). */
  decodes(): BlockDecodes {
    return { ...this.#decodes };
  }

  /** The server's blocks, newest first by max_at. */
  entries(serverKey: number): readonly BlockEntry[] {
    let entries = this.#servers.get(serverKey);
    if (entries === undefined) {
      const sharedValues = new Map<string, readonly string[]>();
      entries = this.#conn
        .prepare('SELECT block_id, stream, min_at, max_at, n, photos, min_expires, max_expires, dims FROM blocks WHERE server_key = ? ORDER BY max_at DESC, block_id DESC')
        .all(serverKey)
        .map((row) => {
          const dims = JSON.parse(str(row['dims'])) as StoredDims;
          const set = new Set<string>();
          for (const counts of [dims.level, dims.type, dims.resource]) for (const v of Object.keys(counts)) set.add(foldAscii(v));
          // Shared by the blocks with the same values (most of a stream's): a query asks each set once.
          const key = [...set].sort().join('\u0000');
          let values = sharedValues.get(key);
          if (values === undefined) sharedValues.set(key, (values = [...set]));
          return {
            blockId: num(row['block_id']),
            serverKey,
            stream: str(row['stream']),
            minAt: num(row['min_at']),
            maxAt: num(row['max_at']),
            n: num(row['n']),
            photos: num(row['photos']),
            minExpires: num(row['min_expires']),
            maxExpires: num(row['max_expires']),
            types: folded(dims.type),
            resources: folded(dims.resource),
            values,
          };
        });
      this.#servers.set(serverKey, entries);
    }
    return entries;
  }

  /** The block's rows per level, type and resource as written (its `dims`). */
  dims(entry: BlockEntry): StoredDims {
    const row = this.#conn.prepare('SELECT dims FROM blocks WHERE block_id = ?').get(entry.blockId);
    if (row === undefined) throw new Error(`block log store: block ${entry.blockId} is gone`);
    return JSON.parse(str(row['dims'])) as StoredDims;
  }

  /** Blocks of every server holding a row expired at `now`. */
  expiring(now: number): BlockEntry[] {
    const servers = this.#conn.prepare('SELECT DISTINCT server_key FROM blocks WHERE min_expires <= ?').all(now).map((row) => num(row['server_key']));
    return servers.flatMap((serverKey) => this.entries(serverKey).filter((e) => e.minExpires <= now));
  }

  /** Every column of every row (filters on values, deletes, reads by key). */
  columns(entry: BlockEntry): BlockColumns {
    return this.#columns.get(entry.blockId, () => {
      this.#decodes.columns++;
      return this.meta(entry).columns();
    });
  }

  /** The block's meta frame: the rows' keys, and the other columns of a row when asked (block-codec.ts BlockMeta). */
  meta(entry: BlockEntry): BlockMeta {
    return this.#meta.get(entry.blockId, () => {
      this.#decodes.keys++;
      return decodeBlockKeys(this.#blob(entry.blockId, 'meta'));
    });
  }

  /** The text's bytes with ASCII letters lower-cased (what a search looks for its folded needle in). */
  foldedText(entry: BlockEntry): Buffer {
    return this.#folded.get(entry.blockId, () => {
      const hay = Buffer.from(this.text(entry).bytes);
      for (let i = 0; i < hay.length; i++) {
        const b = hay[i]!;
        if (b >= 0x41 && b <= 0x5a) hay[i] = b + 0x20;
      }
      return hay;
    });
  }

  text(entry: BlockEntry): BlockText {
    return this.#texts.get(entry.blockId, () => {
      this.#decodes.text++;
      return new BlockText(this.#blob(entry.blockId, 'text'), entry.n, true, this.textDictionaries.raw);
    });
  }

  dictionary(entry: BlockEntry): TokenDictionary {
    return this.#dictionaries.get(entry.blockId, () => {
      this.#decodes.dictionaries++;
      return TokenDictionary.decode(zstdDecompressSync(this.#blob(entry.blockId, 'words')));
    });
  }

  /** The row of the block holding the log with this key, or -1 (a redelivery check, a read by key). */
  rowOf(entry: BlockEntry, createdAt: number, id: string): number {
    return rowOf(this.meta(entry), createdAt, id);
  }

  /** The block's rare rows (block-rare.ts); null for a block stored before them, until they are built. */
  rare(entry: BlockEntry): RareRows | null {
    return this.#rare.get(entry.blockId, () => {
      const blob = this.#conn.prepare('SELECT rows FROM rare_rows WHERE block_id = ?').get(entry.blockId)?.['rows'];
      this.#decodes.rareRows++;
      return blob instanceof Uint8Array ? RareRows.decode(blob) : null;
    });
  }

  /** Every record of the block, decoded afresh (a seal merging it into a larger block reads it once: no cache). */
  records(entry: BlockEntry): LogRecord[] {
    return decodeBlock('', this.#blob(entry.blockId, 'meta'), this.#blob(entry.blockId, 'text'), this.textDictionaries.raw);
  }

  /** Blocks stored without rare rows (a file of an earlier layout), newest first. */
  withoutRareRows(): number[] {
    return this.#conn
      .prepare('SELECT block_id FROM blocks WHERE block_id NOT IN (SELECT block_id FROM rare_rows) ORDER BY block_id DESC')
      .all()
      .map((row) => num(row['block_id']));
  }

  /**
   * Builds a block's rare rows from its frames, in a transaction of its own (a block gone since is skipped), which
   * waits for the write lock off the event loop (BlockConnection.write).
   */
  async buildRareRows(blockId: number): Promise<void> {
    const row = this.#conn.prepare('SELECT n, meta, text FROM blocks WHERE block_id = ?').get(blockId);
    const meta = row?.['meta'];
    const text = row?.['text'];
    if (!(meta instanceof Uint8Array) || !(text instanceof Uint8Array)) return;
    const frame = rareRowsOfBlock(decodeBlockMeta(meta), new BlockText(text, num(row?.['n']), true, this.textDictionaries.raw), this.#level);
    await this.#conn.write(() => {
      this.#conn.prepare('INSERT OR IGNORE INTO rare_rows (block_id, rows) SELECT block_id, ? FROM blocks WHERE block_id = ?').run(frame, blockId);
    });
    this.#rare.delete(blockId);
  }

  #blob(blockId: number, column: 'meta' | 'text' | 'words'): Uint8Array {
    const row = this.#conn.prepare(`SELECT ${column} AS b FROM blocks WHERE block_id = ?`).get(blockId);
    const blob = row?.['b'];
    if (!(blob instanceof Uint8Array)) throw new Error(`block log store: block ${blockId} has no ${column}`);
    return blob;
  }

  /** Stores the records (one server, one stream) as a new block, inside the caller's transaction. */
  write(serverKey: number, stream: string, records: readonly LogRecord[]): void {
    this.insert(serverKey, stream, sealBlock(records, this.#level, this.textDictionaries.choose(serverKey, stream, records, this.#level)));
  }

  /** The block of the records (of the server's stream), encoded across turns of the event loop (block-seal.ts), for `insert`. */
  encode(serverKey: number, stream: string, records: readonly LogRecord[]): Promise<SealedBlock> {
    return sealBlockAsync(records, this.#level, this.textDictionaries.choose(serverKey, stream, records, this.#level));
  }

  /** zstd level of the store's frames (a seal computed elsewhere uses it too). */
  get zstdLevel(): number {
    return this.#level;
  }

  /** Inserts a sealed block and its rare rows, inside the caller's transaction; answers its id. */
  insert(serverKey: number, stream: string, block: SealedBlock): number {
    const inserted = this.#conn
      .prepare('INSERT INTO blocks (server_key, stream, min_at, max_at, n, photos, min_expires, max_expires, dims, words, meta, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(serverKey, stream, block.minAt, block.maxAt, block.n, block.photos, block.minExpires, block.maxExpires, block.dims, block.words, block.meta, block.text);
    const blockId = Number(inserted.lastInsertRowid);
    this.#conn.prepare('INSERT INTO rare_rows (block_id, rows) VALUES (?, ?)').run(blockId, block.rare);
    if (block.dictionary !== null) this.textDictionaries.insert(serverKey, stream, block.dictionary);
    this.#servers.delete(serverKey);
    return blockId;
  }

  /**
   * Removes a block, inside the caller's transaction; `replacedBy` is the block rewritten from it without some
   * of its rows, if any. Its part follows in the same transaction (block-parts.ts: never a false "absent"). The
   * server's directory, if loaded, is kept without the block rather than read again: a sweep removes hundreds of
   * blocks while every insert looks up the directory (a redelivery check), and reading it again after each
   * removal cost as much as the removal. A caller whose transaction fails calls `forget` or `forgetDirectories`.
   */
  remove(entry: BlockEntry, replacedBy: number | null = null): void {
    this.#conn.prepare('DELETE FROM blocks WHERE block_id = ?').run(entry.blockId);
    this.#conn.prepare('DELETE FROM rare_rows WHERE block_id = ?').run(entry.blockId);
    this.parts.replaced(entry.serverKey, entry.blockId, replacedBy);
    const entries = this.#servers.get(entry.serverKey);
    // A copy: a read may be walking the list it was given.
    if (entries !== undefined) this.#servers.set(entry.serverKey, entries.filter((e) => e.blockId !== entry.blockId));
    this.parts.forget();
    this.#forgetDecoded(entry.blockId);
  }

  /** Drops what is cached of the block and its server's directory (a rolled-back transaction calls it too). */
  forget(entry: BlockEntry): void {
    this.#servers.delete(entry.serverKey);
    this.parts.forget();
    this.#forgetDecoded(entry.blockId);
  }

  #forgetDecoded(blockId: number): void {
    this.#columns.delete(blockId);
    this.#texts.delete(blockId);
    this.#folded.delete(blockId);
    this.#meta.delete(blockId);
    this.#dictionaries.delete(blockId);
    this.#rare.delete(blockId);
  }

  /** Forgets every server's directory (after a rolled-back transaction). */
  forgetDirectories(): void {
    this.#servers.clear();
    this.parts.forget();
  }
}
