/** What wal-checkpointer.ts and its worker thread (wal-checkpoint-worker.ts) say to each other. */

/**
 * A checkpoint's mode: `bounded` is checkpointBounded's (PASSIVE, then a reset past the bound that waits a little
 * for the lock); `passive` never resets (a gated file below its reset mark: the reset is left to `reset`); `reset`
 * copies everything and resets the WAL, waiting longer for the readers (a gated file's writer waits for it).
 */
export type CheckpointMode = 'bounded' | 'passive' | 'reset';

export type CheckpointRequest = { readonly kind: 'checkpoint'; readonly file: string; readonly mode: CheckpointMode } | { readonly kind: 'close'; readonly file: string };

export type CheckpointReply =
  | { readonly kind: 'checkpointed'; readonly file: string; readonly walFrames: number; readonly copiedFrames: number; readonly truncated: boolean }
  | { readonly kind: 'failed'; readonly file: string; readonly reason: string }
  | { readonly kind: 'closed'; readonly file: string };
