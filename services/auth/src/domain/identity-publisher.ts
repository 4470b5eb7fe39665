/**
 * Publishes the identity events of one change together with its audit entry in ONE bus.publish, so
 * read models and the audit trail see the change whole or not at all. Messages are built by the callers
 * with identityMessage(Event, data) (validated at the source, keyed by server or user id).
 */
import type { EventBus, PublishInput } from '@skald/ports';
import { auditMessage } from '@skald/contracts';
import type { AuditEntryInput } from '@skald/contracts';

/** An audit entry without its time (stamped when published). */
export type AuditInput = Omit<AuditEntryInput, 'at'>;

export interface IdentityPublisher {
  /** Resolves once the bus has the identity events and the audit entry durably. */
  publish(identityEvents: readonly PublishInput[], audit?: AuditInput): Promise<void>;
}

export function createIdentityPublisher(bus: EventBus): IdentityPublisher {
  return {
    async publish(identityEvents, audit) {
      const messages = audit === undefined ? [...identityEvents] : [...identityEvents, auditMessage({ ...audit, at: new Date().toISOString() })];
      if (messages.length > 0) await bus.publish(messages);
    },
  };
}
