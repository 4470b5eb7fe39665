/**
 * Publishes identity facts as the auth service would (same events, same partition keys), so a service
 * under test learns servers, API keys, tiers and memberships through its own consumers.
 */
import type { EventBus } from '@skald/ports';
import {
  ApiKeyRotatedEvent,
  DEFAULT_SITE_ROLE,
  MembershipAddedEvent,
  MembershipRemovedEvent,
  ServerCreatedEvent,
  ServerSuspensionChangedEvent,
  ServerTierChangedEvent,
  UserRegisteredEvent,
  UserSessionsRevokedEvent,
  hashApiKey,
  identityMessage,
} from '@skald/contracts';
import type { ServerRole, SiteRole } from '@skald/contracts';

export interface SeedServer {
  readonly serverId: string;
  readonly ownerId: string;
  readonly name?: string;
  readonly tier?: string;
  readonly suspended?: boolean;
  /** Plain API key; its hash is published as the server's current key. */
  readonly apiKey?: string;
}

export interface IdentitySeeder {
  user(userId: string, role?: SiteRole): Promise<void>;
  /** server.created, the owner's membership and (with apiKey) apikey.rotated. */
  server(server: SeedServer): Promise<void>;
  member(serverId: string, userId: string, role: ServerRole): Promise<void>;
  removeMember(serverId: string, userId: string): Promise<void>;
  tier(serverId: string, tier: string): Promise<void>;
  suspended(serverId: string, suspended: boolean): Promise<void>;
  rotateKey(serverId: string, apiKey: string, previousApiKey?: string): Promise<void>;
  revokeSessions(userId: string, tokenVersion: number): Promise<void>;
}

export function createIdentitySeeder(bus: EventBus): IdentitySeeder {
  return {
    async user(userId, role = DEFAULT_SITE_ROLE) {
      await bus.publish([
        identityMessage(UserRegisteredEvent, { userId, username: userId, email: `${userId}@skald.test`, role, createdAt: new Date().toISOString() }),
      ]);
    },
    async server(server) {
      const { serverId, ownerId } = server;
      await bus.publish([
        identityMessage(ServerCreatedEvent, {
          serverId,
          name: server.name ?? serverId,
          ownerId,
          tier: server.tier ?? 'free',
          suspended: server.suspended ?? false,
          createdAt: new Date().toISOString(),
        }),
        identityMessage(MembershipAddedEvent, { serverId, userId: ownerId, role: 'owner' }),
        ...(server.apiKey === undefined
          ? []
          : [identityMessage(ApiKeyRotatedEvent, { serverId, keyHash: hashApiKey(server.apiKey), previousKeyHash: null })]),
      ]);
    },
    async member(serverId, userId, role) {
      await bus.publish([identityMessage(MembershipAddedEvent, { serverId, userId, role })]);
    },
    async removeMember(serverId, userId) {
      await bus.publish([identityMessage(MembershipRemovedEvent, { serverId, userId })]);
    },
    async tier(serverId, tier) {
      await bus.publish([identityMessage(ServerTierChangedEvent, { serverId, tier })]);
    },
    async suspended(serverId, suspended) {
      await bus.publish([identityMessage(ServerSuspensionChangedEvent, { serverId, suspended })]);
    },
    async rotateKey(serverId, apiKey, previousApiKey) {
      await bus.publish([
        identityMessage(ApiKeyRotatedEvent, {
          serverId,
          keyHash: hashApiKey(apiKey),
          previousKeyHash: previousApiKey === undefined ? null : hashApiKey(previousApiKey),
        }),
      ]);
    },
    async revokeSessions(userId, tokenVersion) {
      await bus.publish([identityMessage(UserSessionsRevokedEvent, { userId, tokenVersion, reason: 'test' })]);
    },
  };
}
