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
import { applyRollupDelta } from './block-rollups.ts';
import { lastKey, readSealInput } from './block-seal.ts';
import type { SealInput, SealJob, TailKey } from './block-seal.ts';
import type { BlockSealThread } from './block-seal-thread.ts';
import { foldAscii } from './block-token-dictionary.ts';
import type { TailCache } from './block-tail-cache.ts';
import { RollupDelta } from './sqlite-log-rollup-delta.ts';
import { num, str } from './sqlite-log-rows.ts';

interface StreamTail {
  rows: number;
  /** When its oldest unsealed row arrived (Date.now()), or the store opened. */
  since: number;
  /** When its newest row arrived, or the store opened. */
  last: number;
  /** Seals of the stream under way, and whether one of them has not read its rows yet. */
  jobs: number;
  reading: boolean;
  /** Rows the seals under way read, and the last one's key: a next seal of the stream takes rows after it. */
  reserved: number;
  after: TailKey | null;
  /** A seal under way found no row after `after`: the rest are late rows, for the stream's next first seal. */
  drained: boolean;
}

/** When a stream's tail is sealed short of a full block, and where the block is computed. */
export interface SealPolicy {
  readonly blockRows: number;
  /** The seal thread (block-seal-thread.ts); null: on the store's thread (a file in memory, tests). */
  readonly thread: BlockSealThread | null;
  /** Its oldest unsealed row has waited this long. */
  readonly sealAfterMs: number;
  /** No row came for this long. */
  readonly sealIdleMs: number;
  /** Rows of every tail together past which the largest tails are sealed, full or not. */
  readonly maxTailRows: number;
  /** Told when a seal under way has read its rows (the store may start the stream's next one). */
  readonly onRead?: () => void;
}

export class BlockWriter {
  readonly #conn: BlockConnection;
  readonly #directory: BlockDirectory;
  readonly #blockRows: number;
  readonly #policy: SealPolicy;
  readonly #thread: BlockSealThread | null;
  readonly #tailCache: TailCache;
  /** Unsealed rows per server key and stream. */
  readonly #tails = new Map<number, Map<string, StreamTail>>();
  /** Unsealed rows of every stream together, and those of them seals under way read. */
  #total = 0;
  #reserved = 0;

  constructor(conn: BlockConnection, directory: BlockDirectory, tailCache: TailCache, policy: SealPolicy) {
    this.#conn = conn;
    this.#directory = directory;
    this.#tailCache = tailCache;
    this.#blockRows = policy.blockRows;
    this.#policy = policy;
    this.#thread = policy.thread;
    const now = Date.now();
    this.recount(now);
  }

