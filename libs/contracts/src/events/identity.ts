/**
 * Identity events (auth service -> every service's read model), all on TOPICS.identity.
 *
 * Partition key: the server id for server, API-key and membership events; the user id for
 * user events. Messages with the same key arrive in publish order, so a read model can apply
 * them as "set state" operations (every event carries the full new value, never a delta), which
 * also makes redelivery harmless.
 *
 * Defined, published and consumed with the event framework (framework.ts): `defineEvent` here,
 * `identityMessage` (= `eventMessage` with the partition key taken from the data) to publish,
 * `subscribeEvents(bus, { group, handlers: [on(ServerCreatedEvent, ...)] })` to consume.
 * TOPICS.identity is a history topic (topics.ts): a consumer group added later replays it from the
 * start, so every event must stay a "set the full value" fact.
 *
 * keyHash: SHA-256 hex of the API key. Keys carry 256 bits of randomness, so a fast unsalted
 * hash is safe (no brute force is possible) and lets ingestion look a key up by its hash.
 */
import Type from 'typebox';
import type { Static, TSchema } from 'typebox';
import type { PublishInput } from '@skald/ports';
import { TOPICS } from '../topics.ts';
import { DEFAULT_SITE_ROLE, FORMER_DEFAULT_SITE_ROLE, SITE_ROLES } from '../roles.ts';
import { defineEvent, eventMessage } from './framework.ts';
import type { EventData, EventDescriptor, EventMessageOptions } from './framework.ts';

export { DEFAULT_SITE_ROLE, FORMER_DEFAULT_SITE_ROLE, SERVER_ROLES, SITE_ROLES, isServerRole, isSiteRole, siteRoleFrom } from '../roles.ts';
export type { ServerRole, SiteRole } from '../roles.ts';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const IsoTime = Type.String({ minLength: 1, maxLength: 40 });
const ServerRoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('user')]);
const SiteRoleSchema = Type.Enum(SITE_ROLES);
const TierSchema = Type.String({ minLength: 1, maxLength: 32 });
const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$' });

function event<const N extends string, S extends TSchema>(name: N, schema: S, upgrade?: (data: unknown) => unknown) {
  return defineEvent({ name, version: 1, topic: TOPICS.identity, schema, ...(upgrade === undefined ? {} : { upgrade }) });
}

/**
 * Events carrying a site role published before the default role was renamed say `staff`: they read as
 * today's name (TOPICS.identity is replayed from the start by every new consumer group).
 */
function withTodaysSiteRole(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || !('role' in data) || data.role !== FORMER_DEFAULT_SITE_ROLE) return data;
  return { ...data, role: DEFAULT_SITE_ROLE };
}

export const UserRegisteredEvent = event(
  'user.registered',
  Type.Object(
    { userId: Id, username: Type.String(), email: Type.String(), role: SiteRoleSchema, createdAt: IsoTime },
    { additionalProperties: false },
  ),
  withTodaysSiteRole,
);
/** Username, e-mail or 2FA state changed (full current values). */
export const UserUpdatedEvent = event(
  'user.updated',
  Type.Object(
    { userId: Id, username: Type.String(), email: Type.String(), twoFactorEnabled: Type.Boolean() },
    { additionalProperties: false },
  ),
);
/** Every access token of the user with `tv` below tokenVersion is dead (password/2FA change, logout, disable, role change). */
export const UserSessionsRevokedEvent = event(
  'user.sessions-revoked',
  Type.Object(
    { userId: Id, tokenVersion: Type.Integer({ minimum: 0 }), reason: Type.String({ maxLength: 64 }) },
    { additionalProperties: false },
  ),
);
export const UserSiteRoleChangedEvent = event(
  'user.site-role-changed',
  Type.Object({ userId: Id, role: SiteRoleSchema }, { additionalProperties: false }),
  withTodaysSiteRole,
);
export const UserActiveChangedEvent = event(
  'user.active-changed',
  Type.Object({ userId: Id, active: Type.Boolean() }, { additionalProperties: false }),
);
/** The user signed in (password, or password and 2FA): the time of the last successful sign-in, a full value. */
export const UserSignedInEvent = event(
  'user.signed-in',
  Type.Object({ userId: Id, at: IsoTime }, { additionalProperties: false }),
);
export const ServerCreatedEvent = event(
  'server.created',
  Type.Object(
    {
      serverId: Id,
      name: Type.String(),
      ownerId: Id,
      tier: TierSchema,
      suspended: Type.Boolean(),
      createdAt: IsoTime,
    },
    { additionalProperties: false },
  ),
);
export const ServerRenamedEvent = event(
  'server.renamed',
  Type.Object({ serverId: Id, name: Type.String() }, { additionalProperties: false }),
);
export const ServerDeletedEvent = event('server.deleted', Type.Object({ serverId: Id }, { additionalProperties: false }));
/**
 * The server has another owner (staff handed it over): a full value, published by auth in the same batch as
 * the two membership role changes, so a read model that keeps a server's owner follows it.
 */
