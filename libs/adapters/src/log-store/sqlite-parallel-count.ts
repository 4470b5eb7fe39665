/**
 * The log store's second counting thread (sqlite-count-worker.ts), started on the first count that needs
 * it and stopped with the store. A failure of the worker is never a failed query: the caller counts on
 * its own thread instead (`count` rejects, the store falls back).
 */
import { Worker } from 'node:worker_threads';
import type { SQLInputValue } from 'node:sqlite';

interface CountAnswer {
  readonly id: number;
  readonly n?: number;
  readonly error?: string;
}

export class ParallelCounter {
  readonly #file: string;
  #worker: Worker | null = null;
  #broken = false;
  #nextId = 0;
  readonly #waiting = new Map<number, { resolve(n: number): void; reject(error: Error): void }>();

  constructor(file: string) {
    this.#file = file;
  }

  /** Whether a count can be handed over (false once the worker failed: the store then counts alone). */
  get usable(): boolean {
    return !this.#broken;
  }

  count(sql: string, params: SQLInputValue[]): Promise<number> {
    const worker = this.#start();
    const id = ++this.#nextId;
    return new Promise<number>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ id, sql, params });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#failAll(new Error('log store closed'));
    if (worker !== null) await worker.terminate();
  }

  #start(): Worker {
    if (this.#worker !== null) return this.#worker;
    const worker = new Worker(new URL('./sqlite-count-worker.ts', import.meta.url), { workerData: { file: this.#file } });
    // A count in flight keeps the process alive through its promise; an idle worker must not.
    worker.unref();
    worker.on('message', (answer: CountAnswer) => {
      const waiting = this.#waiting.get(answer.id);
      if (waiting === undefined) return;
      this.#waiting.delete(answer.id);
      if (answer.error !== undefined || answer.n === undefined) waiting.reject(new Error(answer.error ?? 'no count'));
      else waiting.resolve(answer.n);
    });
    const fail = (error: Error) => {
      this.#broken = true;
      this.#worker = null;
      this.#failAll(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.#worker === worker) fail(new Error(`count worker exited with ${code}`));
    });
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}
