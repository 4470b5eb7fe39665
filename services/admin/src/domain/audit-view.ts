/** Stored audit entries as the API answers them (docs/spec/part-2.txt section 3; GET /admin/logs for staff actions). */
import type { AdminLogEntry, AuditLogEntry } from '@skald/contracts';
import type { AuditEntryDocument } from './audit-trail.ts';

export function toAuditLogEntry(doc: AuditEntryDocument): AuditLogEntry {
  return { id: doc._id, user_id: doc.actorId, user_email: doc.actorEmail, action: doc.action, details: doc.details, created_at: doc.at };
}

export function toAdminLogEntry(doc: AuditEntryDocument, serverName: string | null): AdminLogEntry {
  return {
    id: doc._id,
    admin_user_id: doc.actorId,
    admin_email: doc.actorEmail,
    server_id: doc.serverId,
    server_name: serverName,
    action: doc.action,
    details: doc.details,
    created_at: doc.at,
  };
}