export const ServerOwnerChangedEvent = event(
  'server.owner-changed',
  Type.Object({ serverId: Id, ownerId: Id }, { additionalProperties: false }),
);
/** May be published by billing or admin; the auth service and every read model apply it. */
export const ServerTierChangedEvent = event(
  'server.tier-changed',
  Type.Object({ serverId: Id, tier: TierSchema }, { additionalProperties: false }),
);
/** May be published by billing or admin; the auth service and every read model apply it. */
export const ServerSuspensionChangedEvent = event(
  'server.suspension-changed',
  Type.Object({ serverId: Id, suspended: Type.Boolean() }, { additionalProperties: false }),
);
/** The server's API key is now the one hashing to keyHash; previousKeyHash (if any) stops working at once. */
export const ApiKeyRotatedEvent = event(
  'apikey.rotated',
  Type.Object(
    { serverId: Id, keyHash: Sha256Hex, previousKeyHash: Type.Union([Sha256Hex, Type.Null()]) },
    { additionalProperties: false },
  ),
);
export const MembershipAddedEvent = event(
  'membership.added',
  Type.Object({ serverId: Id, userId: Id, role: ServerRoleSchema }, { additionalProperties: false }),
);
export const MembershipRoleChangedEvent = event(
  'membership.role-changed',
  Type.Object({ serverId: Id, userId: Id, role: ServerRoleSchema }, { additionalProperties: false }),
);
export const MembershipRemovedEvent = event(
  'membership.removed',
  Type.Object({ serverId: Id, userId: Id }, { additionalProperties: false }),
);

export type UserRegistered = Static<typeof UserRegisteredEvent.schema>;
export type UserUpdated = Static<typeof UserUpdatedEvent.schema>;
export type UserSessionsRevoked = Static<typeof UserSessionsRevokedEvent.schema>;
export type UserSiteRoleChanged = Static<typeof UserSiteRoleChangedEvent.schema>;
export type UserActiveChanged = Static<typeof UserActiveChangedEvent.schema>;
export type UserSignedIn = Static<typeof UserSignedInEvent.schema>;
export type ServerCreated = Static<typeof ServerCreatedEvent.schema>;
export type ServerRenamed = Static<typeof ServerRenamedEvent.schema>;
export type ServerDeleted = Static<typeof ServerDeletedEvent.schema>;
export type ServerOwnerChanged = Static<typeof ServerOwnerChangedEvent.schema>;
export type ServerTierChanged = Static<typeof ServerTierChangedEvent.schema>;
export type ServerSuspensionChanged = Static<typeof ServerSuspensionChangedEvent.schema>;
export type ApiKeyRotated = Static<typeof ApiKeyRotatedEvent.schema>;
export type MembershipAdded = Static<typeof MembershipAddedEvent.schema>;
export type MembershipRoleChanged = Static<typeof MembershipRoleChangedEvent.schema>;
export type MembershipRemoved = Static<typeof MembershipRemovedEvent.schema>;

export const IDENTITY_EVENTS = [
  UserRegisteredEvent,
  UserUpdatedEvent,
  UserSessionsRevokedEvent,
  UserSiteRoleChangedEvent,
  UserActiveChangedEvent,
  UserSignedInEvent,
  ServerCreatedEvent,
  ServerRenamedEvent,
  ServerDeletedEvent,
  ServerTierChangedEvent,
  ServerSuspensionChangedEvent,
  ApiKeyRotatedEvent,
  ServerOwnerChangedEvent,
  MembershipAddedEvent,
  MembershipRoleChangedEvent,
  MembershipRemovedEvent,
] as const;

/**
 * The partition key of an identity event: the server id for server, API-key and membership events,
 * else the user id. Derived from the data so no publisher can choose another one.
 */
export function identityKey(data: { readonly serverId?: string; readonly userId?: string }): string {
  const key = data.serverId ?? data.userId;
  if (key === undefined) throw new TypeError('identity events carry a serverId or a userId');
  return key;
}

/** Builds the bus message of an identity event (validated, keyed by identityKey). */
export function identityMessage<E extends EventDescriptor>(
  event: E,
  data: EventData<E> & { readonly serverId?: string; readonly userId?: string },
  options: EventMessageOptions = {},
): PublishInput {
  return eventMessage(event, identityKey(data), data, options);
}
