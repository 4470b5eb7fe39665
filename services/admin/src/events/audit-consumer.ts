/**
 * THE audit consumer: every service publishes its audit events on the audit topic (a history topic: a
 * trail deployed later still starts from the first entry); this group stores each one once, keyed by the
 * event id, so redeliveries change nothing.
 */
import { AuditRecordedEvent, on, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import type { AuditTrail } from '../domain/audit-trail.ts';
import type { Overview } from '../domain/overview.ts';

export const AUDIT_GROUP = 'admin.audit';

/** Stores each entry, then sets its server's entry count in the admin area's read model (a recount: redeliveries cannot skew it). */
export function startAuditConsumer(bus: EventBus, trail: AuditTrail, overview: Pick<Overview, 'setServer'>): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: AUDIT_GROUP,
    handlers: [
      on(AuditRecordedEvent, async (data, { envelope }) => {
        await trail.record(envelope.id, data);
        if (data.serverId !== null) await overview.setServer(data.serverId, { auditCount: await trail.countOf(data.serverId) });
      }),
    ],
  });
}
