/**
 * Servers (spec 001 §2 create server and settings, §4, §7): create (the API key is shown in this answer
 * and never again), rename (admin+), API-key reset (owner; the old key stops working at once).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DuplicateKeyError } from '@skald/ports';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from '../context.ts';
import { generateApiKey, sha256Hex } from '../opaque-tokens.ts';
import { CreateServerBody, RenameServerBody, ServerIdQuery } from '../schemas.ts';
import { requireServerAccess } from '../server-access.ts';
import type { MembershipDoc, ServerDoc } from '../store.ts';
import { membershipId } from '../store.ts';

export const NAME_REQUIRED = 'Give the server a name!';
export const NAME_TAKEN = 'That server name is already taken.';
export const SERVER_RENAMED = 'Server name updated.';

function cleanName(raw: string): string {
  // Collapse inner whitespace so "My  Server" and "My Server" cannot both exist.
  return raw.trim().replace(/\s+/g, ' ');
}

export async function registerServerRoutes(app: FastifyInstance, ctx: AuthContext): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;

  typed.post('/server/servers', { schema: { body: CreateServerBody } }, async (request, reply) => {
    const user = await ctx.currentUser(request);
    const name = cleanName(request.body.name);
    if (name === '') throw new HttpError(400, NAME_REQUIRED);
    const nameLower = name.toLowerCase();
    if ((await store.servers.findOne({ nameLower })) !== null) throw new HttpError(409, NAME_TAKEN);
    const apiKey = generateApiKey();
    const now = new Date().toISOString();
    const server: ServerDoc = {
      _id: randomUUID(),
      name,
      nameLower,
      ownerId: user._id,
      tier: 'free',
      suspended: false,
      keyHash: sha256Hex(apiKey),
      createdAt: now,
    };
    try {
      await store.servers.insertOne(server);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new HttpError(409, NAME_TAKEN);
      throw err;
    }
    const owner: MembershipDoc = { _id: membershipId(server._id, user._id), serverId: server._id, userId: user._id, role: 'owner', createdAt: now };
    await store.memberships.insertOne(owner);
    await ctx.events.publish(
      [
        { type: 'server.created.v1', data: { serverId: server._id, name, ownerId: user._id, tier: 'free', suspended: false, createdAt: now } },
        { type: 'apikey.rotated.v1', data: { serverId: server._id, keyHash: server.keyHash, previousKeyHash: null } },
        { type: 'membership.added.v1', data: { serverId: server._id, userId: user._id, role: 'owner' } },
      ],
      { actorId: user._id, actorEmail: user.email, serverId: server._id, action: 'server.created', details: { name } },
    );
    return reply.code(201).send({ id: server._id, name, api_key: apiKey });
  });

  typed.patch('/settings/server-name', { schema: { body: RenameServerBody } }, async (request) => {
    const user = await ctx.currentUser(request);
    const { server } = await requireServerAccess(store, user._id, request.body.serverId, 'admin');
    const name = cleanName(request.body.newName);
    if (name === '') throw new HttpError(400, NAME_REQUIRED);
    const nameLower = name.toLowerCase();
    const holder = await store.servers.findOne({ nameLower });
    if (holder !== null && holder._id !== server._id) throw new HttpError(409, NAME_TAKEN);
    try {
      await store.servers.updateOne({ _id: server._id }, { $set: { name, nameLower } });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new HttpError(409, NAME_TAKEN);
      throw err;
    }
    await ctx.events.publish([{ type: 'server.renamed.v1', data: { serverId: server._id, name } }], {
      actorId: user._id,
      actorEmail: user.email,
      serverId: server._id,
      action: 'server.renamed',
      details: { from: server.name, to: name },
    });
    return { message: SERVER_RENAMED, id: server._id, name };
  });

  typed.post('/settings/api-key/reset', { schema: { querystring: ServerIdQuery } }, async (request) => {
    const user = await ctx.currentUser(request);
    const { server } = await requireServerAccess(store, user._id, request.query.serverId, 'owner');
    const apiKey = generateApiKey();
    const keyHash = sha256Hex(apiKey);
    await store.servers.updateOne({ _id: server._id }, { $set: { keyHash } });
    await ctx.events.publish([{ type: 'apikey.rotated.v1', data: { serverId: server._id, keyHash, previousKeyHash: server.keyHash } }], {
      actorId: user._id,
      actorEmail: user.email,
      serverId: server._id,
      action: 'apikey.rotated',
      details: 'API key reset',
    });
    return { apiKey };
  });
}
