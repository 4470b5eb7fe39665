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
