/**
 * Audit entries of webhook changes (webhook.created, .updated, .deleted, .tested, .replayed,
 * .dead-letters-cleared) on the audit topic for the audit trail, through the service kit's audit
 * publisher (the actor's e-mail from the identity read model). Details name the webhook and its
 * platform, never its URL, chat_id or secret.
 */
import type { AuditPublisher } from '@skald/service-kit';

export type WebhookAuditAction = 'created' | 'updated' | 'deleted' | 'tested' | 'replayed' | 'dead-letters-cleared';

export interface WebhookAudit {
  record(actorId: string, serverId: string, action: WebhookAuditAction, details: Readonly<Record<string, string | number | boolean | null>>): Promise<void>;
}

export function createWebhookAudit(publisher: AuditPublisher): WebhookAudit {
  return {
    record: (actorId, serverId, action, details) => publisher.publish({ actorId, serverId, action: `webhook.${action}`, details: { ...details } }),
  };
}
