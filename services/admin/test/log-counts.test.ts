/**
 * The logs service's figures in the admin area: its history facts (logs.server-counts, once a minute per
 * changed server, into the read model's store) and its live facts (logs.server-counts-live, every few
 * seconds, observed by every replica and kept in its memory); the two topics are read independently, so the
 * fact counted last wins whichever arrives last, in /admin/stats and /admin/servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogsServerCountsEvent, LogsServerCountsLiveEvent, MembershipAddedEvent, ServerCreatedEvent, UserRegisteredEvent, eventMessage, identityMessage } from '@skald/contracts';
import type { LogsServerCounts } from '@skald/contracts';
import type { AdminServerList, AdminStats } from '@skald/contracts/api';
import { waitFor } from '@skald/testing';
import { createHarness, getAs } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

let h: Harness;
const today = new Date().toISOString().slice(0, 10);
const counted = (seconds: number) => new Date(Date.UTC(2026, 2, 15, 12, 0, seconds)).toISOString();
const facts = (serverId: string, logs: number, countedAt: string): LogsServerCounts => ({ serverId, logs, photoLogs: 1, days: [{ date: today, logs, photoLogs: 1 }], countedAt });

/** The server's logCount in /admin/servers; undefined until the moderator and the server are in the read model. */
async function logCountOf(serverId: string): Promise<number | undefined> {
  const res = await getAs(h, '/admin/servers', 'u-mod');
  return res.statusCode === 200 ? res.json<AdminServerList>().servers.find((s) => s.id === serverId)?.logCount : undefined;
}

beforeAll(async () => {
  h = await createHarness();
  await h.deps.bus.publish([
    identityMessage(UserRegisteredEvent, { userId: 'u-mod', username: 'mod', email: 'mod@example.com', role: 'moderator', createdAt: counted(0) }),
    ...['c-1', 'c-marker'].flatMap((serverId) => [
      identityMessage(ServerCreatedEvent, { serverId, name: `Server ${serverId}`, ownerId: 'u-owner', tier: 'free', suspended: false, createdAt: counted(0) }),
      identityMessage(MembershipAddedEvent, { serverId, userId: 'u-owner', role: 'owner' }),
    ]),
  ]);
  await waitFor(async () => (await logCountOf('c-marker')) === 0, 'the servers in the read model');
});
afterAll(async () => h.close());

describe('log counts from the history and the live facts', () => {
  it('a live fact shows in /admin/servers and /admin/stats', async () => {
    await h.deps.bus.publish([eventMessage(LogsServerCountsLiveEvent, 'c-1', facts('c-1', 7, counted(10)))]);
    await waitFor(async () => (await logCountOf('c-1')) === 7, 'the live fact in /admin/servers');
    const stats = (await getAs(h, '/admin/stats', 'u-mod')).json<AdminStats>();
    expect(stats.totalLogs).toBe(7);
    expect(stats.totalPhotoLogs).toBe(1);
    expect(stats.logsPerDay.at(-1)).toEqual({ date: today, count: 7 });
  });

  it('an older fact arriving later changes nothing; a later one of either topic does', async () => {
    // The history fact counted before the live one (the minute job read the store earlier), delivered after it.
    // The marker fact behind it on the same topic says it was handled.
    await h.deps.bus.publish([
      eventMessage(LogsServerCountsEvent, 'c-1', facts('c-1', 3, counted(5))),
      eventMessage(LogsServerCountsEvent, 'c-marker', facts('c-marker', 1, counted(5))),
    ]);
    await waitFor(async () => (await logCountOf('c-marker')) === 1, 'the marker fact behind the older one');
    expect(await logCountOf('c-1')).toBe(7);

    await h.deps.bus.publish([eventMessage(LogsServerCountsEvent, 'c-1', facts('c-1', 9, counted(20)))]);
    await waitFor(async () => (await logCountOf('c-1')) === 9, 'the later history fact');
    // Two history facts out of order (a redelivery): the store keeps the later.
    await h.deps.bus.publish([
      eventMessage(LogsServerCountsEvent, 'c-1', facts('c-1', 4, counted(15))),
      eventMessage(LogsServerCountsEvent, 'c-marker', facts('c-marker', 2, counted(15))),
    ]);
    await waitFor(async () => (await logCountOf('c-marker')) === 2, 'the marker fact behind the redelivered one');
    expect(await logCountOf('c-1')).toBe(9);
    await h.deps.bus.publish([eventMessage(LogsServerCountsLiveEvent, 'c-1', facts('c-1', 0, counted(30)))]);
    await waitFor(async () => (await logCountOf('c-1')) === 0, 'the later live fact (a cleanup)');
    expect((await getAs(h, '/admin/stats', 'u-mod')).json<AdminStats>().totalLogs).toBe(2);
  });
});
