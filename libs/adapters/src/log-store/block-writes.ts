/**
 * insertBatch of the block log store and the sealer that moves the tail into blocks.
 *
 * A batch is one transaction: each record not stored yet goes into the tail, and the rollups are counted for
 * those only. "Stored yet" without an index on the id: the tail's key (server, created_at, id) catches a
 * redelivery still in the tail (ON CONFLICT DO NOTHING), and a redelivery already sealed is looked for in the
 * server's blocks whose time range holds its created_at (a redelivered log repeats its created_at, and
 * redeliveries are recent, so that is the newest block or two of a stream, their keys cached).
 *
 * The sealer turns a stream's oldest tail rows into one block, inserting the block and deleting those rows in
 * one transaction: after a crash each log is in the tail or in a block, never both or neither. A stream is
 * sealed once it holds `blockRows` rows (a full block), and, full or not, once its oldest unsealed row has
 * waited `sealAfterMs`, once no row came for `sealIdleMs`, and at a graceful close (BlockLogStore): an
 * uncompressed tail row costs ~10 times its sealed size, and a quiet or small server would otherwise keep up to
 * `blockRows - 1` of them per stream. The blocks sealed short of full are merged into the stream's next seal,
 * as a log-structured merge does (`#absorbed`), so they do not pile up as many small blocks.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { LogRecord } from '@skald/ports';
import type { BlockConnection } from './block-store-connection.ts';
import type { BlockDirectory, BlockEntry } from './block-directory.ts';
import { rowKey } from './block-directory.ts';
import { applyRollupDelta } from './block-rollups.ts';
import { TAIL_COLUMNS } from './block-walk.ts';
import { foldAscii } from './block-token-dictionary.ts';
import { tailRowOf } from './block-tail-cache.ts';
import type { TailCache, TailRow } from './block-tail-cache.ts';
import { RollupDelta } from './sqlite-log-rollup-delta.ts';
import { num, str, toRecord } from './sqlite-log-rows.ts';

interface StreamTail {
  rows: number;
  /** When its oldest unsealed row arrived (Date.now()), or the store opened. */
  since: number;
  /** When its newest row arrived, or the store opened. */
  last: number;
}

/** When a stream's tail is sealed short of a full block. */
export interface SealPolicy {
  readonly blockRows: number;
  /** Its oldest unsealed row has waited this long. */
  readonly sealAfterMs: number;
  /** No row came for this long. */
  readonly sealIdleMs: number;
}

export class BlockWriter {
  readonly #conn: BlockConnection;
  readonly #directory: BlockDirectory;
  readonly #blockRows: number;
  readonly #policy: SealPolicy;
  readonly #tailCache: TailCache;
  /** Unsealed rows per server key and stream. */
  readonly #tails = new Map<number, Map<string, StreamTail>>();

  constructor(conn: BlockConnection, directory: BlockDirectory, tailCache: TailCache, policy: SealPolicy) {
    this.#conn = conn;
    this.#directory = directory;
    this.#tailCache = tailCache;
    this.#blockRows = policy.blockRows;
    this.#policy = policy;
    const now = Date.now();
    for (const row of conn.prepare('SELECT server_key, stream, count(*) AS n FROM tail GROUP BY server_key, stream').all()) {
      this.#stream(num(row['server_key']), str(row['stream']), now).rows = num(row['n']);
    }
  }

