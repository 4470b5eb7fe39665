/**
 * A bug found in production: the auth service re-published every user.site-role-changed it
 * consumed, so two concurrent `users:promote` runs made the role bounce between their values (38,937
 * messages in 10 s). A consumed change is now applied to auth's own record only; the topic order decides
 * the value, and every copy (auth's store, the other services' read models) settles on the last one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, UserSiteRoleChangedEvent, identityMessage } from '@skald/contracts';
import type { UserSessionsRevoked, UserSiteRoleChanged } from '@skald/contracts';
import type { BusMessage, Subscription } from '@skald/ports';
import { createIdentityReadModel } from '@skald/service-kit';
import type { IdentityReadModel } from '@skald/service-kit';
import { promoteUser } from '../src/index.ts';
import { bearer, eventData, json, registerAndLogin, startHarness, waitFor } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const ROLE_CHANGED = UserSiteRoleChangedEvent.type;
const SESSIONS_REVOKED = 'user.sessions-revoked.v1';

/** Far above the bound the test asserts; reaching it means the consumer is bouncing. */
const RUNAWAY = 200;

let h: Harness;
let readModel: IdentityReadModel;
let breaker: Subscription;
let runaway = false;
beforeAll(async () => {
  h = await startHarness();
  // Another service's view of the same topic, to check that it settles on the same value.
  readModel = await createIdentityReadModel({ bus: h.bus, docs: h.docs, group: 'test.role-races', collectionPrefix: 'race_' });
  await readModel.start();
  // A bouncing consumer would flood the topic for good (the bus keeps timers running since it yields
  // between pages, see identity-storm.test.ts): this consumer stops the auth service once the flood is
  // unmistakable, so the test fails on its count at once instead of after the settling timeout.
  const perUser = new Map<string, number>();
  breaker = await h.bus.subscribe({
    group: 'test.role-races.breaker',
    topics: [TOPICS.identity],
    handler: async (message) => {
      const count = (perUser.get(message.key) ?? 0) + 1;
      perUser.set(message.key, count);
      if (count > RUNAWAY && !runaway) {
        runaway = true;
        await h.service.stop();
      }
    },
  });
});
afterAll(async () => {
  await breaker.stop();
  await readModel.stop();
  await h.close();
});

function identityMessagesOf(userId: string): BusMessage[] {
  return h.published.filter((m) => m.topic === TOPICS.identity && m.key === userId);
}

function ofType(messages: readonly BusMessage[], type: string): BusMessage[] {
  return messages.filter((m) => m.headers['event-type'] === type);
}

/** Waits until the count has not moved for `quietMs` (a bouncing consumer never gets there). */
async function settled(count: () => number, quietMs = 600, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = count();
  let stableSince = Date.now();
  while (Date.now() - stableSince < quietMs) {
    if (Date.now() > deadline) throw new Error(`still publishing after ${timeoutMs} ms (${count()} messages)`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = count();
    if (now !== last) {
      last = now;
      stableSince = Date.now();
    }
  }
}

describe('concurrent site-role changes for one user', () => {
  it('two promotions at once plus a consumed change settle on one value with a bounded number of messages', async () => {
    const u = await registerAndLogin(h);
    await Promise.all([
      promoteUser(h.docs, h.bus, u.username, 'superadmin'),
      promoteUser(h.docs, h.bus, u.username, 'admin'),
      // The admin area (another publisher) changes the same user at the same moment.
      h.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId: u.id, role: 'moderator' })]),
    ]);
    await waitFor(() => ofType(identityMessagesOf(u.id), ROLE_CHANGED).length >= 3, 'the three role changes');
    await settled(() => identityMessagesOf(u.id).length);

    expect(runaway, 'the auth consumer kept re-publishing role changes').toBe(false);
    const messages = identityMessagesOf(u.id);
    const roleChanges = ofType(messages, ROLE_CHANGED);
    // Only the three decisions are role changes: the consumer re-published none of them.
    expect(roleChanges).toHaveLength(3);
    // user.registered, the sign-in's user.signed-in, 2 x (role change + revocation) from the promotions, the
    // admin-area change, and at most one revocation per consumed change that really changed auth's record.
    expect(messages.length).toBeLessThanOrEqual(2 + 4 + 1 + 3);

    // One value everywhere: the last role change in topic order.
    const settledRole = eventData<UserSiteRoleChanged>(roleChanges[roleChanges.length - 1]!).role;
    const stored = await h.store.users.findOne({ _id: u.id });
    expect(stored?.siteRole).toBe(settledRole);
    await waitFor(async () => (await readModel.siteRoleOf(u.id)) === settledRole, 'the read model to apply the last role');

    // The newest revocation carries auth's token version, so a fresh sign-in works here and elsewhere.
    const versions = ofType(messages, SESSIONS_REVOKED).map((m) => eventData<UserSessionsRevoked>(m).tokenVersion);
    expect(Math.max(...versions)).toBe(stored?.tokenVersion);
    const login = json<{ token: string }>(await h.app.inject({ method: 'POST', url: '/auth/login', payload: { username: u.username, password: u.password } }));
    const me = json<{ user: { role: string } }>(await h.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(login.token) }));
    expect(me.user.role).toBe(settledRole);
    await waitFor(async () => !(await readModel.isRevoked({ sub: u.id, tv: stored?.tokenVersion ?? -1 })), 'the read model to accept the current version');
  });

  it('a consumed change that changes nothing publishes nothing', async () => {
    const u = await registerAndLogin(h);
    // Already staff: nothing to apply. The real change after it (same key, so delivered after) shows it was consumed.
    await h.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId: u.id, role: 'user' })]);
    await h.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId: u.id, role: 'moderator' })]);
    await waitFor(async () => (await h.store.users.findOne({ _id: u.id }))?.siteRole === 'moderator', 'the moderator role');
    await settled(() => identityMessagesOf(u.id).length);
    const revocations = ofType(identityMessagesOf(u.id), SESSIONS_REVOKED).map((m) => eventData<UserSessionsRevoked>(m));
    expect(revocations).toEqual([{ userId: u.id, tokenVersion: 1, reason: 'site-role-changed' }]);
    expect(ofType(identityMessagesOf(u.id), ROLE_CHANGED)).toHaveLength(2);
  });
});
