/**
 * A bug found in production, its second part: while a consumer re-published every role change it consumed,
 * the whole process stopped (its /health probe timed out after 5 s), because the embedded bus handed
 * each new message to the consumer without ever giving timers and sockets a turn.
 *
 * Here the old bouncing consumer is put back on purpose, as a consumer of this test (auth's own one
 * never re-publishes, see site-role-races.test.ts), and the auth service must keep answering over a
 * real socket while it runs; once the bouncer stops, auth settles on the last role published.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, UserSiteRoleChangedEvent, identityMessage, on, subscribeEvents } from '@skald/contracts';
import type { UserSiteRoleChanged } from '@skald/contracts';
import { eventData, registerAndLogin, startHarness, waitFor } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const ROLE_CHANGED = UserSiteRoleChangedEvent.type;
/** How long the storm runs before the test stops it. */
const STORM_MS = 1_000;
/** Bounds the storm by wall clock even if the process is starved, so the test fails instead of hanging. */
const VALVE_MS = 10_000;

let h: Harness;
let baseUrl: string;
beforeAll(async () => {
  h = await startHarness();
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h.close();
});

function roleChangesOf(userId: string): UserSiteRoleChanged[] {
  return h.published
    .filter((m) => m.topic === TOPICS.identity && m.key === userId && m.headers['event-type'] === ROLE_CHANGED)
    .map((m) => eventData<UserSiteRoleChanged>(m));
}

describe('a consumer that re-publishes what it consumes (the old defect, put back by the test)', () => {
  it('does not stop the process: HTTP and timers keep answering, and the role settles once it stops', async () => {
    const u = await registerAndLogin(h);
    const valveAt = Date.now() + VALVE_MS;
    let valveTripped = false;
    let bounced = 0;
    const bouncer = await subscribeEvents(h.bus, {
      group: 'test.identity-storm.bouncer',
      handlers: [
        on(UserSiteRoleChangedEvent, async (change) => {
          if (change.userId !== u.id) return;
          if (Date.now() > valveAt) {
            valveTripped = true;
            return;
          }
          bounced++;
          // The defect: a consumed change published again as a new one (flipped, as two racing promotions did).
          const role = change.role === 'admin' ? 'moderator' : 'admin';
          await h.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId: u.id, role })]);
        }),
      ],
    });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    let answers = 0;
    let probing = true;
    const prober = (async () => {
      while (probing) {
        // Any answer proves the server's socket is served; /auth/me without a token is a quick 401.
        const response = await fetch(`${baseUrl}/auth/me`).catch(() => null);
        if (response !== null && (await response.text()).length > 0) answers++;
      }
    })();
    try {
      await h.bus.publish([identityMessage(UserSiteRoleChangedEvent, { userId: u.id, role: 'admin' })]);
      await new Promise((resolve) => setTimeout(resolve, STORM_MS));
      // Counts, not timings: a starved process gets no answer and (almost) no tick until the valve.
      await waitFor(() => valveTripped || (bounced >= 20 && ticks >= 20 && answers >= 10), 'the storm, timers and HTTP answers', VALVE_MS);
      expect(valveTripped, `the process was starved (${ticks} ticks, ${answers} HTTP answers, ${bounced} bounces)`).toBe(false);
    } finally {
      probing = false;
      clearInterval(ticker);
      await prober;
      await bouncer.stop();
    }

    // The bouncer is gone, and stop() waited for its last publish: the seed plus one per bounce is all
    // there will ever be, and auth, which re-publishes nothing, applies the last of them.
    const total = bounced + 1;
    await waitFor(() => roleChangesOf(u.id).length >= total, 'every role change to be captured');
    const last = roleChangesOf(u.id)[total - 1]!.role;
    await waitFor(async () => (await h.store.users.findOne({ _id: u.id }))?.siteRole === last, 'auth to apply the last role published');
    // A fixed wait, kept on purpose: it proves no further role change is captured, and nothing signals that none will be.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(roleChangesOf(u.id)).toHaveLength(total);
    expect((await h.store.users.findOne({ _id: u.id }))?.siteRole).toBe(last);
  });
});
