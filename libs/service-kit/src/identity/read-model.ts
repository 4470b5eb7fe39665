/**
 * Identity read model: the part of the auth service's state every other service needs, rebuilt from
 * identity events into the consuming service's OWN DocumentStore (services never read the auth
 * database). Answers: a user's role on a server, a server's name/tier/suspension, whether an access
 * token has been revoked, and a user's servers.
 *
 * Each event carries full new values ("set", never "add"), and per-key ordering of the bus keeps a
 * server's (or a user's) events in publish order, so applying a redelivered event again is harmless
 * and a consumer group added later that replays TOPICS.identity from the start (a history topic)
 * ends in the owner's current state.
 *
 * API keys are not here: ingestion's KeyDirectory is the one read model of key hash -> server.
 */
import type { Collection, DocumentStore, EventBus, Subscription } from '@skald/ports';
import {
  DEFAULT_SITE_ROLE,
  MembershipAddedEvent,
  MembershipRemovedEvent,
  MembershipRoleChangedEvent,
  ServerCreatedEvent,
  ServerDeletedEvent,
  ServerOwnerChangedEvent,
  ServerRenamedEvent,
  ServerSuspensionChangedEvent,
  ServerTierChangedEvent,
  TOPICS,
  UserActiveChangedEvent,
  UserRegisteredEvent,
  UserSessionsRevokedEvent,
  UserSiteRoleChangedEvent,
  UserUpdatedEvent,
  on,
  siteRoleFrom,
  subscribeEvents,
} from '@skald/contracts';
import type { ServerRole, SiteRole } from '@skald/contracts';

export type { ServerRole } from '@skald/contracts';

export interface ServerView {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly tier: string;
  readonly suspended: boolean;
}

export interface MembershipView {
  readonly serverId: string;
  readonly userId: string;
  readonly role: ServerRole;
}

/** The claim fields the revocation check needs (the service kit's access-token claims satisfy this). */
export interface RevocableClaims {
  readonly sub: string;
  readonly tv: number;
}

/** What the server-role guards need: the caller's role on a server (owner, admin, user or none). */
export interface ServerRoleSource {
  roleOf(userId: string, serverId: string): Promise<ServerRole | null>;
}

export interface IdentityReadModel extends ServerRoleSource {
  /** Subscribes to TOPICS.identity with the model's consumer group. */
  start(): Promise<void>;
  stop(): Promise<void>;
  server(serverId: string): Promise<ServerView | null>;
  serversOf(userId: string): Promise<MembershipView[]>;
  membersOf(serverId: string): Promise<MembershipView[]>;
  siteRoleOf(userId: string): Promise<SiteRole | null>;
  /** The user's e-mail as last announced (audit entries name the acting user), or null when unknown. */
  emailOf(userId: string): Promise<string | null>;
  /** True when the user is disabled or the token predates the user's last session revocation. */
  isRevoked(claims: RevocableClaims): Promise<boolean>;
}

export interface IdentityReadModelOptions {
  readonly bus: EventBus;
  readonly docs: DocumentStore;
  /** Consumer group, unique per consuming service, e.g. `logs.identity`. */
  readonly group: string;
  /** Collection name prefix inside the service's store. Default `identity_`. */
  readonly collectionPrefix?: string;
}

interface ServerDoc {
  readonly _id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly tier: string;
  readonly suspended: boolean;
}

interface MembershipDoc {
  readonly _id: string;
  readonly serverId: string;
  readonly userId: string;
  readonly role: ServerRole;
}

interface UserDoc {
  readonly _id: string;
  readonly active: boolean;
  readonly minTokenVersion: number;
  readonly siteRole: SiteRole;
  /** Absent in documents written before the read model kept e-mails. */
  readonly email?: string;
}

function membershipId(serverId: string, userId: string): string {
  return `${serverId}:${userId}`;
}

function toServerView(doc: ServerDoc): ServerView {
  return { id: doc._id, name: doc.name, ownerId: doc.ownerId, tier: doc.tier, suspended: doc.suspended };
}

function toMembershipView(doc: MembershipDoc): MembershipView {
  return { serverId: doc.serverId, userId: doc.userId, role: doc.role };
}

