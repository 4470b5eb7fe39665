/**
 * The backups of every server (one document per run) and the per-server run lock. A run is `running`
 * until it ends `done` (object stored, size known) or `failed` (reason kept, no object). The lock document
 * (`_id` = server id, unique) makes "one backup per server at a time" hold across instances; the running
 * instance renews its heartbeat, and a lock whose heartbeat stopped (the instance died) is taken over and
 * its run recorded as interrupted.
 */
import type { ApiBackup, BackupStatus } from '@skald/contracts';
import { DuplicateKeyError } from '@skald/ports';
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';

export type BackupTrigger = 'manual' | 'scheduled';

export interface BackupDocument extends BaseDocument {
  readonly serverId: string;
  readonly status: BackupStatus;
  readonly trigger: BackupTrigger;
  readonly createdAt: number;
  readonly finishedAt: number | null;
  /** SQL bytes (the download); 0 until done. */
  readonly size: number;
  /** Compressed bytes in the object store. */
  readonly storedSize: number;
  readonly objectKey: string | null;
  readonly error: string | null;
}

interface RunLockDocument extends BaseDocument {
  readonly backupId: string;
  readonly heartbeatAt: number;
}

export const INTERRUPTED_REASON = 'The backup was interrupted (the service stopped during the run)';

export function backupView(doc: BackupDocument): ApiBackup {
  return { id: doc._id, size: doc.size, created_at: new Date(doc.createdAt).toISOString(), status: doc.status, error: doc.error };
}

export function objectKeyOf(backupId: string): string {
  return `backups/${backupId}.sql.gz`;
}

export interface BackupRecords {
  /** Newest first. */
  list(serverId: string): Promise<BackupDocument[]>;
  find(serverId: string, backupId: string): Promise<BackupDocument | null>;
  /** Takes the server's run lock and records the run; null when another run holds a live lock. */
  begin(serverId: string, backupId: string, trigger: BackupTrigger): Promise<BackupDocument | null>;
  heartbeat(serverId: string, backupId: string): Promise<void>;
  finish(serverId: string, backupId: string, outcome: { status: 'done'; size: number; storedSize: number } | { status: 'failed'; error: string }): Promise<void>;
  remove(backupIds: readonly string[]): Promise<void>;
  isRunning(serverId: string): Promise<boolean>;
}

export async function createBackupRecords(docs: DocumentStore, options: { now: () => number; staleAfterMs: number }): Promise<BackupRecords> {
  const backups: Collection<BackupDocument> = await docs.collection<BackupDocument>('backups', [{ fields: ['serverId', 'createdAt'] }]);
  const locks: Collection<RunLockDocument> = await docs.collection<RunLockDocument>('backup_run_locks');
  const { now, staleAfterMs } = options;

  async function markInterrupted(backupId: string): Promise<void> {
    await backups.updateOne({ _id: backupId, status: 'running' }, { $set: { status: 'failed', error: INTERRUPTED_REASON, finishedAt: now() } });
  }

  /** Running records without a live lock belong to a run that died with its instance. */
  async function reap(serverId: string): Promise<void> {
    const running = await backups.find({ serverId, status: 'running' });
    if (running.length === 0) return;
    const lock = await locks.findOne({ _id: serverId });
    const live = lock !== null && lock.heartbeatAt > now() - staleAfterMs ? lock.backupId : null;
    for (const doc of running) if (doc._id !== live) await markInterrupted(doc._id);
  }

  async function takeLock(serverId: string, backupId: string): Promise<boolean> {
    try {
      await locks.insertOne({ _id: serverId, backupId, heartbeatAt: now() });
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    // Held: take it over only when its heartbeat stopped (one atomic update, so one taker wins).
    const stale = await locks.findOne({ _id: serverId });
    if (stale === null || stale.heartbeatAt > now() - staleAfterMs) return false;
    const taken = await locks.findOneAndUpdate({ _id: serverId, backupId: stale.backupId, heartbeatAt: stale.heartbeatAt }, { $set: { backupId, heartbeatAt: now() } });
    if (taken === null) return false;
    await markInterrupted(stale.backupId);
    return true;
  }

  return {
    async list(serverId) {
      await reap(serverId);
      return backups.find({ serverId }, { sort: { createdAt: -1, _id: -1 } });
    },
    async find(serverId, backupId) {
      return backups.findOne({ _id: backupId, serverId });
    },
    async begin(serverId, backupId, trigger) {
      if (!(await takeLock(serverId, backupId))) return null;
      const doc: BackupDocument = { _id: backupId, serverId, status: 'running', trigger, createdAt: now(), finishedAt: null, size: 0, storedSize: 0, objectKey: null, error: null };
      await backups.insertOne(doc);
      return doc;
    },
    async heartbeat(serverId, backupId) {
      await locks.updateOne({ _id: serverId, backupId }, { $set: { heartbeatAt: now() } });
    },
    async finish(serverId, backupId, outcome) {
      const set =
        outcome.status === 'done'
          ? { status: 'done', size: outcome.size, storedSize: outcome.storedSize, objectKey: objectKeyOf(backupId), finishedAt: now() }
          : { status: 'failed', error: outcome.error, finishedAt: now() };
      await backups.updateOne({ _id: backupId, serverId }, { $set: set });
      await locks.deleteOne({ _id: serverId, backupId });
    },
    async remove(backupIds) {
      if (backupIds.length > 0) await backups.deleteMany({ _id: { $in: [...backupIds] } });
    },
    async isRunning(serverId) {
      await reap(serverId);
      return (await backups.count({ serverId, status: 'running' })) > 0;
    },
  };
}
