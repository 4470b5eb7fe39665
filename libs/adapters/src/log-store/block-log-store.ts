/**
 * The block log store (docs/STORAGE.md): the LogStore port over a tail of fresh logs and compressed blocks of
 * sealed ones, in one SQLite file, as one object over modules that each own one concern:
 * - block-store-connection.ts, block-store-schema.ts: the connection, its transactions and the tables;
 * - block-writes.ts: insertBatch into the tail, and the sealer turning a stream's tail into a block, computed
 *   on a thread of its own (block-seal.ts, block-seal-thread.ts, block-seal-worker.ts);
 * - block-directory.ts: the blocks' directory and the decoded blocks recently read, and writing a block;
 * - block-parts.ts: part dictionaries over runs of a stream's blocks, built after seals, followed by deletes;
 * - block-rare.ts: each block's rows of rare type and resource values, written with the block;
 * - block-match.ts, block-walk.ts, block-reads.ts: what a query matches, the merge of tail and blocks in
 *   (created_at, id) order, and the read paths;
 * - block-deletes.ts: every delete path (blocks dropped or rewritten);
 * - block-migration.ts: a row-store file's logs moved into blocks, in the background, after it opens;
 * - sqlite-log-rollup-reads.ts (shared with the row store): stats, facets, counts and rollup totals.
 * The sealer and the delete paths take turns (one runs at a time), so a delete never misses rows a seal moves.
 */
import { availableParallelism } from 'node:os';
import type { DeleteResult, LogHistogram, LogKey, LogMatchSpan, LogPage, LogQuery, LogRecord, LogScanQuery, LogStore, LogType, NeighbourDirection } from '@skald/ports';
import { BlockConnection } from './block-store-connection.ts';
import { BlockDeletes } from './block-deletes.ts';
import { BlockDirectory, rowKey } from './block-directory.ts';
import type { BlockDecodes } from './block-directory.ts';
import { migrateChunk } from './block-migration.ts';
import { newestFirst } from './block-match.ts';
import { BlockReadPaths } from './block-reads.ts';
import { BlockReads } from './block-walk.ts';
import { BlockWriter } from './block-writes.ts';
import { BlockSealThread } from './block-seal-thread.ts';
import { TailCache } from './block-tail-cache.ts';
import { assertLogType } from './log-store-shared.ts';
import { RollupAnsweredLogStore, serverCount } from './sqlite-log-rollup-reads.ts';
import { sharedWalCheckpointer } from '../sqlite/wal-checkpointer.ts';
import type { WalCheckpointer } from '../sqlite/wal-checkpointer.ts';

/** Counted totals stop past this many (then the cap with totalCapped: "10,000+"). */
export const BLOCK_COUNT_CAP = 10_000;
/** Rows of a full block (docs/STORAGE.md: the layout's figures were measured with 4,096). */
export const BLOCK_ROWS = 4096;
/** A stream's tail is sealed once its oldest row has waited this long, full or not. */
export const SEAL_AFTER_MS = 3_600_000;
/** A stream's tail is sealed once no row came for this long, full or not (a server gone quiet). */
export const SEAL_IDLE_MS = 300_000;
/**
 * Rows of all tails together past which the largest tails are sealed, full or not, and insertBatch waits for
 * seals: 16 full blocks, ~35 MB of FiveM lines. A burst is acknowledged at the tail's pace until then, as the row
 * store's is while its search index follows.
 */
export const MAX_TAIL_ROWS = 65_536;
/** Seal workers: two, or one on a single core (the store's thread needs ~a fifth of a core at full ingest). */
export const SEAL_THREADS = Math.min(2, availableParallelism());
/**
 * How long a graceful close spends sealing the tails, largest first (a busy server's ~4,000-row tails take
 * ~0.1 s each); what is left stays in the tail, as durable, for the next start. The process's whole shutdown
 * has 10 s by default (SHUTDOWN_TIMEOUT_MS).
 */
export const CLOSE_SEAL_MS = 3_000;

