/**
 * Identity read model: the part of the auth service's state every other service needs,
 * rebuilt from identity events into the consuming service's OWN DocumentStore (services never
 * read the auth database). Answers: a user's role on a server, a server's name/tier/suspension/
 * API-key hash, whether an access token has been revoked, and a user's servers.
 *
 * Each event carries full new values ("set", never "add"), and per-key ordering of the bus keeps
 * a server's (or a user's) events in publish order, so applying a redelivered event again is harmless.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BusMessage, Collection, DocumentStore, EventBus, Subscription } from '@skald/ports';
import { PoisonMessageError } from '@skald/ports';
import { TOPICS, isIdentityEventType, parseIdentityEvent } from '@skald/contracts';
import type { IdentityEvent, ServerRole, SiteRole } from '@skald/contracts';
import { AUTH_REQUIRED_MESSAGE } from './auth-plugin.ts';

export type { ServerRole } from '@skald/contracts';

export interface ServerView {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly tier: string;
  readonly suspended: boolean;
  /** SHA-256 hex of the current API key, or null before the first key event. */
  readonly keyHash: string | null;
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

export interface IdentityReadModel {
  /** Subscribes to TOPICS.identity with the model's consumer group. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Applies one event (used by the subscription; exposed for tests and for the auth service itself). */
  apply(event: IdentityEvent): Promise<void>;
  roleOf(userId: string, serverId: string): Promise<ServerRole | null>;
  server(serverId: string): Promise<ServerView | null>;
  /** The server whose CURRENT API key hashes to keyHash (an old, rotated key finds nothing). */
  serverByKeyHash(keyHash: string): Promise<ServerView | null>;
  serversOf(userId: string): Promise<MembershipView[]>;
  membersOf(serverId: string): Promise<MembershipView[]>;
  siteRoleOf(userId: string): Promise<SiteRole | null>;
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
  readonly keyHash: string | null;
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
}

function membershipId(serverId: string, userId: string): string {
  return `${serverId}:${userId}`;
}

function toServerView(doc: ServerDoc): ServerView {
  return { id: doc._id, name: doc.name, ownerId: doc.ownerId, tier: doc.tier, suspended: doc.suspended, keyHash: doc.keyHash };
}

function toMembershipView(doc: MembershipDoc): MembershipView {
  return { serverId: doc.serverId, userId: doc.userId, role: doc.role };
}

/** Reads the event framework's envelope `{ type, version, id, occurredAt, data }` (header `event-type`). */
export function decodeIdentityMessage(message: BusMessage): IdentityEvent | null {
  const payload = message.payload;
  const envelope = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : null;
  const headerType = message.headers['event-type'];
  const type = headerType ?? (typeof envelope?.['type'] === 'string' && typeof envelope['version'] === 'number' ? `${envelope['type']}.v${envelope['version']}` : undefined);
  if (type === undefined) throw new PoisonMessageError('identity message without event-type');
  // Other publishers share the topic; event types this model does not know are not its business.
  if (!isIdentityEventType(type)) return null;
  const parsed = parseIdentityEvent(type, envelope?.['data']);
  if (typeof parsed === 'string') throw new PoisonMessageError(parsed);
  return parsed;
}

