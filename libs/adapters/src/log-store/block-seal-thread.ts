/**
 * The store's side of its seal worker (block-seal-worker.ts): started at the first seal, asked for one block at a
 * time (the store's turns run one seal at a time), retired after a minute without a seal (a worker holds its own
 * V8 isolate, ~15 MiB; an idle all-in-one should not pay for one). If the worker fails, `failed` turns true for
 * good and the store seals on its own thread (block-writes.ts): nothing waits for a worker that is gone.
 *
 * Why a thread: sealing a block of 4,096 rows (reading the rows back, the frames, the dictionary, the rare rows)
 * was ~110 ms of the store's thread per FiveM block, half of its ingest's CPU; the row store's indexing runs on
 * a thread of its own the same way.
 */
import { Worker } from 'node:worker_threads';
import { BACKGROUND_THREADS } from '../background-threads.ts';
import type { SealInput, SealJob } from './block-seal.ts';

export interface SealWorkerData {
  readonly role: 'skald-block-seal';
  readonly file: string;
  readonly level: number;
}

export type SealRequest = { readonly kind: 'seal'; readonly input: SealInput } | { readonly kind: 'close' };
export type SealReply = { readonly kind: 'sealed'; readonly job: SealJob | null } | { readonly kind: 'failed'; readonly message: string } | { readonly kind: 'closed' };

const DEFAULT_IDLE_MS = 60_000;

interface Pending {
  readonly resolve: (job: SealJob | null) => void;
  readonly reject: (error: Error) => void;
}

export class BlockSealThread {
  readonly #data: SealWorkerData;
  readonly #idleMs: number;
  #worker: Worker | null = null;
  #pending: Pending | null = null;
  #idle: NodeJS.Timeout | null = null;
  #failed = false;
  /** Workers asked to close and not closed yet. */
  readonly #closing = new Set<Promise<void>>();

  constructor(options: { readonly file: string; readonly level: number; readonly idleMs?: number }) {
    this.#data = { role: 'skald-block-seal', file: options.file, level: options.level };
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** The worker failed: the store seals on its own thread from now on. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Whether a worker runs now (tests and diagnostics). */
  get running(): boolean {
    return this.#worker !== null;
  }

  /** The seal of `input` computed on the worker; rejects if it fails (then `failed` says whether for good). */
  seal(input: SealInput): Promise<SealJob | null> {
    if (this.#failed) return Promise.reject(new Error('block log store: the seal worker failed'));
    if (this.#pending !== null) return Promise.reject(new Error('block log store: one seal at a time'));
    this.#clearIdle();
    const worker = this.#ensureWorker();
    // Ref'd while it works: a process whose last work is this seal (a close) waits for it.
    worker.ref();
    return new Promise<SealJob | null>((resolve, reject) => {
      this.#pending = { resolve, reject };
      worker.postMessage({ kind: 'seal', input } satisfies SealRequest);
    });
  }

  /** Closes the worker once its seal under way is answered; resolves once its connection is closed. */
  async close(): Promise<void> {
    this.#clearIdle();
    const worker = this.#worker;
    this.#worker = null;
    if (worker !== null) this.#retire(worker);
    await Promise.all([...this.#closing]);
  }

  #ensureWorker(): Worker {
    if (this.#worker !== null) return this.#worker;
    const worker = new Worker(new URL('./block-seal-worker.ts', import.meta.url), { workerData: this.#data, name: BACKGROUND_THREADS.blockSeal });
    worker.on('message', (reply: SealReply) => this.#onReply(worker, reply));
    worker.on('error', (error) => this.#fail(worker, `the block seal worker failed: ${String(error)}`));
    worker.on('exit', (code) => this.#fail(worker, `the block seal worker exited (code ${code})`));
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #onReply(worker: Worker, reply: SealReply): void {
    if (reply.kind === 'closed') return;
    const pending = this.#pending;
    this.#pending = null;
    if (worker === this.#worker) {
      worker.unref();
      this.#retireWhenIdle(worker);
    }
    if (reply.kind === 'sealed') pending?.resolve(reply.job);
    else pending?.reject(new Error(reply.message));
  }

  #retireWhenIdle(worker: Worker): void {
    this.#clearIdle();
    this.#idle = setTimeout(() => {
      this.#idle = null;
      if (this.#worker !== worker || this.#pending !== null) return;
      this.#worker = null;
      this.#retire(worker);
    }, this.#idleMs);
    this.#idle.unref();
  }

  /** Asks the worker to close its connection; the process waits for it (a 'message' listener does not ref it). */
  #retire(worker: Worker): void {
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

  #fail(worker: Worker, reason: string): void {
    // A retired worker ends normally; only the current one failing matters.
    if (worker !== this.#worker) return;
    this.#worker = null;
    this.#failed = true;
    this.#clearIdle();
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(new Error(reason));
  }

  #clearIdle(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
  }
}
