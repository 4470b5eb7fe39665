/**
 * Every delete path of the block log store. The tail's rows are deleted by SQL; a block is dropped whole when
 * every row of it goes, rewritten without the deleted rows when some do, left alone when none does. Each
 * block is its own transaction (with its rollup decrements), and the event loop gets a turn between blocks,
 * so a retention sweep of a day of a busy server never holds the store for long. A block the caller knows
 * goes whole from its directory entry (an expiry or time range past the cut) and that holds no photo is dropped
 * without decoding its rows: its rollup decrements come from its entry's counts. Each block's transaction waits
 * off the event loop for a reset of the WAL under way or another connection's write lock (`write`), as the
 * store's other writes do: a sweep fills the WAL as fast as ingest.
 */
import type { DeleteResult, LogRecord } from '@skald/ports';
import type { BlockConnection } from './block-store-connection.ts';
import { blockRecord } from './block-codec.ts';
import type { BlockColumns } from './block-codec.ts';
import type { BlockDirectory, BlockEntry } from './block-directory.ts';
import { applyRollupDelta } from './block-rollups.ts';
import { RollupDelta } from './sqlite-log-rollup-delta.ts';
import { DAY_MS } from './log-store-shared.ts';
import { num, str } from './sqlite-log-rows.ts';

/** Rows of a rewritten block made into records per turn of the event loop. */
const REWRITE_SLICE_ROWS = 512;

/** Which rows of a read block go. */
export type RowSelector = (columns: BlockColumns, i: number) => boolean;
/** Whether every row of a block goes, known from its directory entry alone (false: its rows are read). */
export type WholeBlock = (entry: BlockEntry) => boolean;

export class BlockDeletes {
  readonly #conn: BlockConnection;
  readonly #directory: BlockDirectory;

  constructor(conn: BlockConnection, directory: BlockDirectory) {
    this.#conn = conn;
    this.#directory = directory;
  }

  /**
   * Deletes the rows matching the WHERE clause (and, when given, having one of `keys`) from the tail and from
   * the row store's table while a migration empties it, one transaction.
   */
  tail(where: { sql: string; params: readonly (string | number)[] }, keys?: ReadonlySet<string>): DeleteResult {
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (const table of this.#conn.rowTables) {
      const result = this.#table(table, where, keys);
      deletedCount += result.deletedCount;
      objectKeys.push(...result.objectKeys);
    }
    return { deletedCount, objectKeys };
  }

  #table(table: 'tail' | 'logs', { sql, params }: { sql: string; params: readonly (string | number)[] }, keys?: ReadonlySet<string>): DeleteResult {
    return this.#conn.transaction(() => {
      const rows = this.#conn.prepare(`SELECT server_key, created_at, id, level, type, resource, log_type, image_key, thumb_key, expires_at FROM ${table} WHERE ${sql}`).all(...params);
      const delta = new RollupDelta();
      const objectKeys: string[] = [];
      const remove = this.#conn.prepare(`DELETE FROM ${table} WHERE server_key = ? AND created_at = ? AND id = ?`);
      let deletedCount = 0;
      for (const row of rows) {
        const createdAt = num(row['created_at']);
        const id = str(row['id']);
        if (keys !== undefined && !keys.has(`${createdAt}\u0000${id}`)) continue;
        const serverKey = num(row['server_key']);
        remove.run(serverKey, createdAt, id);
        deletedCount++;
        const photo = str(row['log_type']) === 'photo';
        delta.add(serverKey, createdAt, num(row['expires_at']), str(row['level']), str(row['type']), str(row['resource']), photo, -1);
        if (photo) for (const key of [row['image_key'], row['thumb_key']]) if (typeof key === 'string') objectKeys.push(key);
      }
      applyRollupDelta(this.#conn, delta);
      return { deletedCount, objectKeys };
    });
  }

  /**
   * Removes the selected rows of each block (dropping or rewriting it); answers what went. `whole`, when given,
   * must only say yes of a block all of whose rows `select` selects.
   */
  async blocks(entries: readonly BlockEntry[], select: RowSelector, whole: WholeBlock = () => false): Promise<DeleteResult> {
    let deletedCount = 0;
    const objectKeys: string[] = [];
    for (const entry of entries) {
      try {
        const result = entry.photos === 0 && whole(entry) ? await this.#drop(entry) : await this.#block(entry, select);
        deletedCount += result.deletedCount;
        objectKeys.push(...result.objectKeys);
      } catch (err) {
        this.#directory.forget(entry);
        throw err;
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { deletedCount, objectKeys };
  }

  /** A block of text rows only, every one of them going: dropped, its rollups taken back from its directory entry. */
  async #drop(entry: BlockEntry): Promise<DeleteResult> {
    const delta = new RollupDelta();
    if (Math.floor(entry.minAt / DAY_MS) === Math.floor(entry.maxAt / DAY_MS)) delta.takeBackDay(entry.serverKey, entry.minAt, entry.n);
    else {
      // Across a midnight: the day of each row, from the keys' frame (the smallest of the block's frames).
      const { createdAt } = this.#directory.meta(entry);
      for (let i = 0; i < entry.n; i++) delta.takeBackDay(entry.serverKey, createdAt[i]!, 1);
    }
    delta.takeBackDims(entry.serverKey, this.#directory.dims(entry));
    return this.#conn.write(() => {
      this.#directory.remove(entry, null);
      applyRollupDelta(this.#conn, delta);
      return { deletedCount: entry.n, objectKeys: [] };
    });
  }

  /**
   * One block's selected rows removed in one transaction: the block dropped, or replaced by one of its other
   * rows, encoded beforehand across turns of the event loop (the store runs no seal or other delete meanwhile,
   * and inserts never change a block).
   */
  async #block(entry: BlockEntry, select: RowSelector): Promise<DeleteResult> {
    const columns = this.#directory.columns(entry);
    const gone: number[] = [];
    for (let i = 0; i < columns.n; i++) if (select(columns, i)) gone.push(i);
    if (gone.length === 0) return { deletedCount: 0, objectKeys: [] };
    const delta = new RollupDelta();
    const objectKeys: string[] = [];
    for (const i of gone) {
      const photo = columns.logType[i] === 'photo';
      delta.add(entry.serverKey, columns.createdAt[i]!, columns.expiresAt[i]!, columns.level[i]!, columns.type[i]!, columns.resource[i]!, photo, -1);
      if (photo) for (const key of [columns.imageKey[i], columns.thumbKey[i]]) if (typeof key === 'string') objectKeys.push(key);
    }
    let rewritten: Awaited<ReturnType<BlockDirectory['encode']>> | null = null;
    if (gone.length < columns.n) {
      const text = this.#directory.text(entry);
      const goneSet = new Set(gone);
      const kept: LogRecord[] = [];
      // A slice of rows per turn: the records of a whole block (their metadata parsed) held the loop ~15 ms.
      for (let start = 0; start < columns.n; start += REWRITE_SLICE_ROWS) {
        if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const end = Math.min(columns.n, start + REWRITE_SLICE_ROWS);
        for (let i = start; i < end; i++) if (!goneSet.has(i)) kept.push(blockRecord('', columns, text, i));
      }
      rewritten = await this.#directory.encode(entry.serverKey, entry.stream, kept);
    }
    return this.#conn.write(() => {
      const replacedBy = rewritten === null ? null : this.#directory.insert(entry.serverKey, entry.stream, rewritten);
      this.#directory.remove(entry, replacedBy);
      applyRollupDelta(this.#conn, delta);
      return { deletedCount: gone.length, objectKeys };
    });
  }
}