export async function createIdentityReadModel(options: IdentityReadModelOptions): Promise<IdentityReadModel> {
  const prefix = options.collectionPrefix ?? 'identity_';
  const servers: Collection<ServerDoc> = await options.docs.collection<ServerDoc>(`${prefix}servers`, [{ fields: ['keyHash'] }]);
  const memberships: Collection<MembershipDoc> = await options.docs.collection<MembershipDoc>(`${prefix}memberships`, [
    { fields: ['userId'] },
    { fields: ['serverId'] },
  ]);
  const users: Collection<UserDoc> = await options.docs.collection<UserDoc>(`${prefix}users`);
  let subscription: Subscription | null = null;

  async function upsertUser(userId: string, set: Partial<Omit<UserDoc, '_id'>>): Promise<void> {
    const existing = await users.findOne({ _id: userId });
    if (existing === null) {
      await users.updateOne({ _id: userId }, { $set: { active: true, minTokenVersion: 0, siteRole: 'staff', ...set } }, { upsert: true });
    } else {
      await users.updateOne({ _id: userId }, { $set: set });
    }
  }

  async function apply(event: IdentityEvent): Promise<void> {
    switch (event.type) {
      case 'user.registered.v1':
        await upsertUser(event.data.userId, { siteRole: event.data.role });
        return;
      case 'user.updated.v1':
        return;
      case 'user.sessions-revoked.v1': {
        const current = await users.findOne({ _id: event.data.userId });
        // Never lower the bar: a redelivered older revocation must not revive tokens.
        const next = Math.max(current?.minTokenVersion ?? 0, event.data.tokenVersion);
        await upsertUser(event.data.userId, { minTokenVersion: next });
        return;
      }
      case 'user.site-role-changed.v1':
        await upsertUser(event.data.userId, { siteRole: event.data.role });
        return;
      case 'user.active-changed.v1':
        await upsertUser(event.data.userId, { active: event.data.active });
        return;
      case 'server.created.v1': {
        const existing = await servers.findOne({ _id: event.data.serverId });
        await servers.updateOne(
          { _id: event.data.serverId },
          {
            $set: {
              name: event.data.name,
              ownerId: event.data.ownerId,
              tier: event.data.tier,
              suspended: event.data.suspended,
              keyHash: existing?.keyHash ?? null,
            },
          },
          { upsert: true },
        );
        return;
      }
      case 'server.renamed.v1':
        await servers.updateOne({ _id: event.data.serverId }, { $set: { name: event.data.name } });
        return;
      case 'server.deleted.v1':
        await servers.deleteOne({ _id: event.data.serverId });
        await memberships.deleteMany({ serverId: event.data.serverId });
        return;
      case 'server.tier-changed.v1':
        await servers.updateOne({ _id: event.data.serverId }, { $set: { tier: event.data.tier } });
        return;
      case 'server.suspension-changed.v1':
        await servers.updateOne({ _id: event.data.serverId }, { $set: { suspended: event.data.suspended } });
        return;
      case 'apikey.rotated.v1':
        // server.created and apikey.rotated share the server's partition key, so server.created
        // has been applied already; replacing keyHash makes the previous key unknown at once.
        await servers.updateOne({ _id: event.data.serverId }, { $set: { keyHash: event.data.keyHash } });
        return;
      case 'membership.added.v1':
      case 'membership.role-changed.v1':
        await memberships.updateOne(
          { _id: membershipId(event.data.serverId, event.data.userId) },
          { $set: { serverId: event.data.serverId, userId: event.data.userId, role: event.data.role } },
          { upsert: true },
        );
        return;
      case 'membership.removed.v1':
        await memberships.deleteOne({ _id: membershipId(event.data.serverId, event.data.userId) });
        return;
    }
  }

  return {
    apply,
    async start() {
      if (subscription !== null) return;
      await options.bus.ensureTopics([TOPICS.identity]);
      subscription = await options.bus.subscribe({
        group: options.group,
        topics: [TOPICS.identity],
        handler: async (message) => {
          const event = decodeIdentityMessage(message);
          if (event !== null) await apply(event);
        },
      });
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
    async serverByKeyHash(keyHash) {
      if (!/^[0-9a-f]{64}$/.test(keyHash)) return null;
      const doc = await servers.findOne({ keyHash });
      return doc === null ? null : toServerView(doc);
    },
    async serversOf(userId) {
      return (await memberships.find({ userId })).map(toMembershipView);
    },
    async membersOf(serverId) {
      return (await memberships.find({ serverId })).map(toMembershipView);
    },
    async siteRoleOf(userId) {
      return (await users.findOne({ _id: userId }))?.siteRole ?? null;
    },
    async isRevoked(claims) {
      const user = await users.findOne({ _id: claims.sub });
      if (user === null) return false;
      return !user.active || claims.tv < user.minTokenVersion;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server role checks: owner > admin > user. Non-members get 404 (a server of another tenant
// must look like a server that does not exist); members below the required role get 403.
// ---------------------------------------------------------------------------------------------

const ROLE_RANK: Readonly<Record<ServerRole, number>> = { user: 1, admin: 2, owner: 3 };

export function roleAtLeast(role: ServerRole, minRole: ServerRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[minRole];
}

export const SERVER_NOT_FOUND = 'Server not found.';
export const ROLE_TOO_LOW = 'You do not have permission to do this.';

export type ServerRoleCheck =
  | { readonly ok: true; readonly role: ServerRole }
  | { readonly ok: false; readonly statusCode: 401 | 404 | 403; readonly error: string };

/** The function form: decide whether userId may act on serverId with at least minRole. */
export async function checkServerRole(
  model: Pick<IdentityReadModel, 'roleOf'>,
  userId: string | null,
  serverId: string | null,
  minRole: ServerRole,
): Promise<ServerRoleCheck> {
  if (userId === null) return { ok: false, statusCode: 401, error: AUTH_REQUIRED_MESSAGE };
  if (serverId === null || serverId === '') return { ok: false, statusCode: 404, error: SERVER_NOT_FOUND };
  const role = await model.roleOf(userId, serverId);
  if (role === null) return { ok: false, statusCode: 404, error: SERVER_NOT_FOUND };
  if (!roleAtLeast(role, minRole)) return { ok: false, statusCode: 403, error: ROLE_TOO_LOW };
  return { ok: true, role };
}

function stringField(source: unknown, field: string): string | null {
  if (typeof source !== 'object' || source === null) return null;
  const value = (source as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Where a server id usually is: route param `id` or `serverId`, query `serverId`, body `serverId`. */
export function serverIdFromRequest(request: FastifyRequest): string | null {
  return (
    stringField(request.params, 'serverId') ??
    stringField(request.params, 'id') ??
    stringField(request.query, 'serverId') ??
    stringField(request.body, 'serverId')
  );
}

/** The signed-in user's id from `request.user.sub` (set by the service kit's JWT plugin). */
export function userIdFromRequest(request: FastifyRequest): string | null {
  return stringField((request as { user?: unknown }).user, 'sub');
}

export interface RequireServerRoleOptions {
  /** Where the server id comes from; default serverIdFromRequest. */
  readonly serverIdOf?: (request: FastifyRequest) => string | null;
}

/**
 * Fastify preHandler: answers 401 without a user, 404 for non-members (or a missing server id),
 * 403 for members below minRole, in the shared `{ error, message }` shape. Use after the
 * JWT authentication hook, e.g. `{ preHandler: [app.authenticate, requireServerRole(model, 'admin')] }`.
 */
export function requireServerRole(
  model: Pick<IdentityReadModel, 'roleOf'>,
  minRole: ServerRole,
  options: RequireServerRoleOptions = {},
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  const serverIdOf = options.serverIdOf ?? serverIdFromRequest;
  return async (request, reply) => {
    const check = await checkServerRole(model, userIdFromRequest(request), serverIdOf(request), minRole);
    if (check.ok) return undefined;
    // Returning the reply tells Fastify the answer is sent and the handler must not run.
    return reply.code(check.statusCode).send({ error: check.error, message: check.error });
  };
}
