/**
 * Audit events: one per change a person makes (every service -> the audit store of a later issue).
 * Topic TOPICS.audit, keyed by serverId (or the actor's id for account-level actions).
 * `details` is free-form: a short text or a small JSON object; it never holds secrets.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import type { PublishInput } from '@skald/ports';
import { TOPICS } from '../topics.ts';
import { defineEvent, eventMessage } from './framework.ts';

export const AuditRecordedSchema = Type.Object(
  {
    actorId: Type.String({ minLength: 1, maxLength: 64 }),
    actorEmail: Type.String({ maxLength: 320 }),
    serverId: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
    /** Dotted verb, e.g. `server.renamed`, `apikey.rotated`, `membership.added`, `user.password-changed`. */
    action: Type.String({ minLength: 1, maxLength: 64 }),
    details: Type.Union([Type.String({ maxLength: 2000 }), Type.Record(Type.String(), Type.Unknown())]),
    /** ISO 8601 time of the change. */
    at: Type.String({ minLength: 1, maxLength: 40 }),
  },
  { additionalProperties: false },
);

export type AuditRecorded = Static<typeof AuditRecordedSchema>;

export const AuditRecordedEvent = defineEvent({ name: 'audit.recorded', version: 1, topic: TOPICS.audit, schema: AuditRecordedSchema });

/** Builds the bus message of an audit entry, keyed by its server (or its actor for account-level actions). */
export function auditMessage(entry: AuditRecorded): PublishInput {
  return eventMessage(AuditRecordedEvent, entry.serverId ?? entry.actorId, entry);
}