  #stream(serverKey: number, stream: string, now: number): StreamTail {
    let streams = this.#tails.get(serverKey);
    if (streams === undefined) this.#tails.set(serverKey, (streams = new Map()));
    let tail = streams.get(stream);
    if (tail === undefined) streams.set(stream, (tail = { rows: 0, since: now, last: now }));
    return tail;
  }

  /** Whether a block of the server (or the row store's table, while a migration empties it) holds the row: a redelivery of a sealed log. */
  #sealed(serverKey: number, r: LogRecord): boolean {
    if (this.#conn.migrating && this.#conn.prepare('SELECT 1 AS yes FROM logs WHERE server_key = ? AND created_at = ? AND id = ?').get(serverKey, r.createdAt, r.id) !== undefined) return true;
    for (const entry of this.#directory.entries(serverKey)) {
      if (entry.maxAt < r.createdAt) break;
      if (entry.minAt <= r.createdAt && this.#directory.keys(entry).has(rowKey(r.createdAt, r.id))) return true;
    }
    return false;
  }

  insert(records: readonly LogRecord[]): { inserted: number } {
    const added: [number, string, TailRow][] = [];
    let inserted: number;
    try {
      inserted = this.#conn.transaction(() => {
        const delta = new RollupDelta();
        const stmt = this.#conn.prepare(
          'INSERT INTO tail (server_key, created_at, id, stream, level, type, resource, message, metadata, log_type, image_key, thumb_key, expires_at, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
        );
        const args: SQLInputValue[] = new Array<SQLInputValue>(14);
        let n = 0;
        for (const r of records) {
          const serverKey = this.#conn.serverKey(r.serverId, true)!;
          if (this.#sealed(serverKey, r)) continue;
          const stream = foldAscii(r.level);
          args[0] = serverKey;
          args[1] = r.createdAt;
          args[2] = r.id;
          args[3] = stream;
          args[4] = r.level;
          args[5] = r.type;
          args[6] = r.resource;
          args[7] = r.message;
          args[8] = r.metadata === null ? null : JSON.stringify(r.metadata);
          args[9] = r.logType;
          args[10] = r.imageKey;
          args[11] = r.thumbKey;
          args[12] = r.expiresAt;
          args[13] = r.receivedAt === undefined || r.receivedAt === r.createdAt ? null : r.receivedAt;
          if (Number(stmt.run(...args).changes) === 0) continue;
          n++;
          added.push([serverKey, stream, tailRowOf(r)]);
          delta.add(serverKey, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo');
        }
        applyRollupDelta(this.#conn, delta);
        return n;
      });
    } catch (err) {
      this.#directory.forgetDirectories();
      throw err;
    }
    const now = Date.now();
    for (const [serverKey, stream, row] of added) {
      const tail = this.#stream(serverKey, stream, now);
      if (tail.rows === 0) tail.since = now;
      tail.rows++;
      tail.last = now;
      this.#tailCache.added(serverKey, [row]);
    }
    return { inserted };
  }

  /**
   * The streams to seal at `now`: those holding a block's worth of rows, and, full or not, those whose oldest
   * unsealed row waited `sealAfterMs` or whose newest came `sealIdleMs` ago; `all` takes every stream with a
   * row (a graceful close, tests, a migration's end). Largest tails first: a close with little time seals
   * those that weigh most.
   */
  due(now: number, all = false): [number, string][] {
    const out: [number, string, number][] = [];
    for (const [serverKey, streams] of this.#tails) {
      for (const [stream, tail] of streams) {
        if (tail.rows === 0) continue;
        const full = tail.rows >= this.#blockRows;
        if (all || full || tail.since <= now - this.#policy.sealAfterMs || tail.last <= now - this.#policy.sealIdleMs) out.push([serverKey, stream, tail.rows]);
      }
    }
    return out.sort((a, b) => b[2] - a[2]).map(([serverKey, stream]) => [serverKey, stream]);
  }

  /**
   * The stream's blocks sealed short of full (and in no part yet) that its next seal takes in, given `available`
   * tail rows: newest first, as long as the block comes out full, or each one merged is at most twice the rows it
   * joins. Small seals then merge like a binary counter: a stream keeps a few small blocks of growing sizes, not
   * one per seal, and a row is encoded again a few times at most before its block is full. The output never
   * passes `blockRows`, and takes at least one tail row.
   */
  #absorbed(serverKey: number, stream: string, available: number): BlockEntry[] {
    const small = this.#directory
      .entries(serverKey)
      .filter((e) => e.stream === stream && e.n < this.#blockRows && !this.#directory.parts.holds(serverKey, e.blockId))
      .sort((a, b) => b.blockId - a.blockId);
    const out: BlockEntry[] = [];
    let rows = 0;
    for (const entry of small) {
      if (rows + entry.n >= this.#blockRows) break;
      const fromTail = Math.min(available, this.#blockRows - rows - entry.n);
      if (rows + entry.n + fromTail < this.#blockRows && entry.n > 2 * (rows + fromTail)) break;
      out.push(entry);
      rows += entry.n;
    }
    return out;
  }

  /**
   * Seals the stream's oldest tail rows, with the small blocks it takes in (`#absorbed`), into one block of at
   * most blockRows rows; answers how many tail rows it sealed. The rows are read, encoded across turns of the
   * event loop, then in one transaction the block is inserted, the small blocks removed and exactly those tail
   * rows deleted. Meanwhile only inserts can touch the tail (the store runs no delete, part build or other seal
   * beside a seal), and they add rows; a row found gone at the delete rolls the seal back all the same.
   */
  async sealOne(serverKey: number, stream: string): Promise<number> {
    const tail = this.#stream(serverKey, stream, Date.now());
    const absorbed = this.#absorbed(serverKey, stream, tail.rows);
    const fromTail = this.#blockRows - absorbed.reduce((sum, e) => sum + e.n, 0);
    const rows = this.#conn
      .prepare(`SELECT ${TAIL_COLUMNS} FROM tail WHERE server_key = ? AND stream = ? ORDER BY created_at, id LIMIT ?`)
      .all(serverKey, stream, fromTail);
    // The records' server id is not stored in a block: any placeholder serves the encoding.
    const records = rows.length === 0 ? [] : [...absorbed.flatMap((e) => this.#directory.records(e)), ...rows.map((row) => toRecord('', row))];
    const block = records.length === 0 ? null : await this.#directory.encode(records);
    this.#tailCache.drop(serverKey);
    const sealed =
      block === null
        ? 0
        : this.#conn.transaction(() => {
            const remove = this.#conn.prepare('DELETE FROM tail WHERE server_key = ? AND created_at = ? AND id = ?');
            for (const row of rows) {
              if (Number(remove.run(serverKey, num(row['created_at']), str(row['id'])).changes) !== 1) throw new Error('block log store: a tail row left while its block was encoded');
            }
            for (const entry of absorbed) this.#directory.remove(entry);
            this.#directory.insert(serverKey, stream, block.encoded, block.words);
            return rows.length;
          });
    const now = Date.now();
    tail.rows = sealed === 0 ? 0 : Math.max(0, tail.rows - sealed);
    tail.since = now;
    return sealed;
  }

  /** A delete removed tail rows: the counts are read again from the table. */
  recount(): void {
    const now = Date.now();
    for (const streams of this.#tails.values()) for (const tail of streams.values()) tail.rows = 0;
    for (const row of this.#conn.prepare('SELECT server_key, stream, count(*) AS n FROM tail GROUP BY server_key, stream').all()) {
      this.#stream(num(row['server_key']), str(row['stream']), now).rows = num(row['n']);
    }
  }
}
