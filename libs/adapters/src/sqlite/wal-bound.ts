/**
 * Keeps a WAL file bounded under sustained writes. A PASSIVE checkpoint copies the WAL's pages into the database
 * file but never resets the WAL: that happens only when a writer starts while every frame is copied and no reader
 * still reads from the WAL. With two writers taking turns (the log store's commits and its search indexer's), or
 * reads always under way, frames keep arriving while each checkpoint runs, that moment never comes, and the WAL
 * grows without end (measured: 466 MiB beside a 118 MiB database after 200,000 logs). So once a PASSIVE pass leaves
 * more than WAL_BOUND_BYTES in the WAL, a TRUNCATE checkpoint follows: with most pages copied by the PASSIVE pass
 * it has little left to copy, holds the write lock only that long, then resets the WAL and cuts the file to zero.
 * It waits at most `busyMs` for the lock and readers (0 on a thread that must not block): when it cannot, nothing
 * is lost and the next checkpoint tries again.
 */
import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

/**
 * The WAL size past which a checkpoint also resets and truncates it. Measured under the storage bench's ingest
 * (~100 MiB of WAL a second while the log store takes batches), the WAL peaked at ~34 MiB: the bound plus what
 * arrives until a reset succeeds. Resets are tried by the checkpointer (brought forward by a commit that finds
 * the WAL past this) and by the log store's indexing worker right after each of its commits.
 */
export const WAL_BOUND_BYTES = 16 * 1024 * 1024;

/**
 * The WAL size past which the writes of a gated file (WalCheckpointer.register's `gated`: the block log store)
 * wait for a reset. Under sustained ingest its writer commits back to back, so a reset tried beside it has to win
 * the write lock between two commits and then wait for the readers, while the writer's own BEGIN waits in its busy
 * handler on the event loop: measured, the WAL then reached 89-94 MiB and the event loop stalled up to ~0.4 s. A
 * gated file's writer instead awaits the reset (off the event loop) once the WAL is past this; between
 * WAL_BOUND_BYTES and this its checkpoints stay PASSIVE, so the reset has little left to copy.
 */
export const WAL_RESET_BYTES = 32 * 1024 * 1024;

export interface BoundedCheckpoint {
  /** Frames the WAL held after the PASSIVE pass, and how many of them were copied. */
  readonly walFrames: number;
  readonly copiedFrames: number;
  /** The WAL was reset and its file truncated. */
  readonly truncated: boolean;
}

const pageSizes = new WeakMap<DatabaseSync, number>();

function pageSize(db: DatabaseSync): number {
  let size = pageSizes.get(db);
  if (size === undefined) {
    size = Number(db.prepare('PRAGMA page_size').get()?.['page_size'] ?? 4096);
    pageSizes.set(db, size);
  }
  return size;
}

/** A PASSIVE checkpoint of `db`'s file, and a TRUNCATE one when the WAL is past `boundBytes` (see above). */
export function checkpointBounded(db: DatabaseSync, busyMs: number, restoreBusyMs: number, boundBytes = WAL_BOUND_BYTES): BoundedCheckpoint {
  const row = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
  const walFrames = Number(row?.['log'] ?? 0);
  const copiedFrames = Number(row?.['checkpointed'] ?? 0);
  if (walFrames * pageSize(db) <= boundBytes) return { walFrames, copiedFrames, truncated: false };
  db.exec(`PRAGMA busy_timeout = ${busyMs}`);
  try {
    // busy = 1: a writer or a reader held on for longer than busyMs; the WAL stays as it is until the next try.
    const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    return { walFrames, copiedFrames, truncated: Number(truncate?.['busy'] ?? 1) === 0 };
  } finally {
    db.exec(`PRAGMA busy_timeout = ${restoreBusyMs}`);
  }
}

/** Whether `file`'s WAL is past `boundBytes` (one stat; false when there is no WAL). */
export function walPastBound(file: string, boundBytes = WAL_BOUND_BYTES): boolean {
  try {
    return statSync(`${file}-wal`).size > boundBytes;
  } catch {
    return false;
  }
}
