/**
 * Process-wide wake-up channel per journal file: a publish through any bus instance on the file
 * wakes the consumers of every instance on it, so consumers sleep instead of polling.
 */
import { resolve } from 'node:path';

type Listener = (topics: ReadonlySet<string>) => void;

const listenersByFile = new Map<string, Set<Listener>>();

export function listenForPublishes(file: string, listener: Listener): () => void {
  const path = resolve(file);
  let listeners = listenersByFile.get(path);
  if (!listeners) {
    listeners = new Set();
    listenersByFile.set(path, listeners);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) listenersByFile.delete(path);
  };
}

export function announcePublish(file: string, topics: ReadonlySet<string>): void {
  const listeners = listenersByFile.get(resolve(file));
  if (!listeners) return;
  for (const listener of listeners) listener(topics);
}

/**
 * A reading loop's sleep between journal fetches (group consumers and observers): `notify()` (a publish
 * on its topic, or the stop) wakes it at once; the poll timer covers publishers in other processes.
 * `clear()` goes before each (synchronous) fetch: a publish after it sets the flag again, so the wait
 * after a short page returns at once instead of missing it.
 */
export class PublishWait {
  readonly #pollIntervalMs: number;
  readonly #signal: AbortSignal;
  #woken = false;
  #wake: (() => void) | null = null;

  constructor(pollIntervalMs: number, signal: AbortSignal) {
    this.#pollIntervalMs = pollIntervalMs;
    this.#signal = signal;
    signal.addEventListener('abort', () => this.notify(), { once: true });
  }

  clear(): void {
    this.#woken = false;
  }

  notify(): void {
    this.#woken = true;
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  wait(): Promise<void> {
    if (this.#woken || this.#signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.notify(), this.#pollIntervalMs);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