export interface BlockLogStoreOptions {
  readonly countCap?: number;
  readonly blockRows?: number;
  readonly sealAfterMs?: number;
  readonly sealIdleMs?: number;
  /** The time a graceful close spends sealing tails (0: none). */
  readonly closeSealMs?: number;
  readonly maxTailRows?: number;
  /** Seal workers computing blocks at once (default SEAL_THREADS, for a file on disk); 0: on the store's thread. */
  readonly sealThreads?: number;
  /** How often the age of the tails is looked at. Default a minute. */
  readonly sealCheckMs?: number;
  readonly walCheckpointer?: WalCheckpointer | null;
  /** Tests: insertBatch returns once the full blocks it made are sealed (default: the sealer runs after it). */
  readonly sealEagerly?: boolean;
  /** Blocks of a tier-0 part and parts merged into one of the next tier (default 8; tests use fewer). */
  readonly partFanout?: number;
  /** Rows of a group of a block's text (default TEXT_GROUP_ROWS; tests use fewer, with small blocks). */
  readonly textGroupRows?: number;
}

export class BlockLogStore extends RollupAnsweredLogStore implements LogStore {
  readonly #conn: BlockConnection;
  readonly #directory: BlockDirectory;
  readonly #writer: BlockWriter;
  readonly #reads: BlockReadPaths;
  readonly #deletes: BlockDeletes;
  readonly #tailCache: TailCache;
  readonly #closeSealMs: number;
  readonly #timer: NodeJS.Timeout;
  /** The sealer's and the delete paths' turns: each waits for the one before. */
  #turn: Promise<unknown> = Promise.resolve();
  #sealScheduled = false;
  /** insertBatch calls waiting for a seal (the tails past their bound): woken after each, true if it sealed. */
  readonly #sealWaiters: ((sealed: boolean) => void)[] = [];
  /** Wakes the sealing loop: a seal ended, or read its rows (the stream's next may start). */
  #sealLoopWake: (() => void) | null = null;
  #closed = false;
  readonly #sealEagerly: boolean;
  readonly #blockRows: number;
  /** Settles once a migration of a row-store file has moved every log (at once when there was none). */
  readonly #migrated: Promise<void>;
  /** Settles once the blocks found at open (and those a migration made) have the parts they are due. */
  readonly #partsBuilt: Promise<void>;
  /** Settles once every block found at open has its rare rows (a file of a layout before them). */
  readonly #rareRowsBuilt: Promise<void>;

