/**
 * Audit entries of the backups service (settings saved, backup created, downloaded, deleted), published
 * on the audit topic keyed by server. Details never hold the password or the database user.
 */
import { auditMessage } from '@skald/contracts';
import type { EventBus } from '@skald/ports';

export type BackupAuditAction = 'backup.settings-saved' | 'backup.created' | 'backup.downloaded' | 'backup.deleted';

/** Runs started by the schedule have no person behind them. */
export const SCHEDULER_ACTOR = 'system:backup-schedule';

export interface BackupAudit {
  record(serverId: string, actorId: string, action: BackupAuditAction, details: Readonly<Record<string, unknown>>): Promise<void>;
}

export function createBackupAudit(bus: EventBus, now: () => number): BackupAudit {
  return {
    async record(serverId, actorId, action, details) {
      // The backups service knows no e-mail addresses (not in its read model); the audit store joins them by actorId.
      await bus.publish([auditMessage({ actorId, actorEmail: '', serverId, action, details: { ...details }, at: new Date(now()).toISOString() })]);
    },
  };
}
