import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyRotatedEvent, hashApiKey, on, subscribeEvents } from '@skald/contracts';
import type { Subscription } from '@skald/ports';
import { createIdentityReadModel } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';
import { addMember, bearer, createServer, json, registerAndLogin, startHarness, uniqueName, waitFor } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;
let readModel: IdentityReadModel;
/** An ingestion-style key lookup: its own consumer group, the current key hash of each server. */
const currentKeyHash = new Map<string, string>();
let keyConsumer: Subscription;
function serverByKeyHash(keyHash: string): string | null {
  for (const [serverId, current] of currentKeyHash) if (current === keyHash) return serverId;
  return null;
}

beforeAll(async () => {
  h = await startHarness();
  // Consumers exactly like another service's: their own groups, their own state.
  readModel = await createIdentityReadModel({ bus: h.bus, docs: h.docs, group: 'test.logs-like', collectionPrefix: 'rm_' });
  await readModel.start();
  keyConsumer = await subscribeEvents(h.bus, {
    group: 'test.ingestion-like',
    handlers: [
      on(ApiKeyRotatedEvent, async (rotated) => {
        currentKeyHash.set(rotated.serverId, rotated.keyHash);
      }),
    ],
  });
});
afterAll(async () => {
  await keyConsumer.stop();
  await readModel.stop();
  await h.close();
});

describe('POST /server/servers', () => {
  it('creates a server owned by the caller; the API key is in this answer only (stored hashed)', async () => {
    const owner = await registerAndLogin(h);
    const name = `  ${uniqueName('My Server ')}  `;
    const res = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(owner.token), payload: { name } });
    expect(res.statusCode).toBe(201);
    const body = json<{ id: string; name: string; api_key: string }>(res);
    expect(body.name).toBe(name.trim());
    expect(body.api_key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    const stored = await h.store.servers.findOne({ _id: body.id });
    expect(stored).toMatchObject({ ownerId: owner.id, tier: 'free', suspended: false, keyHash: hashApiKey(body.api_key) });
    expect(JSON.stringify(stored)).not.toContain(body.api_key);
    const me = json<{ servers: unknown[] }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(owner.token) }));
    expect(me.servers).toEqual([{ id: body.id, name: body.name, role: 'owner' }]);
    expect(JSON.stringify(me)).not.toContain(body.api_key);
    // One audit entry for the person's change, with actor, server, action, details and time.
    await waitFor(() => h.published.some((m) => m.headers['event-type'] === 'audit.recorded.v1' && (m.payload as { data: { serverId: string } }).data.serverId === body.id));
    const audit = h.published.find((m) => m.headers['event-type'] === 'audit.recorded.v1' && (m.payload as { data: { serverId: string } }).data.serverId === body.id);
    expect((audit?.payload as { data: unknown }).data).toMatchObject({ actorId: owner.id, actorEmail: owner.email, action: 'server.created', details: { name: body.name } });
    expect(audit?.topic).toBe('skald.audit.v1');
    // server.created, the first key and the owner membership are published for the read models.
    const types = () => h.published.filter((m) => m.key === body.id && m.topic === 'skald.identity.v1').map((m) => m.headers['event-type']);
    await waitFor(() => types().length >= 3);
    expect(types()).toEqual(['server.created.v1', 'apikey.rotated.v1', 'membership.added.v1']);
  });

  it("refuses a taken name (any case) with 409 'That server name is already taken.'", async () => {
    const a = await registerAndLogin(h);
    const b = await registerAndLogin(h);
    const first = await createServer(h, a);
    const res = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(b.token), payload: { name: first.name.toUpperCase() } });
    expect(res.statusCode).toBe(409);
    expect(json(res)).toEqual({ error: 'That server name is already taken.', message: 'That server name is already taken.' });
  });

  it("refuses an empty name with 'Give the server a name!' and ignores/refuses owner, tier and id fields", async () => {
    const a = await registerAndLogin(h);
    const empty = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(a.token), payload: { name: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(json(empty)['error']).toBe('Give the server a name!');
    const name = uniqueName('mass');
    const mass = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(a.token), payload: { name, tier: 'legend', ownerId: 'x', id: 'chosen' } });
    if (mass.statusCode === 201) {
      const stored = await h.store.servers.findOne({ nameLower: name.toLowerCase() });
      expect(stored).toMatchObject({ tier: 'free', ownerId: a.id });
      expect(stored!._id).not.toBe('chosen');
    } else {
      expect(mass.statusCode).toBe(400);
    }
    const op = await h.app.inject({ method: 'POST', url: '/server/servers', headers: bearer(a.token), payload: { name: { $ne: null } } });
    expect(op.statusCode).toBe(400);
  });

  it('needs a signed-in user', async () => {
    expect((await h.app.inject({ method: 'POST', url: '/server/servers', payload: { name: 'x' } })).statusCode).toBe(401);
  });
});

describe('PATCH /settings/server-name', () => {
  it('renames for admin and owner, refuses a taken name and an empty one', async () => {
    const owner = await registerAndLogin(h);
    const admin = await registerAndLogin(h);
    const server = await createServer(h, owner);
    const other = await createServer(h, owner);
    await addMember(h, owner, server.id, admin, 'admin');
    const newName = uniqueName('Renamed ');
    const ok = await h.app.inject({ method: 'PATCH', url: '/settings/server-name', headers: bearer(admin.token), payload: { serverId: server.id, newName } });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toMatchObject({ message: 'Server name updated.', name: newName });
    const taken = await h.app.inject({ method: 'PATCH', url: '/settings/server-name', headers: bearer(owner.token), payload: { serverId: server.id, newName: other.name } });
    expect(taken.statusCode).toBe(409);
    expect(json(taken)['error']).toBe('That server name is already taken.');
    const empty = await h.app.inject({ method: 'PATCH', url: '/settings/server-name', headers: bearer(owner.token), payload: { serverId: server.id, newName: '' } });
    expect(empty.statusCode).toBe(400);
    expect(json(empty)['error']).toBe('Give the server a name!');
    await waitFor(async () => (await readModel.server(server.id))?.name === newName);
  });
});

describe('POST /settings/api-key/reset', () => {
  it('answers a new key once; the old key stops working at once in the ingestion-style read model', async () => {
    const owner = await registerAndLogin(h);
    const server = await createServer(h, owner);
    const oldHash = hashApiKey(server.api_key);
    await waitFor(() => serverByKeyHash(oldHash) === server.id);
    const res = await h.app.inject({ method: 'POST', url: `/settings/api-key/reset?serverId=${server.id}`, headers: bearer(owner.token) });
    expect(res.statusCode).toBe(200);
    const { apiKey } = json<{ apiKey: string }>(res);
    expect(apiKey).toMatch(/^sk_/);
    expect(apiKey).not.toBe(server.api_key);
    expect((await h.store.servers.findOne({ _id: server.id }))?.keyHash).toBe(hashApiKey(apiKey));
    await waitFor(() => serverByKeyHash(hashApiKey(apiKey)) === server.id);
    expect(serverByKeyHash(oldHash)).toBeNull();
    const rotated = h.published.find((m) => m.headers['event-type'] === 'apikey.rotated.v1' && (m.payload as { data: { keyHash: string } }).data.keyHash === hashApiKey(apiKey));
    expect((rotated?.payload as { data: { previousKeyHash: string } }).data.previousKeyHash).toBe(oldHash);
    expect(JSON.stringify(h.published.map((m) => m.payload))).not.toContain(apiKey);
  });
});