  constructor(file: string, options: BlockLogStoreOptions = {}) {
    const conn = new BlockConnection(file, options.walCheckpointer === undefined ? sharedWalCheckpointer() : options.walCheckpointer);
    super(conn);
    this.#conn = conn;
    this.#directory = new BlockDirectory(this.#conn, {
      ...(options.partFanout === undefined ? {} : { partFanout: options.partFanout }),
      ...(options.textGroupRows === undefined ? {} : { textGroupRows: options.textGroupRows }),
    });
    this.#blockRows = options.blockRows ?? BLOCK_ROWS;
    const sealThreads = options.sealThreads ?? SEAL_THREADS;
    this.#tailCache = new TailCache(this.#conn);
    this.#writer = new BlockWriter(this.#conn, this.#directory, this.#tailCache, {
      blockRows: this.#blockRows,
      sealAfterMs: options.sealAfterMs ?? SEAL_AFTER_MS,
      sealIdleMs: options.sealIdleMs ?? SEAL_IDLE_MS,
      maxTailRows: options.maxTailRows ?? MAX_TAIL_ROWS,
      onRead: () => this.#wakeSealLoop(),
      thread: file === ':memory:' || sealThreads === 0 ? null : new BlockSealThread({ file, level: this.#directory.zstdLevel, textGroupRows: this.#directory.textGroupRows, size: sealThreads }),
    });
    this.#reads = new BlockReadPaths(this.#conn, this.#directory, this.#tailCache, options.countCap ?? BLOCK_COUNT_CAP);
    this.#deletes = new BlockDeletes(this.#conn, this.#directory);
    this.#closeSealMs = options.closeSealMs ?? CLOSE_SEAL_MS;
    this.#sealEagerly = options.sealEagerly ?? false;
    this.#timer = setInterval(() => this.#scheduleSeal(), options.sealCheckMs ?? 60_000);
    this.#timer.unref();
    this.#migrated = this.#conn.migrating ? this.#migrate() : Promise.resolve();
    // A part that fails to build leaves its blocks to their own dictionaries (slower, never wrong); the next
    // seal of the stream tries again. Nothing awaits this before close(): a rejection must not go unhandled.
    this.#partsBuilt = this.#migrated.then(
      () => this.#buildParts().catch(() => undefined),
      () => undefined,
    );
    // The same for rare rows: a block without them is read whole meanwhile (slower, never wrong).
    this.#rareRowsBuilt = this.#partsBuilt.then(() => this.#buildRareRows().catch(() => undefined));
  }

  /** Builds the rare rows of the blocks stored without them, newest first, a block per turn. */
  async #buildRareRows(): Promise<void> {
    for (const blockId of this.#directory.withoutRareRows()) {
      if (this.#closed) return;
      await this.#inTurn(async () => {
        if (!this.#closed) await this.#directory.buildRareRows(blockId);
      });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Resolves once the blocks found at open have their rare rows (or the store closed first). */
  rareRowsBuilt(): Promise<void> {
    return this.#rareRowsBuilt;
  }

  /**
   * Builds the parts due in every stream, one part per turn (a file of blocks without parts: a layout before
   * them, or a crash between a seal and its part). Reads go on meanwhile, asking the block dictionaries.
   */
  async #buildParts(): Promise<void> {
    const streams = this.#conn.prepare('SELECT DISTINCT server_key, stream FROM blocks').all();
    for (const row of streams) {
      for (;;) {
        if (this.#closed) return;
        const built = await this.#inTurn(async () => (this.#closed ? 0 : this.#directory.parts.build(Number(row['server_key']), String(row['stream']), () => this.#closed, 1)));
        if (built === 0) break;
      }
    }
  }

  /** Resolves once the parts due at open are built (or the store closed first). */
  partsBuilt(): Promise<void> {
    return this.#partsBuilt;
  }

  /** Moves the row store's logs into blocks, a chunk per turn (deletes and seals go between chunks). */
  async #migrate(): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.#closed) return;
      const more = await this.#inTurn(async () => !this.#closed && (await migrateChunk(this.#conn, this.#directory, this.#blockRows)));
      if (!more) return;
    }
  }

  /** Resolves once a row-store file's logs are all in blocks (or the store closed first). */
  migrated(): Promise<void> {
    return this.#migrated;
  }

  #wakeSealLoop(): void {
    const wake = this.#sealLoopWake;
    this.#sealLoopWake = null;
    wake?.();
  }

  /**
   * Runs `work` once the sealer or delete before it has finished, and no reset of the WAL is under way (the turns
   * write: they wait for a reset off the event loop, not in SQLite's busy handler).
   */
  #inTurn<R>(work: () => Promise<R>): Promise<R> {
    const gated = async (): Promise<R> => {
      await this.#conn.walReady();
      return work();
    };
    const run = this.#turn.then(gated, gated);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  #scheduleSeal(): void {
    if (this.#sealScheduled || this.#closed) return;
    if (this.#writer.next(Date.now()) === null) return;
    this.#sealScheduled = true;
    this.#inTurn(async () => {
      this.#sealScheduled = false;
      await this.#seal(false);
    }).catch(() => {
      // A seal that failed left its rows in the tail (its transaction rolled back): the next one takes them.
    });
  }

  /**
   * Seals the due streams (all: every stream's tail, full or not), as many at once as there are seal workers:
   * the next one starts when one ends or has read its rows (block-writes.ts). A failed seal stops the starting
   * of others; the turn then fails once those under way end.
   */
  async #seal(all: boolean, stop: () => boolean = () => this.#closed): Promise<void> {
    const sealed = new Map<string, readonly [number, string]>();
    const running = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    try {
      for (;;) {
        while (!stop() && failure === null && running.size < this.#writer.concurrency) {
          const next = this.#writer.next(Date.now(), all);
          if (next === null) break;
          const job: Promise<void> = this.#writer
            .sealOne(...next)
            .then(
              () => {
                sealed.set(`${next[0]}\u0000${next[1]}`, next);
                this.#sealWaiters.splice(0).forEach((wake) => wake(true));
              },
              (error: unknown) => {
                failure ??= { error };
              },
            )
            .finally(() => {
              running.delete(job);
              this.#wakeSealLoop();
            });
          running.add(job);
        }
        if (running.size === 0) break;
        await new Promise<void>((resolve) => (this.#sealLoopWake = resolve));
      }
    } finally {
      this.#sealWaiters.splice(0).forEach((wake) => wake(failure === null));
    }
    if (failure !== null) throw (failure as { error: unknown }).error;
    if (this.#closed) return;
    // Then the parts and merges the sealed streams are due, each in a transaction of its own (parts are derived
    // data): sealing goes first, as it keeps the tail small; seals due meanwhile wait for the next turn.
    for (const [serverKey, stream] of sealed.values()) await this.#directory.parts.build(serverKey, stream, () => this.#closed);
  }

  /** Seals what is due now (full blocks, old or quiet tails, tails past their bound): a wait for the sealer to catch up. */
  async sealDue(): Promise<void> {
    await this.#inTurn(() => this.#seal(false));
  }

  /** Seals every stream's tail now, full blocks or not (tests, and a migration's end). */
  async sealAll(): Promise<void> {
    await this.#inTurn(() => this.#seal(true));
  }

  /** Rows in the tail and in blocks (tests and diagnostics). */
  layout(): { tailRows: number; blocks: number; blockRows: number; rowTableRows: number; parts: number[] } {
    const tail = this.#conn.prepare('SELECT count(*) AS n FROM tail').get();
    const blocks = this.#conn.prepare('SELECT count(*) AS b, coalesce(sum(n), 0) AS n FROM blocks').get();
    const rowTable = this.#conn.migrating ? this.#conn.prepare('SELECT count(*) AS n FROM logs').get() : undefined;
    return { tailRows: Number(tail?.['n'] ?? 0), blocks: Number(blocks?.['b'] ?? 0), blockRows: Number(blocks?.['n'] ?? 0), rowTableRows: Number(rowTable?.['n'] ?? 0), parts: this.#directory.parts.counts() };
  }

  /** How many times each part of a block was decoded since open (tests and benches: what a query read). */
  decodes(): BlockDecodes {
    return this.#directory.decodes();
  }

  async insertBatch(records: readonly LogRecord[]): Promise<{ inserted: number }> {
    if (records.length === 0) return { inserted: 0 };
    // A reset of the WAL under way (past its bound): this batch commits after it, not beside it (BlockConnection.write).
    const { inserted, sealDue } = await this.#writer.insert(records);
    if (this.#sealEagerly) await this.#inTurn(() => this.#seal(false));
    else {
      if (sealDue) this.#scheduleSeal();
      // Past the bound on the tails (the sealer behind a burst), a batch is acknowledged once seals brought them
      // back under it: the uncompressed tail stays bounded, and ingest runs at the sealer's pace meanwhile.
      while (this.#writer.backlogged && !this.#closed) {
        this.#scheduleSeal();
        const sealed = await new Promise<boolean>((resolve) => this.#sealWaiters.push(resolve));
        if (!sealed) break;
      }
    }
    return { inserted };
  }

  async query(query: LogQuery): Promise<LogPage> {
    return this.#reads.query(query);
  }

  scan(query: LogScanQuery, pageSize: number): AsyncIterable<LogRecord[]> {
    return this.#reads.scan(query, pageSize);
  }

  async histogram(query: LogScanQuery, bucketEdges: (span: LogMatchSpan) => readonly number[]): Promise<LogHistogram> {
    return this.#reads.histogram(query, bucketEdges);
  }

  async getByKeys(serverId: string, keys: readonly LogKey[]): Promise<LogRecord[]> {
    return this.#reads.getByKeys(serverId, keys);
  }

  async getById(serverId: string, id: string): Promise<LogRecord | null> {
    return this.#reads.getById(serverId, id);
  }

  async neighbours(serverId: string, key: LogKey, direction: NeighbourDirection, limit: number): Promise<LogRecord[]> {
    return this.#reads.neighbours(serverId, key, direction, limit);
  }

  #afterTailDelete(result: DeleteResult): DeleteResult {
    if (result.deletedCount > 0) {
      this.#writer.recount();
      this.#tailCache.drop();
    }
    return result;
  }

  async deleteBefore(serverId: string, before: number): Promise<DeleteResult> {
    if (!Number.isFinite(before)) throw new RangeError('before must be finite epoch milliseconds');
    return this.#inTurn(async () => {
      const serverKey = this.#conn.serverKey(serverId, false);
      if (serverKey === undefined) return { deletedCount: 0, objectKeys: [] };
      const tail = this.#afterTailDelete(this.#deletes.tail({ sql: 'server_key = ? AND created_at < ?', params: [serverKey, before] }));
      const entries = this.#directory.entries(serverKey).filter((e) => e.minAt < before);
      return merge(
        tail,
        await this.#deletes.blocks(
          entries,
          (c, i) => c.createdAt[i]! < before,
          (e) => e.maxAt < before,
        ),
      );
    });
  }

  async deleteExpired(now: number): Promise<DeleteResult> {
    if (!Number.isFinite(now)) throw new RangeError('now must be finite epoch milliseconds');
    return this.#inTurn(async () => {
      const tail = this.#afterTailDelete(this.#deletes.tail({ sql: 'expires_at <= ?', params: [now] }));
      return merge(
        tail,
        await this.#deletes.blocks(
          this.#directory.expiring(now),
          (c, i) => c.expiresAt[i]! <= now,
          (e) => e.maxExpires <= now,
        ),
      );
    });
  }

  async deleteOldest(serverId: string, logType: LogType, keep: number): Promise<DeleteResult> {
    assertLogType(logType);
    if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError('keep must be a non-negative integer');
    return this.#inTurn(async () => {
      const serverKey = this.#conn.serverKey(serverId, false);
      if (serverKey === undefined || serverCount(this.#conn, serverKey, logType) <= keep) return { deletedCount: 0, objectKeys: [] };
      // The newest row to go: the (keep + 1)-th newest of the log type; it and every older one of the type go.
      let cut: { createdAt: number; id: string } | undefined;
      for (const m of new BlockReads(this.#conn, this.#directory, this.#tailCache, serverId, serverKey, { logType }).walk('newest', keep + 1)) cut = m;
      if (cut === undefined) return { deletedCount: 0, objectKeys: [] };
      const last = cut;
      const tail = this.#afterTailDelete(
        this.#deletes.tail({ sql: 'server_key = ? AND log_type = ? AND (created_at < ? OR (created_at = ? AND id <= ?))', params: [serverKey, logType, last.createdAt, last.createdAt, last.id] }),
      );
      const entries = this.#directory.entries(serverKey).filter((e) => e.minAt <= last.createdAt);
      return merge(tail, await this.#deletes.blocks(entries, (c, i) => c.logType[i] === logType && newestFirst(c.createdAt[i]!, c.id[i]!, last.createdAt, last.id) >= 0));
    });
  }

  async deleteByKeys(serverId: string, keys: readonly LogKey[]): Promise<DeleteResult> {
    return this.#inTurn(async () => {
      const serverKey = this.#conn.serverKey(serverId, false);
      if (serverKey === undefined || keys.length === 0) return { deletedCount: 0, objectKeys: [] };
      const wanted = new Set(keys.map((k) => rowKey(k.createdAt, k.id)));
      const times = keys.map((k) => k.createdAt);
      const lo = Math.min(...times);
      const hi = Math.max(...times);
      const tail = this.#afterTailDelete(this.#deletes.tail({ sql: 'server_key = ? AND created_at >= ? AND created_at <= ?', params: [serverKey, lo, hi] }, wanted));
      const entries = this.#directory.entries(serverKey).filter((e) => times.some((t) => t >= e.minAt && t <= e.maxAt));
      return merge(tail, await this.#deletes.blocks(entries, (c, i) => wanted.has(rowKey(c.createdAt[i]!, c.id[i]!))));
    });
  }

  /**
   * Waits for the sealer or delete under way, then seals the tails, largest first, for up to closeSealMs (what
   * is left stays in the tail: it is as durable as the blocks, and sealed after the next start). The parts those
   * blocks are due are built on the next open. The connection's close gives the freed pages back to the file
   * system (block-store-connection.ts).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#turn;
    await this.#migrated;
    await this.#partsBuilt;
    await this.#rareRowsBuilt;
    try {
      await this.#sealAtClose();
    } finally {
      await this.#writer.close();
      await this.#conn.close();
    }
  }

  async #sealAtClose(): Promise<void> {
    const deadline = performance.now() + this.#closeSealMs;
    try {
      await this.#seal(true, () => performance.now() >= deadline);
    } catch {
      // A seal's transaction rolled back: its rows stay in the tail, sealed after the next start. The close goes on.
    }
  }

}

function merge(a: DeleteResult, b: DeleteResult): DeleteResult {
  return { deletedCount: a.deletedCount + b.deletedCount, objectKeys: [...a.objectKeys, ...b.objectKeys] };
}
