/**
 * The store's side of its seal workers (block-seal-worker.ts): up to `size` of them, each started when a seal
 * finds none free and retired after a minute without a seal (a worker holds its own V8 isolate, ~15 MiB; an idle
 * all-in-one should not pay for one). A seal goes to a free worker, or waits for one. If a worker fails, `failed`
 * turns true for good and the store seals on its own thread (block-writes.ts): nothing waits for a worker that
 * is gone.
 *
 * Why threads: sealing a block of 4,096 rows (reading the rows back, the frames, the dictionary, the rare rows)
 * was ~110 ms of the store's thread per FiveM block, most of its ingest's CPU; the row store's indexing runs on
 * a thread of its own the same way. Two: one seal worker computes a block in ~80 ms of CPU, the store's thread
 * writes it in ~10, so a busy stream outruns one worker; the second takes the next rows of the same stream (or
 * another stream) meanwhile.
 */
import { Worker } from 'node:worker_threads';
import { BACKGROUND_THREADS } from '../background-threads.ts';
import type { SealInput, SealJob, TailKey } from './block-seal.ts';

export interface SealWorkerData {
  readonly role: 'skald-block-seal';
  readonly file: string;
  readonly level: number;
  /** Rows of a group of a block's text (block-text-dictionaries.ts). */
  readonly textGroupRows: number;
}

export type SealRequest = { readonly kind: 'seal'; readonly id: number; readonly input: SealInput } | { readonly kind: 'close' };
export type SealReply =
  /** The rows are read: how many, and the last one's key (null: none); the block follows. */
  | { readonly kind: 'read'; readonly id: number; readonly rows: number; readonly last: TailKey | null }
  | { readonly kind: 'sealed'; readonly id: number; readonly job: SealJob | null }
  | { readonly kind: 'failed'; readonly id: number; readonly message: string }
  | { readonly kind: 'closed' };

/** Told once a seal's rows are read: how many, and the last one's key. */
export type OnRead = (rows: number, last: TailKey | null) => void;

const DEFAULT_IDLE_MS = 60_000;

interface Pending {
  readonly id: number;
  readonly input: SealInput;
  readonly onRead: OnRead;
  readonly resolve: (job: SealJob | null) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  pending: Pending | null;
  idle: NodeJS.Timeout | null;
}

export class BlockSealThread {
  readonly #data: SealWorkerData;
  readonly #idleMs: number;
  readonly #size: number;
  readonly #slots = new Set<Slot>();
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #failed = false;
  #closed = false;
  /** Workers asked to close and not closed yet. */
  readonly #closing = new Set<Promise<void>>();

  constructor(options: { readonly file: string; readonly level: number; readonly textGroupRows: number; readonly size?: number; readonly idleMs?: number }) {
    this.#data = { role: 'skald-block-seal', file: options.file, level: options.level, textGroupRows: options.textGroupRows };
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.#size = options.size ?? 1;
    if (!Number.isSafeInteger(this.#size) || this.#size < 1) throw new RangeError('seal threads must be an integer >= 1');
  }

  /** How many seals run at once. */
  get size(): number {
    return this.#size;
  }

  /** A worker failed: the store seals on its own thread from now on. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Workers alive now (tests and diagnostics). */
  get running(): number {
    return this.#slots.size;
  }

  /** The seal of `input` computed on a worker; rejects if it fails (then `failed` says whether for good). */
  seal(input: SealInput, onRead: OnRead): Promise<SealJob | null> {
    if (this.#failed) return Promise.reject(new Error('block log store: the seal worker failed'));
    return new Promise<SealJob | null>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, input, onRead, resolve, reject });
      this.#dispatch();
    });
  }

  /** Closes the workers once their seals under way are answered; resolves once their connections are closed. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const slot of [...this.#slots]) if (slot.pending === null) this.#retire(slot);
    await Promise.all([...this.#closing]);
  }

  #dispatch(): void {
    while (this.#queue.length > 0 && !this.#failed) {
      const slot = [...this.#slots].find((s) => s.pending === null) ?? (this.#slots.size < this.#size ? this.#start() : null);
      if (slot === null) return;
      const pending = this.#queue.shift()!;
      if (slot.idle !== null) clearTimeout(slot.idle);
      slot.idle = null;
      slot.pending = pending;
      // Ref'd while it works: a process whose last work is this seal (a close) waits for it.
      slot.worker.ref();
      slot.worker.postMessage({ kind: 'seal', id: pending.id, input: pending.input } satisfies SealRequest);
    }
  }

  #start(): Slot {
    const worker = new Worker(new URL('./block-seal-worker.ts', import.meta.url), { workerData: this.#data, name: BACKGROUND_THREADS.blockSeal });
    const slot: Slot = { worker, pending: null, idle: null };
    worker.on('message', (reply: SealReply) => this.#onReply(slot, reply));
    worker.on('error', (error) => this.#fail(slot, `the block seal worker failed: ${String(error)}`));
    worker.on('exit', (code) => this.#fail(slot, `the block seal worker exited (code ${code})`));
    worker.unref();
    this.#slots.add(slot);
    return slot;
  }

  #onReply(slot: Slot, reply: SealReply): void {
    const pending = slot.pending;
    if (reply.kind === 'closed' || pending === null || reply.id !== pending.id) return;
    if (reply.kind === 'read') {
      pending.onRead(reply.rows, reply.last);
      return;
    }
    slot.pending = null;
    if (this.#slots.has(slot) && (this.#failed || this.#closed)) this.#retire(slot);
    else if (this.#slots.has(slot)) {
      slot.worker.unref();
      slot.idle = setTimeout(() => {
        if (slot.pending === null && this.#slots.has(slot)) this.#retire(slot);
      }, this.#idleMs);
      slot.idle.unref();
    }
    if (reply.kind === 'sealed') pending.resolve(reply.job);
    else pending.reject(new Error(reply.message));
    this.#dispatch();
  }

  /** Asks the worker to close its connection; the process waits for it (a 'message' listener does not ref it). */
  #retire(slot: Slot): void {
    this.#slots.delete(slot);
    if (slot.idle !== null) clearTimeout(slot.idle);
    const worker = slot.worker;
    worker.ref();
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (reply: SealReply) => {
        if (reply.kind === 'closed') resolve();
      });
      worker.once('exit', () => resolve());
    });
    const tracked = closed.then(() => {
      this.#closing.delete(tracked);
    });
    this.#closing.add(tracked);
    worker.postMessage({ kind: 'close' } satisfies SealRequest);
  }

  #fail(slot: Slot, reason: string): void {
    // A retired worker ends normally; only a working one failing matters.
    if (!this.#slots.has(slot)) return;
    this.#slots.delete(slot);
    if (slot.idle !== null) clearTimeout(slot.idle);
    this.#failed = true;
    const error = new Error(reason);
    slot.pending?.reject(error);
    slot.pending = null;
    for (const pending of this.#queue.splice(0)) pending.reject(error);
    for (const other of [...this.#slots]) if (other.pending === null) this.#retire(other);
  }
}
