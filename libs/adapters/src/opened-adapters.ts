/**
 * Keeps what a launcher (or the test kit) opened so it can all be closed in reverse order, trying every
 * adapter and reporting the first failure after the rest were closed.
 */
export interface Closable {
  close(): Promise<void>;
}

export interface OpenedAdapters {
  /** Opens one adapter and remembers it. */
  open<T extends Closable>(make: () => Promise<T>): Promise<T>;
  closeAll(): Promise<void>;
}

export function openedAdapters(): OpenedAdapters {
  const opened: Closable[] = [];
  return {
    async open(make) {
      const adapter = await make();
      opened.push(adapter);
      return adapter;
    },
    async closeAll() {
      let first: unknown;
      for (const adapter of opened.splice(0).reverse()) {
        try {
          await adapter.close();
        } catch (error) {
          first ??= error;
        }
      }
      if (first !== undefined) throw first;
    },
  };
}
