/**
 * Staff give a member the owner role (PUT /admin/servers/{id}/users/{userId} {role: 'owner'}, docs/spec/part-2.txt sections 2, 6): the member becomes the owner and the previous owner an admin in one step, audited; a server never
 * has zero or two owners, also when transfers and other member changes race (the real embedded store).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteRole } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import { promoteUser } from '../src/index.ts';
import { createIdentityPublisher, transferOwnership } from '../src/testing.ts';
import { addMember, bearer, createServer, eventData, json, registerAndLogin, startHarness, waitFor } from './support/harness.ts';
import type { Account, Harness } from './support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** An account promoted to the staff role and signed in again so its token carries it. */
async function staffMember(role: Exclude<SiteRole, 'user'>): Promise<Account> {
  const account = await registerAndLogin(h, role);
  await promoteUser(h.docs, h.bus, account.username, role);
  const login = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: account.username, password: account.password } });
  account.token = json<{ token: string }>(login).token;
  return account;
}

/** A server on a tier with room for `members` besides the owner, the members added as users. */
async function serverWith(members: number): Promise<{ id: string; owner: Account; members: Account[] }> {
  const owner = await registerAndLogin(h, 'own');
  const server = await createServer(h, owner);
  await h.store.servers.updateOne({ _id: server.id }, { $set: { tier: 'starter' } });
  const added: Account[] = [];
  for (let i = 0; i < members; i += 1) {
    const member = await registerAndLogin(h, 'mbr');
    await addMember(h, owner, server.id, member, 'user');
    added.push(member);
  }
  return { id: server.id, owner, members: added };
}

const setRole = (caller: Account | null, serverId: string, userId: string, role: string) =>
  h.app.inject({ method: 'PUT', url: `/admin/servers/${serverId}/users/${userId}`, payload: { role }, ...(caller ? { headers: bearer(caller.token) } : {}) });

/** Every member's role in auth's store. */
async function rolesOf(serverId: string): Promise<Map<string, string>> {
  return new Map((await h.store.memberships.find({ serverId })).map((m) => [m.userId, m.role]));
}

/** The members' roles as a read model ends up after applying the published membership events in order. */
function rolesFromEvents(serverId: string): Map<string, string> {
  const roles = new Map<string, string>();
  for (const m of h.published) {
    const type = m.headers['event-type'];
    if (type !== 'membership.added.v1' && type !== 'membership.role-changed.v1' && type !== 'membership.removed.v1') continue;
    const data = eventData<{ serverId: string; userId: string; role?: string }>(m);
    if (data.serverId !== serverId) continue;
    if (type === 'membership.removed.v1') roles.delete(data.userId);
    else roles.set(data.userId, data.role ?? '');
  }
  return roles;
}

const ownersIn = (roles: Map<string, string>): string[] => [...roles].filter(([, role]) => role === 'owner').map(([id]) => id);

interface AuditData {
  readonly action: string;
  readonly serverId: string | null;
  readonly actorId: string;
  readonly actorEmail: string;
  readonly details: Record<string, unknown>;
}

const transferEntries = (serverId: string): AuditData[] =>
  h.published
    .filter((m) => m.headers['event-type'] === 'audit.recorded.v1')
    .map((m) => eventData<AuditData>(m))
    .filter((e) => e.serverId === serverId && e.action === 'staff.ownership-transferred');

