/** What the store (search-index-thread.ts) and its indexing worker (search-index-worker.ts) say to each other. */

export interface SearchIndexWorkerData {
  /** Marks the data as this worker's: the module does nothing in a thread started for anything else. */
  readonly role: 'skald-search-index';
  readonly file: string;
  readonly chunkRows: number;
  readonly gatherMs: number;
}

export type SearchIndexRequest =
  /** Rows committed by the store's connection, and the servers they belong to. */
  | { readonly kind: 'stored'; readonly rows: number; readonly serverKeys: readonly number[] }
  /** Finish the chunk under way, close the connection, answer 'closed'. */
  | { readonly kind: 'close' };

export type SearchIndexReply =
  /**
   * A chunk ended and released the write lock: committed `rows` rows (the WAL grew when > 0: the checkpointer is
   * told), or 0 after a failure. Writes of the store waiting for the lock try again at once.
   */
  | { readonly kind: 'chunk-done'; readonly rows: number }
  /** Nothing waits to be indexed any more. */
  | { readonly kind: 'caught-up' }
  | { readonly kind: 'closed' };
