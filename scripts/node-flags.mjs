/**
 * The V8 flags every Skald process is started with: the image's CMD (Dockerfile, checked by
 * deploy/check-manifests.mjs), `npm start` (scripts/start.mjs) and the compile cache's warm-up
 * (scripts/warm-compile-cache.ts), which must match the runs that read its cache: Node keys the cache's
 * directory by the V8 flags, so a warm-up without them would leave every container a cold start.
 * Only the command line takes them: Node refuses such V8 flags in NODE_OPTIONS, and setting them at run
 * time (v8.setFlagsFromString) changes nothing.
 *
 * --no-memory-pool-share-memory-on-teardown: when a worker thread ends, V8 14 (Node 26) hands its isolate's
 * memory over to the other isolates, and the main isolate keeps it (a worker that had used ~30 MiB left
 * +33 MiB resident 13 s after it ended, a full GC included; +2 MiB with this flag). The adapters retire
 * their worker threads after an idle minute so that an idle process does not pay for them (the search
 * index, the WAL checkpoints); with this flag a retired search-index worker leaves ~4 MiB less behind
 * (docs/DECISIONS.md, "Performance"). It only decides where a dead isolate's memory goes.
 */
export const NODE_FLAGS = Object.freeze(['--no-memory-pool-share-memory-on-teardown']);
