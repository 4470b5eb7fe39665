/** What wal-checkpointer.ts and its worker thread (wal-checkpoint-worker.ts) say to each other. */

export type CheckpointRequest = { readonly kind: 'checkpoint'; readonly file: string } | { readonly kind: 'close'; readonly file: string };

export type CheckpointReply =
  | { readonly kind: 'checkpointed'; readonly file: string; readonly walFrames: number; readonly copiedFrames: number }
  | { readonly kind: 'failed'; readonly file: string; readonly reason: string }
  | { readonly kind: 'closed'; readonly file: string };