describe('ownership transfer by staff', () => {
  it('makes the member the owner and the previous owner an admin, with one audit entry naming all three', async () => {
    const admin = await staffMember('admin');
    const { id, owner, members } = await serverWith(1);
    const next = members[0]!;
    const answer = await setRole(admin, id, next.id, 'owner');
    expect(answer.statusCode).toBe(200);
    expect(json(answer)).toEqual({ message: 'Succesfully changed user role' });
    expect(await rolesOf(id)).toEqual(new Map([[owner.id, 'admin'], [next.id, 'owner']]));
    expect((await h.store.servers.findOne({ _id: id }))?.ownerId).toBe(next.id);
    // The new owner's own view says so at once (auth answers from its store).
    const me = json<{ servers: { id: string; role: string }[] }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(next.token) }));
    expect(me.servers.find((s) => s.id === id)?.role).toBe('owner');
    await waitFor(() => transferEntries(id).length === 1, 'the transfer audit entry');
    expect(transferEntries(id)[0]).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      details: { userId: next.id, email: next.email, from: 'user', previousOwnerId: owner.id, previousOwnerEmail: owner.email, previousOwnerRole: 'admin' },
    });
    await waitFor(() => rolesFromEvents(id).get(next.id) === 'owner', 'the role-changed events');
    expect(rolesFromEvents(id)).toEqual(new Map([[owner.id, 'admin'], [next.id, 'owner']]));
    // The new owner now runs the server's owner routes; the previous owner no longer does.
    expect((await h.app.inject({ method: 'GET', url: `/manage/server/${id}/users`, headers: bearer(next.token) })).statusCode).toBe(200);
    const demoted = await h.app.inject({ method: 'DELETE', url: `/manage/server/${id}/users/${next.id}`, headers: bearer(owner.token) });
    expect(demoted.statusCode).toBe(403);
  });

  it('only admin and superadmin transfer: no token 401, the default role and moderator 403, nothing changes', async () => {
    const { id, owner, members } = await serverWith(1);
    const target = members[0]!;
    const plain = await registerAndLogin(h, 'plain');
    for (const [caller, status] of [
      [null, 401],
      [plain, 403],
      [await staffMember('moderator'), 403],
    ] as const) {
      expect((await setRole(caller, id, target.id, 'owner')).statusCode, caller?.username ?? 'anonymous').toBe(status);
    }
    expect(await rolesOf(id)).toEqual(new Map([[owner.id, 'owner'], [target.id, 'user']]));
    expect((await setRole(await staffMember('superadmin'), id, target.id, 'owner')).statusCode).toBe(200);
    expect(ownersIn(await rolesOf(id))).toEqual([target.id]);
  });

  it('the current owner again changes nothing; a non-member and an unknown server answer 404; the owner is not demoted directly', async () => {
    const admin = await staffMember('admin');
    const { id, owner, members } = await serverWith(1);
    const before = h.published.length;
    const again = await setRole(admin, id, owner.id, 'owner');
    expect(again.statusCode).toBe(200);
    expect(json(again)['message']).toBe('Succesfully changed user role');
    const stranger = await registerAndLogin(h, 'stranger');
    const notMember = await setRole(admin, id, stranger.id, 'owner');
    expect(notMember.statusCode).toBe(404);
    expect(json(notMember)['error']).toBe('That user is not a member of this server.');
    expect((await setRole(admin, 'no-such-server', members[0]!.id, 'owner')).statusCode).toBe(404);
    for (const role of ['admin', 'user']) {
      const refused = await setRole(admin, id, owner.id, role);
      expect(refused.statusCode).toBe(403);
      expect(json(refused)['error']).toBe(
        "The owner's role cannot be changed and the owner cannot be removed. To hand the server over, give another member the owner role: the owner then becomes an admin.",
      );
    }
    expect((await setRole(admin, id, members[0]!.id, 'boss')).statusCode).toBe(400);
    expect(await rolesOf(id)).toEqual(new Map([[owner.id, 'owner'], [members[0]!.id, 'user']]));
    expect(h.published.slice(before).filter((m) => m.headers['event-type'] === 'membership.role-changed.v1')).toEqual([]);
  });

  it('adding a user as owner adds them and moves the ownership to them', async () => {
    const admin = await staffMember('admin');
    const { id, owner } = await serverWith(0);
    const newcomer = await registerAndLogin(h, 'newc');
    const added = await h.app.inject({ method: 'POST', url: `/admin/servers/${id}/users`, headers: bearer(admin.token), payload: { email: newcomer.email, role: 'owner' } });
    expect(added.statusCode).toBe(201);
    expect(json(added)).toMatchObject({ message: 'Succesfully added user to the server', user: { id: newcomer.id, role: 'owner' } });
    expect(await rolesOf(id)).toEqual(new Map([[owner.id, 'admin'], [newcomer.id, 'owner']]));
  });

  it('two concurrent transfers to two members end with exactly one owner and the old owner admin', async () => {
    const admin = await staffMember('admin');
    const superadmin = await staffMember('superadmin');
    for (let round = 0; round < 5; round += 1) {
      const { id, owner, members } = await serverWith(2);
      const [x, y] = [members[0]!, members[1]!];
      const answers = await Promise.all([setRole(admin, id, x.id, 'owner'), setRole(superadmin, id, y.id, 'owner')]);
      const statuses = answers.map((a) => a.statusCode);
      // The loser either saw the winner's change before it read (a second transfer, 200) or its guard missed (409).
      for (const status of statuses) expect([200, 409]).toContain(status);
      expect(statuses).toContain(200);
      for (const a of answers.filter((r) => r.statusCode === 409)) {
        expect(json(a)['error']).toBe("This server's owner or that member changed at the same moment. Reload the users and try again.");
      }
      const roles = await rolesOf(id);
      const owners = ownersIn(roles);
      expect(owners).toHaveLength(1);
      expect([x.id, y.id]).toContain(owners[0]);
      expect(roles.get(owner.id)).toBe('admin');
      expect((await h.store.servers.findOne({ _id: id }))?.ownerId).toBe(owners[0]);
      // What the other services learn settles on the same single owner.
      await waitFor(() => ownersIn(rolesFromEvents(id)).join() === owners.join() && rolesFromEvents(id).get(owner.id) === 'admin', 'the read models to settle');
      expect(transferEntries(id)).toHaveLength(statuses.filter((s) => s === 200).length);
    }
  });

  it('of two transfers that read the same owner at once, one applies and the other answers 409 changing nothing', async () => {
    const admin = await staffMember('admin');
    const actor = await h.store.users.findOne({ _id: admin.id });
    if (actor === null) throw new Error('the staff account is missing');
    const ctx = { store: h.store, events: createIdentityPublisher(h.bus) };
    const { id, owner, members } = await serverWith(2);
    const [x, y] = [members[0]!, members[1]!];
    // Started together, both read the owner and their target before either writes: the guard decides.
    const results = await Promise.allSettled([transferOwnership(ctx, actor, id, x.id), transferOwnership(ctx, actor, id, y.id)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason instanceof HttpError && refused.reason.statusCode).toBe(409);
    const winner = results[0]?.status === 'fulfilled' ? x : y;
    const loser = winner === x ? y : x;
    expect(await rolesOf(id)).toEqual(new Map([[owner.id, 'admin'], [winner.id, 'owner'], [loser.id, 'user']]));
    expect((await h.store.servers.findOne({ _id: id }))?.ownerId).toBe(winner.id);
    await waitFor(() => transferEntries(id).length === 1, 'the one transfer entry');
  });

  it('a transfer racing a demotion or removal of the same member never leaves the server without an owner', async () => {
    const admin = await staffMember('admin');
    for (const other of ['demote', 'remove'] as const) {
      const { id, owner, members } = await serverWith(1);
      const target = members[0]!;
      const competing =
        other === 'demote'
          ? setRole(admin, id, target.id, 'admin')
          : h.app.inject({ method: 'DELETE', url: `/admin/servers/${id}/users/${target.id}`, headers: bearer(admin.token) });
      const [transfer, rival] = await Promise.all([setRole(admin, id, target.id, 'owner'), competing]);
      expect([200, 404, 409]).toContain(transfer.statusCode);
      expect([200, 403, 409]).toContain(rival.statusCode);
      const roles = await rolesOf(id);
      expect(ownersIn(roles), other).toHaveLength(1);
      if (transfer.statusCode === 200) expect(roles.get(owner.id)).toBe('admin');
      else expect(roles.get(owner.id)).toBe('owner');
    }
  });
});
