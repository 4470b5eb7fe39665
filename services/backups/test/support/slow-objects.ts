/**
 * An object store that takes uploads slowly (a pause per chunk read), so a dump stays in progress long
 * enough for a test to act during it. `beforeFirstChunk`, when given, holds an upload at its first chunk
 * until it resolves: the dump has begun (its snapshot taken, rows read) and waits there, however fast or
 * loaded the machine, for what the test does meanwhile. Everything else is the real store's.
 */
import { Readable } from 'node:stream';
import type { ObjectStore } from '@skald/ports';

export function slowObjects(inner: ObjectStore, pauseMs: number, options: { beforeFirstChunk?: () => Promise<void> } = {}): ObjectStore & { slow: boolean } {
  const store = {
    slow: true,
    put(key: string, body: Buffer | Readable, contentType: string) {
      if (!store.slow || Buffer.isBuffer(body)) return inner.put(key, body, contentType);
      async function* slowly(source: Readable) {
        let first = true;
        for await (const chunk of source) {
          if (first && options.beforeFirstChunk) await options.beforeFirstChunk();
          first = false;
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
          yield chunk as Buffer;
        }
      }
      return inner.put(key, Readable.from(slowly(body)), contentType);
    },
    get: (key: string) => inner.get(key),
    stat: (key: string) => inner.stat(key),
    delete: (keys: readonly string[]) => inner.delete(keys),
    list: (prefix: string) => inner.list(prefix),
    close: () => inner.close(),
  };
  return store;
}
