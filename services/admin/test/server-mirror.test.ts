/** Each replica's in-memory copy of the servers (domain/server-mirror.ts): changes, tombstones, another writer's older stamps. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { createOverview, createServerMirror } from '../src/testing.ts';
import type { Overview } from '../src/testing.ts';

let deps: TestDeps;
let overview: Overview;
beforeAll(async () => {
  deps = await createTestDeps({ service: 'admin' });
  overview = await createOverview(deps.docs);
});
afterAll(async () => deps.cleanup());

describe('server mirror', () => {
  it('loads every known server once, then follows changes, deletions and writes stamped a little earlier', async () => {
    let clock = 1_000_000;
    const mirror = createServerMirror(overview, { refreshMs: 1000, overlapMs: 5000, now: () => clock });
    await overview.setServer('a', { known: true, name: 'A' });
    await overview.setServer('b', { known: true, name: 'B' });
    await overview.setServer('c', { logs: 5 }); // figures before server.created: not listed
    const names = async () => (await mirror.knownServers()).map((s) => s.name).sort();
    expect(await names()).toEqual(['A', 'B']);
    await overview.setServer('a', { name: 'A2' });
    expect(await names()).toEqual(['A', 'B']); // younger than refreshMs: the copy as it was
    clock += 1000;
    expect(await names()).toEqual(['A2', 'B']);
    await overview.deleteServer('b');
    await overview.setServer('c', { known: true, name: 'C' });
    // Another replica's write stamped 3 s before the newest one seen: inside the overlap, still read.
    const stamp = Math.max(...(await overview.servers.find({})).map((s) => s.changedAt ?? 0));
    await overview.servers.updateOne({ _id: 'a' }, { $set: { name: 'A3', changedAt: stamp - 3000 } });
    clock += 1000;
    expect(await names()).toEqual(['A3', 'C']);
  });

  it('lays the live log counts over the stored ones until the store holds figures counted as late', async () => {
    let clock = 5_000_000;
    const mirror = createServerMirror(overview, { refreshMs: 1000, overlapMs: 5000, now: () => clock });
    const at = (seconds: number) => new Date(Date.UTC(2026, 2, 15, 12, 0, seconds)).toISOString();
    const fact = (logs: number, countedAt: string) => ({ serverId: 'live', logs, photoLogs: 0, days: [], countedAt });
    const logsOf = async () => (await mirror.knownServers()).find((s) => s._id === 'live')?.logs;
    await overview.setServer('live', { known: true, name: 'Live' });
    await overview.setLogCounts(fact(1, at(0)));
    expect(await logsOf()).toBe(1);
    // Laid over at once, without waiting for the copy's next refresh.
    mirror.applyLiveCounts(fact(5, at(10)));
    expect(await logsOf()).toBe(5);
    mirror.applyLiveCounts(fact(3, at(8))); // counted before the one held: ignored
    expect(await logsOf()).toBe(5);
    // The store's older history fact does not undo it; its later one wins.
    await overview.setLogCounts(fact(4, at(9)));
    clock += 1000;
    expect(await logsOf()).toBe(5);
    await overview.setLogCounts(fact(6, at(12)));
    clock += 1000;
    expect(await logsOf()).toBe(6);
    // A live fact for a server the copy does not list yet waits for it.
    mirror.applyLiveCounts({ ...fact(2, at(13)), serverId: 'later' });
    await overview.setServer('later', { known: true, name: 'Later' });
    clock += 1000;
    expect((await mirror.knownServers()).find((s) => s._id === 'later')?.logs).toBe(2);
    // A deleted server goes with its live figures.
    await overview.deleteServer('live');
    clock += 1000;
    expect(await logsOf()).toBeUndefined();
  });
});
