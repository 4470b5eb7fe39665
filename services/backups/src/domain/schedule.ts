/**
 * Scheduled backups on the JobQueue port: one repeatable schedule per server (id `server:<serverId>`,
 * every interval_hours), so the schedule lives in the queue's store (SQLite file or Redis) and survives
 * restarts, and each firing is one job that one worker of one instance takes (BullMQ's scheduler, or the
 * embedded queue's single owner). The run lock in backup-records.ts keeps a firing from overlapping a
 * manual run.
 */
import type { JobQueue, Worker } from '@skald/ports';
import { isComplete } from './backup-settings.ts';
import type { StoredSettings } from './backup-settings.ts';
import type { BackupRuns } from './backup-runs.ts';

export const BACKUP_QUEUE = 'backups';
export const SCHEDULED_BACKUP_JOB = 'scheduled-backup';
export const HOUR_MS = 3_600_000;
/** Dumps running at once per instance (each holds a connection and a compressor). */
export const SCHEDULED_CONCURRENCY = 2;

export function scheduleIdOf(serverId: string): string {
  return `server:${serverId}`;
}

export interface BackupScheduler {
  /** Puts the server's schedule in line with its settings; a schedule whose period did not change is left running. */
  apply(serverId: string, before: StoredSettings, after: StoredSettings): Promise<void>;
  start(runs: BackupRuns): Promise<void>;
  stop(): Promise<void>;
}

function isScheduled(settings: StoredSettings): boolean {
  return settings.enabled && isComplete(settings);
}

export function createBackupScheduler(jobs: JobQueue, hourMs: number = HOUR_MS): BackupScheduler {
  let worker: Worker | null = null;
  return {
    async apply(serverId, before, after) {
      if (!isScheduled(after)) {
        if (isScheduled(before)) await jobs.unschedule(BACKUP_QUEUE, scheduleIdOf(serverId));
        return;
      }
      // Saving again (another field changed) must not push the next run away: re-arm only a new period.
      if (isScheduled(before) && before.intervalHours === after.intervalHours) return;
      await jobs.schedule(BACKUP_QUEUE, scheduleIdOf(serverId), Math.round(after.intervalHours * hourMs), SCHEDULED_BACKUP_JOB, { serverId });
    },
    async start(runs) {
      if (worker) return;
      worker = await jobs.process(
        BACKUP_QUEUE,
        async (job) => {
          const serverId = (job.data as { serverId?: unknown } | null)?.serverId;
          if (job.name === SCHEDULED_BACKUP_JOB && typeof serverId === 'string') await runs.runScheduled(serverId);
        },
        { concurrency: SCHEDULED_CONCURRENCY },
      );
    },
    async stop() {
      const current = worker;
      worker = null;
      if (current) await current.close();
    },
  };
}
