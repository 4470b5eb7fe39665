/**
 * A consumer group added later sees the full current state (issue: one event idiom, history for late
 * consumers). The all-in-one runs for a while: users register, servers are created and renamed, keys
 * rotated, tiers and suspensions change (published as billing will), members are added, re-roled and
 * removed, and logs flow on the high-volume topic so the bus has every reason to prune. Then a brand-new
 * identity read model (a new consumer group, like the webhooks, backups, billing or admin services will
 * add) starts on the same bus, and must end equal to the owner's store (the auth service's documents).
 * Run on every bus adapter this machine has: the embedded journal, Redis Streams when reachable, and
 * Kafka on librdkafka's mock cluster when kcat is installed (the mock keeps every message; that a real
 * broker keeps a history topic's is its retention.ms=-1, checked by the Kafka adapter's suite).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig } from '@skald/config';
import { createDocumentStore, createSharedAdapters } from '@skald/adapters';
import type { SharedAdapters } from '@skald/adapters';
import { ServerSuspensionChangedEvent, ServerTierChangedEvent, identityMessage } from '@skald/contracts';
import type { DocumentStore, EventBus } from '@skald/ports';
import { createIdentityReadModel } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';
import { redisReachable, waitFor } from '@skald/testing';
import { buildAllInOne } from '../gateway/src/all-in-one.ts';
import { FAST_PASSWORDS_ENV } from '../gateway/test/support/all-in-one.ts';
import { KAFKA_MOCK_ENV, startKafkaMockCluster } from '../libs/adapters/test/support/kafka-mock-cluster.ts';
import type { RunningProcess } from '../gateway/src/launcher-app.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'Vq7#mZ2!pL9x-Rt4wK';


interface OwnerState {
  readonly servers: { id: string; name: string; ownerId: string; tier: string; suspended: boolean }[];
  readonly memberships: { serverId: string; userId: string; role: string }[];
  readonly users: { id: string; siteRole: string }[];
}

/** The owner's truth, read from the auth service's own store (a test may look; services may not). */
async function ownerState(docs: DocumentStore): Promise<OwnerState> {
  type ServerRow = { _id: string; name: string; ownerId: string; tier: string; suspended: boolean };
  type MemberRow = { _id: string; serverId: string; userId: string; role: string };
  type UserRow = { _id: string; siteRole: string };
  const servers = await (await docs.collection<ServerRow>('servers')).find({});
  const memberships = await (await docs.collection<MemberRow>('memberships')).find({});
  const users = await (await docs.collection<UserRow>('users')).find({});
  return {
    servers: servers.map((s) => ({ id: s._id, name: s.name, ownerId: s.ownerId, tier: s.tier, suspended: s.suspended })).sort((a, b) => a.id.localeCompare(b.id)),
    memberships: memberships.map((m) => ({ serverId: m.serverId, userId: m.userId, role: m.role })).sort((a, b) => `${a.serverId}:${a.userId}`.localeCompare(`${b.serverId}:${b.userId}`)),
    users: users.map((u) => ({ id: u._id, siteRole: u.siteRole })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/**
 * The adapters' own housekeeping, run at once instead of on its timer (memory: prune; Redis: trim).
 * Kafka has none on the client side: the broker applies retention (the mock never deletes).
 */
async function pruneEverythingAllowed(bus: EventBus, kind: BusKind): Promise<void> {
  if (kind === 'kafka') return;
  const housekeeping = bus as EventBus & { prune?: (now: number) => unknown; trim?: () => Promise<void> };
  // Far in the future: past the journal's retention age, so only the history rule can keep a row.
  if (typeof housekeeping.prune === 'function') housekeeping.prune(Date.now() + 30 * 24 * 3600 * 1000);
  else if (typeof housekeeping.trim === 'function') await housekeeping.trim();
  else throw new Error('this bus adapter has no housekeeping hook for the test');
}

/** The same picture as seen by a read model. */
async function modelState(model: IdentityReadModel, owner: OwnerState): Promise<OwnerState> {
  const servers = [];
  for (const s of owner.servers) {
    const view = await model.server(s.id);
    if (view !== null) servers.push({ id: view.id, name: view.name, ownerId: view.ownerId, tier: view.tier, suspended: view.suspended });
  }
  const memberships = [];
  for (const s of owner.servers) memberships.push(...(await model.membersOf(s.id)));
  const users = [];
  for (const u of owner.users) {
    const role = await model.siteRoleOf(u.id);
    if (role !== null) users.push({ id: u.id, siteRole: role });
  }
  return {
    servers,
    memberships: memberships.map((m) => ({ serverId: m.serverId, userId: m.userId, role: m.role })).sort((a, b) => `${a.serverId}:${a.userId}`.localeCompare(`${b.serverId}:${b.userId}`)),
    users,
  };
}

type BusKind = 'memory' | 'redis' | 'kafka';
const kafkaMock = await startKafkaMockCluster();
afterAll(() => kafkaMock.cluster?.stop());
const busKinds: { kind: BusKind; unavailable: string | null }[] = [
  { kind: 'memory', unavailable: null },
  { kind: 'redis', unavailable: (await redisReachable(REDIS_URL)) ? null : `Redis not reachable at ${REDIS_URL}` },
  { kind: 'kafka', unavailable: kafkaMock.cluster === null ? kafkaMock.reason : null },
];

// How long an event published on the bus may take to reach another group's consumer on a loaded machine.
const CONSUMED_WITHIN_MS = 20_000;

for (const { kind, unavailable } of busKinds) {
  if (unavailable !== null) {
    console.log(`skipped: late consumer on the ${kind} bus: ${unavailable}`);
    continue;
  }
  describe(`a consumer group added later, ${kind} bus`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-late-'));
    const prefix = `skaldlate-${randomBytes(5).toString('hex')}`;
    let running: RunningProcess | undefined;
    let shared: SharedAdapters | undefined;

    const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: object) => {
      const response = await running!.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json<Record<string, unknown>>();
    };
    const register = async (name: string): Promise<string> => {
      await call('POST', '/api/auth/register', undefined, { username: name, email: `${name}@late.test`, password: PASSWORD });
      return String((await call('POST', '/api/auth/login', undefined, { username: name, password: PASSWORD })).token);
    };

    beforeAll(async () => {
      const config = loadConfig({
        ...FAST_PASSWORDS_ENV,
        DATA_DIR: join(dir, 'data'),
        LOG_LEVEL: 'silent',
        EVENT_BUS: kind,
        ...(kind === 'redis' ? { REDIS_URL, REDIS_PREFIX: prefix } : {}),
        ...(kind === 'kafka' ? { KAFKA_BROKERS: kafkaMock.cluster!.bootstrap, ...KAFKA_MOCK_ENV } : {}),
      });
      running = await buildAllInOne(config, {
        webDist: join(dir, 'no-web'),
        createAdapters: async (...args) => (shared = await createSharedAdapters(...args)),
      });
      await running.start();
    });

    afterAll(async () => {
      await running?.close();
      if (kind === 'redis') {
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
      rmSync(dir, { recursive: true, force: true });
    });

    // timeout: above the sum of the waits inside, so a loaded machine fails on the wait that ran out, by name
    it('replays the identity history into a new read model equal to the owner', { timeout: 180_000 }, async () => {
      const bus: EventBus = shared!.bus;
      const alice = await register('alice');
      const bob = await register('bob');
      await register('carol');
      const bobId = ((await call('GET', '/api/auth/me', bob)) as { user: { id: string } }).user.id;
      const one = await call('POST', '/api/server/servers', alice, { name: 'Late One' });
      const two = await call('POST', '/api/server/servers', alice, { name: 'Late Two' });
      const oneId = String(one.id);
      const twoId = String(two.id);
      const oneKey = String((await call('POST', `/api/settings/api-key/reset?serverId=${oneId}`, alice)).apiKey);
      await call('PATCH', '/api/settings/server-name', alice, { serverId: twoId, newName: 'Late Two Renamed' });
      // Billing owns tiers and suspensions; it announces them on the identity topic, keyed by server.
      await bus.publish([identityMessage(ServerTierChangedEvent, { serverId: oneId, tier: 'pro' })]);
      await bus.publish([identityMessage(ServerSuspensionChangedEvent, { serverId: twoId, suspended: true })]);
      const ownerDocs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'data', 'auth', 'documents.db') });
      // The owner applies consumed tier changes asynchronously: two members more need the pro tier's room.
      await waitFor(async () => (await ownerState(ownerDocs)).servers.some((s) => s.tier === 'pro'), 'auth to apply the tier', CONSUMED_WITHIN_MS);
      await call('POST', '/api/manage/add-user', alice, { serverId: oneId, email: 'bob@late.test', role: 'admin' });
      await call('POST', '/api/manage/add-user', alice, { serverId: oneId, email: 'carol@late.test', role: 'user' });
      await call('PATCH', `/api/manage/server/${oneId}/users/${bobId}`, alice, { role: 'user' });
      const carol = String((await call('POST', '/api/auth/login', undefined, { username: 'carol', password: PASSWORD })).token);
      const carolId = ((await call('GET', '/api/auth/me', carol)) as { user: { id: string } }).user.id;
      await call('DELETE', `/api/manage/server/${oneId}/users/${carolId}`, alice);
      // High-volume traffic on another topic, so journals and streams prune what every group has passed:
      // accepted logs of server one (not suspended), once ingestion knows its new key.
      const postLog = async (message: string) =>
        (await running!.app.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': oneKey }, payload: { message } })).statusCode;
      await waitFor(async () => (await postLog('first')) === 201, "ingestion to accept server one's new key", CONSUMED_WITHIN_MS);
      for (let i = 0; i < 20; i++) expect(await postLog(`m${i}`)).toBe(201);

      const lateDocs = await createDocumentStore({ kind: 'sqlite', file: join(dir, 'late', 'documents.db') });
      const late = await createIdentityReadModel({ bus, docs: lateDocs, group: `late.identity.${kind}` });
      try {
        await waitFor(async () => (await ownerState(ownerDocs)).servers.some((s) => s.suspended), 'auth to apply the suspension', CONSUMED_WITHIN_MS);
        const owner = await ownerState(ownerDocs);
        // Every existing group has passed every message by now; let the bus drop all it is allowed to.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await pruneEverythingAllowed(bus, kind);
        expect(owner.servers).toHaveLength(2);
        expect(owner.memberships).toHaveLength(3);
        expect(owner.users).toHaveLength(3);
        await late.start();
        let seen: OwnerState | undefined;
        // A new group on the mock Kafka cluster joins, syncs and fetches from the earliest offset: seconds, more under load.
        await waitFor(async () => {
          seen = await modelState(late, owner);
          return JSON.stringify(seen) === JSON.stringify(owner);
        }, `the late read model to equal the owner (last seen ${JSON.stringify(seen)})`, 60_000);
        expect(seen).toEqual(owner);
      } finally {
        await late.stop();
        await lateDocs.close();
        await ownerDocs.close();
      }
    });
  });
}
