/**
 * Feeds the API-key read model (domain/key-directory.ts) from the identity topic. Only the facts that
 * decide whether a key may send logs are handled: the server, its tier, its suspension, its key and its
 * deletion; users, memberships and renames are skipped by subscribeEvents. Malformed events are
 * dead-lettered by the framework (PoisonMessageError), never retried forever.
 */
import {
  ApiKeyRotatedEvent,
  ServerCreatedEvent,
  ServerDeletedEvent,
  ServerSuspensionChangedEvent,
  ServerTierChangedEvent,
  on,
  subscribeEvents,
} from '@skald/contracts';
import type { EventBus, Subscription } from '@skald/ports';
import type { KeyDirectory } from '../domain/key-directory.ts';

/** Consumer group of the API-key read model (one per service, shared by its replicas). */
export const IDENTITY_GROUP = 'ingestion.identity';

export function startIdentityConsumer(bus: EventBus, directory: KeyDirectory): Promise<Subscription> {
  return subscribeEvents(bus, {
    group: IDENTITY_GROUP,
    handlers: [
      on(ServerCreatedEvent, (data) => directory.serverCreated(data)),
      on(ServerTierChangedEvent, (data) => directory.tierChanged(data)),
      on(ServerSuspensionChangedEvent, (data) => directory.suspensionChanged(data)),
      on(ApiKeyRotatedEvent, (data) => directory.keyRotated(data)),
      on(ServerDeletedEvent, (data) => directory.serverDeleted(data)),
    ],
  });
}