export async function createIdentityReadModel(options: IdentityReadModelOptions): Promise<IdentityReadModel> {
  const prefix = options.collectionPrefix ?? 'identity_';
  const servers: Collection<ServerDoc> = await options.docs.collection<ServerDoc>(`${prefix}servers`);
  const memberships: Collection<MembershipDoc> = await options.docs.collection<MembershipDoc>(`${prefix}memberships`, [
    { fields: ['userId'] },
    { fields: ['serverId'] },
  ]);
  const users: Collection<UserDoc> = await options.docs.collection<UserDoc>(`${prefix}users`);
  let subscription: Subscription | null = null;

  async function upsertUser(userId: string, set: Partial<Omit<UserDoc, '_id'>>): Promise<void> {
    const existing = await users.findOne({ _id: userId });
    if (existing === null) {
      await users.updateOne({ _id: userId }, { $set: { active: true, minTokenVersion: 0, siteRole: DEFAULT_SITE_ROLE, ...set } }, { upsert: true });
    } else {
      await users.updateOne({ _id: userId }, { $set: set });
    }
  }

  async function setMembership(data: { serverId: string; userId: string; role: ServerRole }): Promise<void> {
    await memberships.updateOne(
      { _id: membershipId(data.serverId, data.userId) },
      { $set: { serverId: data.serverId, userId: data.userId, role: data.role } },
      { upsert: true },
    );
  }

  const handlers = [
    on(UserRegisteredEvent, (data) => upsertUser(data.userId, { siteRole: data.role, email: data.email })),
    on(UserUpdatedEvent, (data) => upsertUser(data.userId, { email: data.email })),
    on(UserSessionsRevokedEvent, async (data) => {
      const current = await users.findOne({ _id: data.userId });
      // Never lower the bar: a redelivered older revocation must not revive tokens.
      await upsertUser(data.userId, { minTokenVersion: Math.max(current?.minTokenVersion ?? 0, data.tokenVersion) });
    }),
    on(UserSiteRoleChangedEvent, (data) => upsertUser(data.userId, { siteRole: data.role })),
    on(UserActiveChangedEvent, (data) => upsertUser(data.userId, { active: data.active })),
    on(ServerCreatedEvent, async (data) => {
      await servers.updateOne(
        { _id: data.serverId },
        { $set: { name: data.name, ownerId: data.ownerId, tier: data.tier, suspended: data.suspended } },
        { upsert: true },
      );
    }),
    on(ServerRenamedEvent, async (data) => {
      await servers.updateOne({ _id: data.serverId }, { $set: { name: data.name } });
    }),
    on(ServerDeletedEvent, async (data) => {
      await servers.deleteOne({ _id: data.serverId });
      await memberships.deleteMany({ serverId: data.serverId });
    }),
    on(ServerOwnerChangedEvent, async (data) => {
      await servers.updateOne({ _id: data.serverId }, { $set: { ownerId: data.ownerId } });
    }),
    on(ServerTierChangedEvent, async (data) => {
      await servers.updateOne({ _id: data.serverId }, { $set: { tier: data.tier } });
    }),
    on(ServerSuspensionChangedEvent, async (data) => {
      await servers.updateOne({ _id: data.serverId }, { $set: { suspended: data.suspended } });
    }),
    on(MembershipAddedEvent, setMembership),
    on(MembershipRoleChangedEvent, setMembership),
    on(MembershipRemovedEvent, async (data) => {
      await memberships.deleteOne({ _id: membershipId(data.serverId, data.userId) });
    }),
  ] as const;

  return {
    async start() {
      if (subscription !== null) return;
      await options.bus.ensureTopics([TOPICS.identity]);
      subscription = await subscribeEvents(options.bus, { group: options.group, handlers });
    },
    async stop() {
      const current = subscription;
      subscription = null;
      if (current !== null) await current.stop();
    },
    async roleOf(userId, serverId) {
      const doc = await memberships.findOne({ _id: membershipId(serverId, userId) });
      return doc?.role ?? null;
    },
    async server(serverId) {
      const doc = await servers.findOne({ _id: serverId });
      return doc === null ? null : toServerView(doc);
    },
    async serversOf(userId) {
      return (await memberships.find({ userId })).map(toMembershipView);
    },
    async membersOf(serverId) {
      return (await memberships.find({ serverId })).map(toMembershipView);
    },
    async siteRoleOf(userId) {
      // Documents written before the default role's rename may still say `staff` (events are upgraded on read).
      return siteRoleFrom((await users.findOne({ _id: userId }))?.siteRole);
    },
    async emailOf(userId) {
      return (await users.findOne({ _id: userId }))?.email ?? null;
    },
    async isRevoked(claims) {
      const user = await users.findOne({ _id: claims.sub });
      if (user === null) return false;
      return !user.active || claims.tv < user.minTokenVersion;
    },
  };
}
