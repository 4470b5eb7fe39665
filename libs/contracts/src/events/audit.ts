/**
 * Audit events: one per change a person makes (every service -> the audit trail, owned by the admin
 * service; see docs/AUDIT_AND_EXPORTS.md).
 * Topic TOPICS.audit, keyed by serverId (or the actor's id for account-level actions).
 * `action` is one of AUDIT_ACTIONS (api/audit.ts): auditMessage accepts only those names, while the wire
 * schema stays a plain string so an entry from a newer producer is stored, not dead-lettered.
 * `details` is free-form: a short text or a small JSON object; it never holds secrets (no keys,
 * passwords, tokens or webhook URLs).
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import type { PublishInput } from '@skald/ports';
import { TOPICS } from '../topics.ts';
import type { AuditAction } from '../api/audit.ts';
import { AnyObject } from './any-object.ts';
import { defineEvent, eventMessage } from './framework.ts';

export const AuditRecordedSchema = Type.Object(
  {
    actorId: Type.String({ minLength: 1, maxLength: 64 }),
    actorEmail: Type.String({ maxLength: 320 }),
    serverId: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
    /** Dotted verb, e.g. `server.renamed`, `apikey.rotated`, `membership.added`, `user.password-changed`. */
    action: Type.String({ minLength: 1, maxLength: 64 }),
    details: Type.Union([Type.String({ maxLength: 2000 }), AnyObject()]),
    /** ISO 8601 time of the change. */
    at: Type.String({ minLength: 1, maxLength: 40 }),
  },
  { additionalProperties: false },
);

export type AuditRecorded = Static<typeof AuditRecordedSchema>;

export const AuditRecordedEvent = defineEvent({ name: 'audit.recorded', version: 1, topic: TOPICS.audit, schema: AuditRecordedSchema });

/** An audit entry as a producer states it: the action is one of the vocabulary's names. */
export type AuditEntryInput = Omit<AuditRecorded, 'action'> & { readonly action: AuditAction };

/** Builds the bus message of an audit entry, keyed by its server (or its actor for account-level actions). */
export function auditMessage(entry: AuditEntryInput): PublishInput {
  return eventMessage(AuditRecordedEvent, entry.serverId ?? entry.actorId, entry);
}
