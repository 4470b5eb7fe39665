/**
 * THE audit consumer: every service publishes its audit events on the audit topic (a history topic: a
 * trail deployed later still starts from the first entry); this group stores each one once, keyed by the
 * event id, so redeliveries change nothing.
 */
import { AuditRecordedEvent, on, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import type { AuditTrail } from '../domain/audit-trail.ts';

export const AUDIT_GROUP = 'admin.audit';

export function startAuditConsumer(bus: EventBus, trail: AuditTrail): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: AUDIT_GROUP,
    handlers: [on(AuditRecordedEvent, async (data, { envelope }) => void (await trail.record(envelope.id, data)))],
  });
}
