/**
 * Identity events (auth service -> every service's read model), all on TOPICS.identity.
 *
 * Partition key: the server id for server, API-key and membership events; the user id for
 * user events. Messages with the same key arrive in publish order, so a read model can apply
 * them as "set state" operations (every event carries the full new value, never a delta), which
 * also makes redelivery harmless.
 *
 * Wire format (the event framework's envelope): header `event-type: <name>.v<version>` and
 * payload `{ type, version, id, occurredAt, data }`, where `data` matches the schema below.
 *
 * keyHash: SHA-256 hex of the API key. Keys carry 256 bits of randomness, so a fast unsalted
 * hash is safe (no brute force is possible) and lets ingestion look a key up by its hash.
 */
import Type from 'typebox';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { TOPICS } from '../topics.ts';

export const SERVER_ROLES = ['owner', 'admin', 'user'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

export const SITE_ROLES = ['staff', 'moderator', 'admin', 'superadmin'] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

export function isServerRole(value: unknown): value is ServerRole {
  return typeof value === 'string' && (SERVER_ROLES as readonly string[]).includes(value);
}

export function isSiteRole(value: unknown): value is SiteRole {
  return typeof value === 'string' && (SITE_ROLES as readonly string[]).includes(value);
}

const Id = Type.String({ minLength: 1, maxLength: 64 });
const IsoTime = Type.String({ minLength: 1, maxLength: 40 });
const ServerRoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('user')]);
const SiteRoleSchema = Type.Union([Type.Literal('staff'), Type.Literal('moderator'), Type.Literal('admin'), Type.Literal('superadmin')]);
const TierSchema = Type.String({ minLength: 1, maxLength: 32 });
const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$' });

function event<const N extends string, S extends TSchema>(name: N, schema: S) {
  return { name, version: 1 as const, topic: TOPICS.identity, schema } as const;
}

export const UserRegisteredEvent = event(
  'user.registered',
  Type.Object(
    { userId: Id, username: Type.String(), email: Type.String(), role: SiteRoleSchema, createdAt: IsoTime },
    { additionalProperties: false },
  ),
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
);
export const UserActiveChangedEvent = event(
  'user.active-changed',
  Type.Object({ userId: Id, active: Type.Boolean() }, { additionalProperties: false }),
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
export type ServerCreated = Static<typeof ServerCreatedEvent.schema>;
export type ServerRenamed = Static<typeof ServerRenamedEvent.schema>;
export type ServerDeleted = Static<typeof ServerDeletedEvent.schema>;
export type ServerTierChanged = Static<typeof ServerTierChangedEvent.schema>;
export type ServerSuspensionChanged = Static<typeof ServerSuspensionChangedEvent.schema>;
export type ApiKeyRotated = Static<typeof ApiKeyRotatedEvent.schema>;
export type MembershipAdded = Static<typeof MembershipAddedEvent.schema>;
export type MembershipRoleChanged = Static<typeof MembershipRoleChangedEvent.schema>;
export type MembershipRemoved = Static<typeof MembershipRemovedEvent.schema>;

/** Every identity event: the discriminated union a consumer switches on (`type` is `<name>.v<version>`). */
export type IdentityEvent =
  | { readonly type: 'user.registered.v1'; readonly data: UserRegistered }
  | { readonly type: 'user.updated.v1'; readonly data: UserUpdated }
  | { readonly type: 'user.sessions-revoked.v1'; readonly data: UserSessionsRevoked }
  | { readonly type: 'user.site-role-changed.v1'; readonly data: UserSiteRoleChanged }
  | { readonly type: 'user.active-changed.v1'; readonly data: UserActiveChanged }
  | { readonly type: 'server.created.v1'; readonly data: ServerCreated }
  | { readonly type: 'server.renamed.v1'; readonly data: ServerRenamed }
  | { readonly type: 'server.deleted.v1'; readonly data: ServerDeleted }
  | { readonly type: 'server.tier-changed.v1'; readonly data: ServerTierChanged }
  | { readonly type: 'server.suspension-changed.v1'; readonly data: ServerSuspensionChanged }
  | { readonly type: 'apikey.rotated.v1'; readonly data: ApiKeyRotated }
  | { readonly type: 'membership.added.v1'; readonly data: MembershipAdded }
  | { readonly type: 'membership.role-changed.v1'; readonly data: MembershipRoleChanged }
  | { readonly type: 'membership.removed.v1'; readonly data: MembershipRemoved };

export type IdentityEventType = IdentityEvent['type'];

export const IDENTITY_EVENTS = [
  UserRegisteredEvent,
  UserUpdatedEvent,
  UserSessionsRevokedEvent,
  UserSiteRoleChangedEvent,
  UserActiveChangedEvent,
  ServerCreatedEvent,
  ServerRenamedEvent,
  ServerDeletedEvent,
  ServerTierChangedEvent,
  ServerSuspensionChangedEvent,
  ApiKeyRotatedEvent,
  MembershipAddedEvent,
  MembershipRoleChangedEvent,
  MembershipRemovedEvent,
] as const;

const validators: ReadonlyMap<string, ReturnType<typeof Compile>> = new Map(
  IDENTITY_EVENTS.map((e) => [`${e.name}.v${e.version}`, Compile(e.schema)] as const),
);

export function isIdentityEventType(type: string): type is IdentityEventType {
  return validators.has(type);
}

/**
 * Validates `data` for an identity event type. Returns the typed event, or an error text
 * (for the dead-letter reason) when the data does not match the schema.
 */
export function parseIdentityEvent(type: IdentityEventType, data: unknown): IdentityEvent | string {
  const validator = validators.get(type);
  if (validator === undefined) return `unknown identity event ${type}`;
  if (!validator.Check(data)) {
    const first = validator.Errors(data)[0];
    return first ? `${type}: ${first.instancePath || '/'} ${first.message}` : `${type}: invalid data`;
  }
  // The validator just proved `data` matches the schema of `type`; TypeScript cannot relate the
  // runtime map lookup to the union member, hence this one cast.
  return { type, data } as IdentityEvent;
}
