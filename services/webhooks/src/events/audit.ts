/**
 * Audit entries of webhook changes (webhook.created, .updated, .deleted, .tested, .replayed,
 * .dead-letters-cleared) on the audit topic for the audit trail, through the service kit's audit
 * publisher (the actor's e-mail from the identity read model). Details name the webhook and its
 * platform, never its URL, chat_id or secret.
 */
import type { AuditPublisher } from '@skald/service-kit';

export type WebhookAuditAction = 'created' | 'updated' | 'deleted' | 'tested' | 'replayed' | 'dead-letters-cleared';

export type AlertAuditAction = 'created' | 'updated' | 'deleted' | 'tested';

export interface WebhookAudit {
  /** alert.created, .updated, .deleted, .tested: details name the rule and its kind. */
  recordAlert(actorId: string, serverId: string, action: AlertAuditAction, details: Readonly<Record<string, string | number | boolean | null>>): Promise<void>;
  record(actorId: string, serverId: string, action: WebhookAuditAction, details: Readonly<Record<string, string | number | boolean | null>>): Promise<void>;
}

export function createWebhookAudit(publisher: AuditPublisher): WebhookAudit {
  return {
    recordAlert: (actorId, serverId, action, details) => publisher.publish({ actorId, serverId, action: `alert.${action}`, details: { ...details } }),
    record: (actorId, serverId, action, details) => publisher.publish({ actorId, serverId, action: `webhook.${action}`, details: { ...details } }),
  };
}
