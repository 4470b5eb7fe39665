/**
 * Publishing identity and audit events in the event framework's envelope:
 * header `event-type: <name>.v<version>`, payload `{ type, version, id, occurredAt, data }`.
 */
import { randomUUID } from 'node:crypto';
import type { EventBus, PublishInput } from '@skald/ports';
import { AuditRecordedEvent, TOPICS, isAuditRecorded, parseIdentityEvent } from '@skald/contracts';
import type { AuditRecorded, IdentityEvent } from '@skald/contracts';

function splitType(type: string): { name: string; version: number } {
  const match = /^(.*)\.v(\d+)$/.exec(type);
  if (!match || match[1] === undefined || match[2] === undefined) throw new Error(`bad event type ${type}`);
  return { name: match[1], version: Number(match[2]) };
}

function envelope(topic: string, key: string, type: string, data: unknown): PublishInput {
  const { name, version } = splitType(type);
  const id = randomUUID();
  return {
    topic,
    key,
    id,
    headers: { 'event-type': type },
    payload: { type: name, version, id, occurredAt: new Date().toISOString(), data },
  };
}

/** Partition key: server events by serverId, user events by userId (see identity.ts). */
function keyOf(event: IdentityEvent): string {
  const data: { serverId?: string; userId?: string } = event.data;
  return data.serverId ?? data.userId ?? 'identity';
}

export interface AuditInput {
  readonly actorId: string;
  readonly actorEmail: string;
  readonly serverId: string | null;
  readonly action: string;
  readonly details: AuditRecorded['details'];
}

export interface IdentityPublisher {
  /** Publishes the identity events and the audit entry together; resolves once the bus has them durably. */
  publish(events: readonly IdentityEvent[], audit?: AuditInput): Promise<void>;
}

export function createIdentityPublisher(bus: EventBus): IdentityPublisher {
  return {
    async publish(events, audit) {
      const messages = events.map((event) => {
        // Validate at the source: a producer bug fails loudly here instead of dead-lettering everywhere.
        const checked = parseIdentityEvent(event.type, event.data);
        if (typeof checked === 'string') throw new TypeError(`refusing to publish invalid event ${checked}`);
        return envelope(TOPICS.identity, keyOf(event), event.type, event.data);
      });
      if (audit !== undefined) {
        const data: AuditRecorded = { ...audit, at: new Date().toISOString() };
        if (!isAuditRecorded(data)) throw new TypeError(`refusing to publish invalid audit entry ${audit.action}`);
        messages.push(envelope(TOPICS.audit, audit.serverId ?? audit.actorId, `${AuditRecordedEvent.name}.v${AuditRecordedEvent.version}`, data));
      }
      if (messages.length > 0) await bus.publish(messages);
    },
  };
}
