/**
 * Feeds the logs service's audit copy (domain/exports/audit-copy.ts) from the audit topic, in its own
 * consumer group; the audit trail of record is the admin service's (group admin.audit).
 */
import { AuditRecordedEvent, on, subscribeEvents } from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import type { AuditCopy } from '../domain/exports/audit-copy.ts';

export const AUDIT_COPY_GROUP = 'logs.audit-export';

export function startAuditCopyConsumer(bus: EventBus, copy: AuditCopy): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: AUDIT_COPY_GROUP,
    handlers: [on(AuditRecordedEvent, (data, { envelope }) => copy.record(envelope.id, data))],
  });
}
