/**
 * Servers (docs/spec/part-2.txt sections 2 "Create new server", "Server settings" and 4): create (the API key is shown once and never
 * again), rename, API-key rotation (the old key stops working at once). Who may do what is declared
 * on the routes (requireServerRole); these rules assume the caller passed that check.
 */
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError } from '@skald/ports';
import {
  ApiKeyRotatedEvent,
  MembershipAddedEvent,
  ServerCreatedEvent,
  ServerRenamedEvent,
  hashApiKey,
  identityMessage,
} from '@skald/contracts';
import type { ApiKeyResetAnswer, CreateServerAnswer, RenameServerAnswer } from '@skald/contracts/api';
import { HttpError, SERVER_NOT_FOUND } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { generateApiKey } from './opaque-tokens.ts';
import { membershipId } from './store.ts';
import type { AuthStore, MembershipDoc, ServerDoc, UserDoc } from './store.ts';

export const NAME_REQUIRED = 'Give the server a name!';
export const NAME_TAKEN = 'That server name is already taken.';
export const SERVER_RENAMED = 'Server name updated.';

type ServerContext = Pick<AuthContext, 'store' | 'events'>;

/** Collapses inner whitespace so "My  Server" and "My Server" cannot both exist; 400 when nothing is left. */
function cleanName(raw: string): { name: string; nameLower: string } {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name === '') throw new HttpError(400, NAME_REQUIRED);
  return { name, nameLower: name.toLowerCase() };
}

/** The server doc behind a checked server access (404 as for a non-member if it is gone). */
export async function loadServer(store: Pick<AuthStore, 'servers'>, serverId: string): Promise<ServerDoc> {
  const server = await store.servers.findOne({ _id: serverId });
  if (server === null) throw new HttpError(404, SERVER_NOT_FOUND);
  return server;
}

/** Creates a free, active server owned by the user, with its first API key and the owner membership. */
export async function createServer(ctx: ServerContext, owner: UserDoc, rawName: string): Promise<CreateServerAnswer> {
  const { store } = ctx;
  const { name, nameLower } = cleanName(rawName);
  if ((await store.servers.findOne({ nameLower })) !== null) throw new HttpError(409, NAME_TAKEN);
  const apiKey = generateApiKey();
  const now = new Date().toISOString();
  const server: ServerDoc = {
    _id: randomUUID(),
    name,
    nameLower,
    ownerId: owner._id,
    tier: 'free',
    suspended: false,
    keyHash: hashApiKey(apiKey),
    createdAt: now,
  };
  try {
    await store.servers.insertOne(server);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw new HttpError(409, NAME_TAKEN);
    throw err;
  }
  const membership: MembershipDoc = { _id: membershipId(server._id, owner._id), serverId: server._id, userId: owner._id, role: 'owner', createdAt: now };
  await store.memberships.insertOne(membership);
  await ctx.events.publish(
    [
      identityMessage(ServerCreatedEvent, { serverId: server._id, name, ownerId: owner._id, tier: 'free', suspended: false, createdAt: now }),
      identityMessage(ApiKeyRotatedEvent, { serverId: server._id, keyHash: server.keyHash, previousKeyHash: null }),
      identityMessage(MembershipAddedEvent, { serverId: server._id, userId: owner._id, role: 'owner' }),
    ],
    { actorId: owner._id, actorEmail: owner.email, serverId: server._id, action: 'server.created', details: { name } },
  );
  return { id: server._id, name, api_key: apiKey };
}

export async function renameServer(ctx: ServerContext, actor: UserDoc, serverId: string, rawName: string): Promise<RenameServerAnswer> {
  const { store } = ctx;
  const server = await loadServer(store, serverId);
  const { name, nameLower } = cleanName(rawName);
  const holder = await store.servers.findOne({ nameLower });
  if (holder !== null && holder._id !== server._id) throw new HttpError(409, NAME_TAKEN);
  try {
    await store.servers.updateOne({ _id: server._id }, { $set: { name, nameLower } });
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw new HttpError(409, NAME_TAKEN);
    throw err;
  }
  await ctx.events.publish([identityMessage(ServerRenamedEvent, { serverId: server._id, name })], {
    actorId: actor._id,
    actorEmail: actor.email,
    serverId: server._id,
    action: 'server.renamed',
    details: { from: server.name, to: name },
  });
  return { message: SERVER_RENAMED, id: server._id, name };
}

/** A new API key, answered once; only its hash is stored and published. */
export async function rotateApiKey(ctx: ServerContext, actor: UserDoc, serverId: string): Promise<ApiKeyResetAnswer> {
  const server = await loadServer(ctx.store, serverId);
  const apiKey = generateApiKey();
  const keyHash = hashApiKey(apiKey);
  await ctx.store.servers.updateOne({ _id: server._id }, { $set: { keyHash } });
  await ctx.events.publish([identityMessage(ApiKeyRotatedEvent, { serverId: server._id, keyHash, previousKeyHash: server.keyHash })], {
    actorId: actor._id,
    actorEmail: actor.email,
    serverId: server._id,
    action: 'apikey.rotated',
    details: 'API key reset',
  });
  return { apiKey };
}
