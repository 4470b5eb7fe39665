/**
 * Audit entries of the backups service (settings saved, backup created, downloaded, deleted), published
 * on the audit topic keyed by server through the service kit's audit publisher (the actor's e-mail from
 * the identity read model). Runs the schedule starts are the system's (AUDIT_SYSTEM_ACTOR). Details never
 * hold the password or the database user.
 */
import { AUDIT_SYSTEM_ACTOR, auditMessage } from '@skald/contracts';
import type { EventBus } from '@skald/ports';
import type { AuditPublisher } from '@skald/service-kit';

export type BackupAuditAction = 'backup.settings-saved' | 'backup.created' | 'backup.downloaded' | 'backup.deleted';

/** Runs started by the schedule have no person behind them. */
export const SCHEDULER_ACTOR = AUDIT_SYSTEM_ACTOR.actorId;

export interface BackupAudit {
  record(serverId: string, actorId: string, action: BackupAuditAction, details: Readonly<Record<string, unknown>>): Promise<void>;
}

export function createBackupAudit(deps: { bus: EventBus; publisher: AuditPublisher; now: () => number }): BackupAudit {
  return {
    async record(serverId, actorId, action, details) {
      if (actorId === SCHEDULER_ACTOR) {
        await deps.bus.publish([auditMessage({ ...AUDIT_SYSTEM_ACTOR, serverId, action, details: { ...details }, at: new Date(deps.now()).toISOString() })]);
        return;
      }
      await deps.publisher.publish({ actorId, serverId, action, details: { ...details } });
    },
  };
}
