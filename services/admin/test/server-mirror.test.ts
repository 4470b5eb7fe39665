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
});
