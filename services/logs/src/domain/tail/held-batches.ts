/**
 * Accepted batches a logs replica's tails wait for, per server in the order they were accepted (the
 * bus feed, bus-feed.ts, observes them), released to the tails once stored. Release keeps acceptance order:
 * a batch whose notice came first waits for the earlier batches of its server to be stored too, at most
 * `holdMs` after its own notice (a replica storing slower, or a batch nobody stores, e.g. dead-lettered);
 * after that it goes, and the batches it overtook no longer hold anything back (each is sent whenever its
 * own notice comes). Order matters beyond looks: a tail's `id:` line never moves back, so a log sent after
 * a higher id has none, and a client that disconnected right between the two would not get it on resume.
 */
import type { LogRecord } from '@skald/ports';

export interface HeldBatchSettings {
  /** How long a stored batch may wait for earlier batches of its server. */
  readonly holdMs: number;
  /** How long an accepted batch waits for its notice before it is forgotten. */
  readonly pendingTtlMs: number;
  /** Logs held at most (all servers, in whole batches); the oldest batches go first. */
  readonly maxHeldLogs: number;
}

interface HeldBatch {
  readonly batchId: string;
  readonly serverId: string;
  readonly records: readonly LogRecord[];
  readonly at: number;
  storedAt: number | null;
  /** Overtaken by a later batch that waited holdMs: it holds nothing back any more. */
  passed: boolean;
}

export class HeldBatches {
  readonly #settings: HeldBatchSettings;
  readonly #now: () => number;
  readonly #release: (serverId: string, records: readonly LogRecord[]) => void;
  /** Every held batch by id, in acceptance order (Map order) for eviction. */
  readonly #byId = new Map<string, HeldBatch>();
  readonly #queues = new Map<string, HeldBatch[]>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  #heldLogs = 0;

  constructor(settings: HeldBatchSettings, now: () => number, release: (serverId: string, records: readonly LogRecord[]) => void) {
    this.#settings = settings;
    this.#now = now;
    this.#release = release;
  }

  /** An accepted batch; `stored` when its notice was observed before it. */
  accepted(serverId: string, batchId: string, records: readonly LogRecord[], stored: boolean): void {
    if (this.#byId.has(batchId)) return;
    const now = this.#now();
    const batch: HeldBatch = { batchId, serverId, records, at: now, storedAt: stored ? now : null, passed: false };
    this.#byId.set(batchId, batch);
    this.#heldLogs += records.length;
    const queue = this.#queues.get(serverId);
    if (queue) queue.push(batch);
    else this.#queues.set(serverId, [batch]);
    this.#evict(now);
    this.#drain(serverId);
  }

  /** A notice for a held batch: true when it was held (and is released as soon as order allows). */
  stored(batchId: string): boolean {
    const batch = this.#byId.get(batchId);
    if (!batch) return false;
    batch.storedAt ??= this.#now();
    this.#drain(batch.serverId);
    return true;
  }

  /** Batches held now (diagnostics and tests). */
  size(): number {
    return this.#byId.size;
  }

  /** Logs held now (diagnostics and tests). */
  logs(): number {
    return this.#heldLogs;
  }

  clear(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#byId.clear();
    this.#queues.clear();
    this.#heldLogs = 0;
  }

  /** Forgets batches past their TTL or beyond the cap, oldest first. */
  #evict(now: number): void {
    for (const batch of this.#byId.values()) {
      if (batch.at >= now - this.#settings.pendingTtlMs && this.#heldLogs <= this.#settings.maxHeldLogs) break;
      this.#forget(batch);
    }
  }

  #forget(batch: HeldBatch): void {
    this.#drop(batch);
    const queue = this.#queues.get(batch.serverId);
    if (!queue) return;
    const at = queue.indexOf(batch);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) this.#queues.delete(batch.serverId);
  }

  /** Removes the batch from the index and the count (its queue is the caller's business). */
  #drop(batch: HeldBatch): void {
    if (this.#byId.delete(batch.batchId)) this.#heldLogs -= batch.records.length;
  }

  #drain(serverId: string): void {
    const queue = this.#queues.get(serverId);
    if (!queue) return;
    const now = this.#now();
    // A stored batch that waited holdMs gives up on every unstored batch before it.
    let lastDue = -1;
    queue.forEach((batch, index) => {
      if (batch.storedAt !== null && now >= batch.storedAt + this.#settings.holdMs) lastDue = index;
    });
    for (let index = 0; index < lastDue; index++) if (queue[index]!.storedAt === null) queue[index]!.passed = true;

    const keep: HeldBatch[] = [];
    const out: LogRecord[] = [];
    let blocked = false;
    let nextDue = Number.POSITIVE_INFINITY;
    for (const batch of queue) {
      if (batch.storedAt === null) {
        if (now - batch.at > this.#settings.pendingTtlMs) {
          this.#drop(batch);
          continue;
        }
        keep.push(batch);
        if (!batch.passed) blocked = true;
        continue;
      }
      if (blocked) {
        keep.push(batch);
        nextDue = Math.min(nextDue, batch.storedAt + this.#settings.holdMs);
        continue;
      }
      out.push(...batch.records);
      this.#drop(batch);
    }
    if (keep.length > 0) this.#queues.set(serverId, keep);
    else this.#queues.delete(serverId);

    const timer = this.#timers.get(serverId);
    if (timer) clearTimeout(timer);
    this.#timers.delete(serverId);
    if (Number.isFinite(nextDue)) {
      const next = setTimeout(() => {
        this.#timers.delete(serverId);
        this.#drain(serverId);
      }, Math.max(0, nextDue - now));
      next.unref();
      this.#timers.set(serverId, next);
    }
    if (out.length > 0) this.#release(serverId, out);
  }
}
