/**
 * The service kit's identity read model and server-role guards on the real embedded adapters (SQLite
 * documents, the SQLite bus journal) from the test kit. Tests share one model and run in order (later
 * tests build on earlier events). Events are published as raw envelopes on purpose: the model must also
 * dead-letter what a broken producer sends.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@skald/contracts';
import { checkServerRole, createIdentityReadModel, requireServerRole } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';
import { createTestDeps, waitFor } from '../src/index.ts';
import type { TestDeps } from '../src/index.ts';

const until = (check: () => Promise<boolean>) => waitFor(check, 'the read model');

const HASH_A = 'a'.repeat(64);

{
  describe('identity read model (embedded adapters)', () => {
    let harness: TestDeps;
    let model: IdentityReadModel;
    let seq = 0;

    function publish(type: string, key: string, data: Record<string, unknown>) {
      seq += 1;
      const [eventName, version] = [type.replace(/\.v\d+$/, ''), Number(type.split('.v').pop())];
      return harness.bus.publish([{ topic: TOPICS.identity, key, headers: { 'event-type': type }, payload: { type: eventName, version, id: `e${seq}`, occurredAt: new Date().toISOString(), data } }]);
    }

    beforeAll(async () => {
      harness = await createTestDeps();
      model = await createIdentityReadModel({ bus: harness.bus, docs: harness.docs, group: 'test.identity' });
      await model.start();
      await publish('server.created.v1', 's1', { serverId: 's1', name: 'One', ownerId: 'u1', tier: 'free', suspended: false, createdAt: new Date().toISOString() });
      await publish('apikey.rotated.v1', 's1', { serverId: 's1', keyHash: HASH_A, previousKeyHash: null });
      await publish('membership.added.v1', 's1', { serverId: 's1', userId: 'u1', role: 'owner' });
      await publish('membership.added.v1', 's1', { serverId: 's1', userId: 'u2', role: 'admin' });
      await publish('membership.added.v1', 's1', { serverId: 's1', userId: 'u3', role: 'user' });
      await until(async () => (await model.roleOf('u3', 's1')) === 'user');
    });
    afterAll(async () => {
      await model.stop();
      await harness.cleanup();
    });

    describe('identity read model', () => {
      it('answers roles, servers and memberships from events', async () => {
        expect(await model.roleOf('u1', 's1')).toBe('owner');
        expect(await model.roleOf('u2', 's1')).toBe('admin');
        expect(await model.roleOf('u9', 's1')).toBeNull();
        expect(await model.server('s1')).toEqual({ id: 's1', name: 'One', ownerId: 'u1', tier: 'free', suspended: false });
        expect((await model.serversOf('u2')).map((m) => m.serverId)).toEqual(['s1']);
        expect(await model.membersOf('s1')).toHaveLength(3);
      });

      it('follows renames, tier and suspension changes, role changes and removals', async () => {
        await publish('server.renamed.v1', 's1', { serverId: 's1', name: 'Uno' });
        await publish('server.tier-changed.v1', 's1', { serverId: 's1', tier: 'pro' });
        await publish('server.suspension-changed.v1', 's1', { serverId: 's1', suspended: true });
        await publish('membership.role-changed.v1', 's1', { serverId: 's1', userId: 'u3', role: 'admin' });
        await publish('membership.removed.v1', 's1', { serverId: 's1', userId: 'u2' });
        await until(async () => (await model.roleOf('u2', 's1')) === null);
        expect(await model.server('s1')).toMatchObject({ name: 'Uno', tier: 'pro', suspended: true });
        expect(await model.roleOf('u3', 's1')).toBe('admin');
      });

      it("follows a server's owner after a transfer (server.owner-changed)", async () => {
        await publish('server.created.v1', 's-owned', { serverId: 's-owned', name: 'Owned', ownerId: 'first', tier: 'free', suspended: false, createdAt: new Date().toISOString() });
        await until(async () => (await model.server('s-owned'))?.ownerId === 'first');
        await publish('server.owner-changed.v1', 's-owned', { serverId: 's-owned', ownerId: 'next' });
        await until(async () => (await model.server('s-owned'))?.ownerId === 'next');
        expect(await model.server('s-owned')).toEqual({ id: 's-owned', name: 'Owned', ownerId: 'next', tier: 'free', suspended: false });
      });

      it("keeps each user's e-mail from user.registered and user.updated (audit entries name the actor)", async () => {
        expect(await model.emailOf('u7')).toBeNull();
        await publish('user.registered.v1', 'u7', { userId: 'u7', username: 'seven', email: 'seven@skald.test', role: 'admin', createdAt: new Date().toISOString() });
        await until(async () => (await model.emailOf('u7')) === 'seven@skald.test');
        await publish('user.updated.v1', 'u7', { userId: 'u7', username: 'seven', email: 'new7@skald.test', twoFactorEnabled: true });
        await until(async () => (await model.emailOf('u7')) === 'new7@skald.test');
        expect(await model.siteRoleOf('u7')).toBe('admin');
      });

      it('revokes tokens below the token version and of disabled users; never lowers the bar', async () => {
        expect(await model.isRevoked({ sub: 'u1', tv: 0 })).toBe(false);
        await publish('user.sessions-revoked.v1', 'u1', { userId: 'u1', tokenVersion: 2, reason: 'password-changed' });
        await until(async () => model.isRevoked({ sub: 'u1', tv: 1 }));
        expect(await model.isRevoked({ sub: 'u1', tv: 2 })).toBe(false);
        // An older revocation redelivered must not revive tv=1 tokens.
        await publish('user.sessions-revoked.v1', 'u1', { userId: 'u1', tokenVersion: 1, reason: 'logout' });
        await publish('user.site-role-changed.v1', 'u1', { userId: 'u1', role: 'moderator' });
        await until(async () => (await model.siteRoleOf('u1')) === 'moderator');
        expect(await model.isRevoked({ sub: 'u1', tv: 1 })).toBe(true);
        await publish('user.active-changed.v1', 'u1', { userId: 'u1', active: false });
        await until(async () => model.isRevoked({ sub: 'u1', tv: 5 }));
      });

      it('dead-letters an invalid identity event and keeps applying later ones; ignores unknown event types', async () => {
        await publish('membership.added.v1', 's2', { serverId: 's2', userId: 'u5', role: 'emperor' });
        await publish('something.else.v1', 's2', { whatever: true });
        await publish('membership.added.v1', 's2', { serverId: 's2', userId: 'u6', role: 'user' });
        await until(async () => (await model.roleOf('u6', 's2')) === 'user');
        expect(await model.roleOf('u5', 's2')).toBeNull();
      });
    });

    describe('checkServerRole and requireServerRole', () => {
      it('answers 401 without user, 404 for non-members, 403 below the role, ok at or above it', async () => {
        await publish('membership.added.v1', 's3', { serverId: 's3', userId: 'owner3', role: 'owner' });
        await publish('membership.added.v1', 's3', { serverId: 's3', userId: 'user3', role: 'user' });
        await until(async () => (await model.roleOf('user3', 's3')) === 'user');
        expect(await checkServerRole(model, null, 's3', 'user')).toMatchObject({ ok: false, statusCode: 401 });
        expect(await checkServerRole(model, 'stranger', 's3', 'user')).toMatchObject({ ok: false, statusCode: 404, error: 'Server not found.' });
        expect(await checkServerRole(model, 'user3', 's3', 'admin')).toMatchObject({ ok: false, statusCode: 403 });
        expect(await checkServerRole(model, 'owner3', 's3', 'admin')).toEqual({ ok: true, role: 'owner' });

        const app = Fastify();
        app.addHook('onRequest', async (request) => {
          const sub = request.headers['x-test-user'];
          if (typeof sub === 'string') Object.assign(request, { user: { sub } });
        });
        app.decorateRequest('serverAccess', null);
        app.get('/things', { preHandler: requireServerRole(model, 'admin') }, async (request) => ({ access: request.serverAccess }));
        app.get('/things/:id', { preHandler: requireServerRole(model, 'user') }, async () => ({ ok: true }));
        const call = (url: string, user?: string) => app.inject({ method: 'GET', url, headers: user ? { 'x-test-user': user } : {} });
        expect((await call('/things?serverId=s3')).statusCode).toBe(401);
        expect((await call('/things?serverId=s3', 'stranger')).statusCode).toBe(404);
        expect((await call('/things?serverId=s3', 'stranger')).json()).toEqual({ error: 'Server not found.', message: 'Server not found.' });
        expect((await call('/things?serverId=s3', 'user3')).statusCode).toBe(403);
        expect((await call('/things?serverId=s3', 'owner3')).json()).toEqual({ access: { serverId: 's3', role: 'owner' } });
        expect((await call('/things/s3', 'user3')).statusCode).toBe(200);
        expect((await call('/things', 'owner3')).statusCode).toBe(404);
        await app.close();
      });
    });
  });
}