  #stream(serverKey: number, stream: string, now: number): StreamTail {
    let streams = this.#tails.get(serverKey);
    if (streams === undefined) this.#tails.set(serverKey, (streams = new Map()));
    let tail = streams.get(stream);
    if (tail === undefined) streams.set(stream, (tail = { rows: 0, since: now, last: now, jobs: 0, reading: false, reserved: 0, after: null, drained: false }));
    return tail;
  }

  /** Whether a block of the server (or the row store's table, while a migration empties it) holds the row: a redelivery of a sealed log. */
  #sealed(serverKey: number, r: LogRecord): boolean {
    if (this.#conn.migrating && this.#conn.prepare('SELECT 1 AS yes FROM logs WHERE server_key = ? AND created_at = ? AND id = ?').get(serverKey, r.createdAt, r.id) !== undefined) return true;
    for (const entry of this.#directory.entries(serverKey)) {
      if (entry.maxAt < r.createdAt) break;
      if (entry.minAt <= r.createdAt && this.#directory.rowOf(entry, r.createdAt, r.id) >= 0) return true;
    }
    return false;
  }

  /**
   * Answers how many records were new, and whether a seal is due for a block's worth of rows (or the bound on all
   * tails). The transaction begins once the write lock is free, waiting off the event loop (BlockConnection.write).
   */
  async insert(records: readonly LogRecord[]): Promise<{ inserted: number; sealDue: boolean }> {
    const added: [number, string, LogRecord][] = [];
    let inserted: number;
    try {
      inserted = await this.#conn.write(() => {
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
          added.push([serverKey, stream, r]);
          // In the transaction's turn: a read between the commit and a later turn would load the tail with these
          // rows already in it, and adding them after that would show each twice.
          this.#tailCache.added(serverKey, [r]);
          delta.add(serverKey, r.createdAt, r.expiresAt, r.level, r.type, r.resource, r.logType === 'photo');
        }
        applyRollupDelta(this.#conn, delta);
        return n;
      });
    } catch (err) {
      this.#directory.forgetDirectories();
      // Rolled back: the rows added to the cached tails above are not stored.
      this.#tailCache.drop();
      throw err;
    }
    const now = Date.now();
    let sealDue = false;
    for (const [serverKey, stream] of added) {
      const tail = this.#stream(serverKey, stream, now);
      if (tail.rows === 0) tail.since = now;
      tail.rows++;
      tail.last = now;
      if (tail.rows >= this.#blockRows) sealDue = true;
    }
    this.#total += added.length;
    return { inserted, sealDue: sealDue || this.backlogged };
  }

  /** The tails together hold more rows than the bound: the sealer is behind, or many tails are small. */
  get backlogged(): boolean {
    return this.#total > this.#policy.maxTailRows;
  }

  /** Seals that can be under way at once: one per seal worker, one on the store's thread. */
  get concurrency(): number {
    return this.#thread === null || this.#thread.failed ? 1 : this.#thread.size;
  }

  /**
   * The stream to seal next at `now`, the largest of those due: holding a block's worth of rows, or, full or not,
   * whose oldest unsealed row waited `sealAfterMs`, whose newest came `sealIdleMs` ago, or any while the tails
   * together are past `maxTailRows` (a file of many servers' small tails weighs as much as one busy server's
   * big one); `all` takes any stream with a row (a graceful close, tests, a migration's end). Null when none is.
   * The rows seals under way read do not count, and a stream whose seal has not read its rows yet waits for it.
   */
  next(now: number, all = false): [number, string] | null {
    const any = all || this.#total - this.#reserved > this.#policy.maxTailRows;
    let best: [number, string] | null = null;
    let bestRows = 0;
    for (const [serverKey, streams] of this.#tails) {
      for (const [stream, tail] of streams) {
        const rows = tail.rows - tail.reserved;
        if (rows <= bestRows || tail.reading || tail.drained) continue;
        if (any || rows >= this.#blockRows || (tail.jobs === 0 && (tail.since <= now - this.#policy.sealAfterMs || tail.last <= now - this.#policy.sealIdleMs))) {
          best = [serverKey, stream];
          bestRows = rows;
        }
      }
    }
    return best;
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
   * most blockRows rows; answers how many tail rows it sealed. The rows are read and the block computed on a
   * seal worker (or across turns of this thread), then in one transaction the block is inserted, the small blocks
   * removed and exactly those tail rows deleted. Meanwhile only inserts and other seals can touch the tail (the
   * store runs no delete or part build beside seals): inserts add rows; a seal of the same stream under way
   * takes the rows after those of the seals before it (`after`), and only the first takes in small blocks. A row
   * found gone at the delete rolls the seal back all the same.
   */
  async sealOne(serverKey: number, stream: string): Promise<number> {
    const tail = this.#stream(serverKey, stream, Date.now());
    const absorbed = tail.jobs === 0 ? this.#absorbed(serverKey, stream, tail.rows) : [];
    const input: SealInput = {
      serverKey,
      stream,
      limit: this.#blockRows - absorbed.reduce((sum, e) => sum + e.n, 0),
      absorb: absorbed.map((e) => e.blockId),
      after: tail.jobs === 0 ? null : tail.after,
    };
    tail.jobs++;
    tail.reading = true;
    let reserved = 0;
    let read = false;
    // Told once the rows are read (again, if a failed worker's seal is redone here): the stream's next seal may go.
    const onRead = (rows: number, last: TailKey | null): void => {
      read = true;
      tail.reading = false;
      tail.reserved += rows - reserved;
      this.#reserved += rows - reserved;
      reserved = rows;
      if (last !== null) tail.after = last;
      else if (input.after !== null) tail.drained = true;
      this.#policy.onRead?.();
    };
    try {
      const job = await this.#compute(input, onRead);
      // A reset of the WAL under way, or the write lock taken: the seal commits after, waiting off the event loop
      // (inserts only add rows to the tail meanwhile).
      let sealed = 0;
      if (job === null) this.#tailCache.drop(serverKey);
      else {
        try {
          sealed = await this.#conn.write(() => {
            this.#tailCache.drop(serverKey);
            this.#deleteTailRows(input, job);
            for (const entry of absorbed) this.#directory.remove(entry);
            this.#directory.insert(serverKey, stream, job.block);
            return job.tailIds.length;
          });
        } catch (err) {
          // Rolled back: the absorbed blocks are still there, whatever the directory's cache was told.
          this.#directory.forgetDirectories();
          throw err;
        }
      }
      const left = job === null && tail.jobs === 1 ? 0 : Math.max(0, tail.rows - sealed);
      this.#total -= tail.rows - left;
      tail.rows = left;
      tail.since = Date.now();
      return sealed;
    } finally {
      tail.jobs--;
      // A seal that failed before reading its rows lets the stream's next one go (one that read did already).
      if (!read) tail.reading = false;
      tail.reserved -= reserved;
      this.#reserved -= reserved;
      if (tail.jobs === 0) {
        tail.after = null;
        tail.drained = false;
      }
    }
  }

  /** The seal on a seal worker; on this thread, across turns, when there is none or it failed for good. */
  async #compute(input: SealInput, onRead: (rows: number, last: TailKey | null) => void): Promise<SealJob | null> {
    if (this.#thread !== null && !this.#thread.failed) {
      try {
        return await this.#thread.seal(input, onRead);
      } catch (error) {
        if (!this.#thread.failed) throw error;
      }
    }
    const read = readSealInput((sql) => this.#conn.prepare(sql), input, this.#directory.textDictionaries.raw);
    onRead(read?.tailIds.length ?? 0, lastKey(read));
    if (read === null) return null;
    return { block: await this.#directory.encode(input.serverKey, input.stream, read.records), tailCreatedAt: read.tailCreatedAt, tailIds: read.tailIds };
  }

  /**
   * Deletes the seal's tail rows, inside its transaction. They were the stream's oldest, up to the last key read;
   * rows inserted since can only add to that range (late logs), so when it holds as many rows as were read it
   * holds exactly those, and one statement deletes them. Otherwise each row goes by its key, and a row gone
   * rolls the seal back.
   */
  #deleteTailRows(input: SealInput, job: SealJob): void {
    const n = job.tailIds.length;
    const range = 'FROM tail WHERE server_key = ? AND (created_at, id) >= (?, ?) AND (created_at, id) <= (?, ?) AND stream = ?';
    const params = [input.serverKey, job.tailCreatedAt[0]!, job.tailIds[0]!, job.tailCreatedAt[n - 1]!, job.tailIds[n - 1]!, input.stream] as const;
    if (num(this.#conn.prepare(`SELECT count(*) AS n ${range}`).get(...params)?.['n']) === n) {
      this.#conn.prepare(`DELETE ${range}`).run(...params);
      return;
    }
    const remove = this.#conn.prepare('DELETE FROM tail WHERE server_key = ? AND created_at = ? AND id = ?');
    for (let i = 0; i < n; i++) {
      if (Number(remove.run(input.serverKey, job.tailCreatedAt[i]!, job.tailIds[i]!).changes) !== 1) throw new Error('block log store: a tail row left while its block was encoded');
    }
  }

  /** Stops the seal thread (the store's close, after its last seal). */
  async close(): Promise<void> {
    await this.#thread?.close();
  }

  /** A delete removed tail rows (or the store opened): the counts are read again from the table. */
  recount(now = Date.now()): void {
    for (const streams of this.#tails.values()) for (const tail of streams.values()) tail.rows = 0;
    this.#total = 0;
    for (const row of this.#conn.prepare('SELECT server_key, stream, count(*) AS n FROM tail GROUP BY server_key, stream').all()) {
      this.#stream(num(row['server_key']), str(row['stream']), now).rows = num(row['n']);
      this.#total += num(row['n']);
    }
  }
}
