/**
 * Audit entries of webhook changes (webhook.created, .updated, .deleted, .tested, .replayed,
 * .dead-letters-cleared) on the audit topic for the audit trail. Details name the webhook and its
 * platform, never its URL, chat_id or secret.
 */
import { auditMessage } from '@skald/contracts';
import type { EventBus } from '@skald/ports';
import type { ActorDirectory } from '../domain/actors.ts';

export type WebhookAuditAction = 'created' | 'updated' | 'deleted' | 'tested' | 'replayed' | 'dead-letters-cleared';

export interface WebhookAudit {
  record(actorId: string, serverId: string, action: WebhookAuditAction, details: Readonly<Record<string, string | number | boolean | null>>): Promise<void>;
}

export function createWebhookAudit(bus: EventBus, actors: ActorDirectory): WebhookAudit {
  return {
    async record(actorId, serverId, action, details) {
      const actorEmail = await actors.emailOf(actorId);
      await bus.publish([auditMessage({ actorId, actorEmail, serverId, action: `webhook.${action}`, details: { ...details }, at: new Date().toISOString() })]);
    },
  };
}
