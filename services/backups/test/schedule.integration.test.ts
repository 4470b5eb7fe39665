/**
 * Scheduled backups: a schedule fires on its own every interval (an "hour" shortened for the
 * test), stops when switched off, lives in the job queue's file so a restarted service fires it without
 * anyone saving again, and on BullMQ (Redis) two instances sharing the queue run each firing once.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus, createJobQueue } from '@skald/adapters';
import { ALL_TOPICS } from '@skald/contracts';
import { createOutboundGuard } from '@skald/service-kit';
import { createTestDeps, deleteRedisKeys, redisReachable, waitFor } from '@skald/testing';
import { callAs, createHarness, listBackups, localSettings, seedServer } from './support/harness.ts';
import { createGameDatabase, dropDatabase, mariadbAvailable, uniqueDatabaseName } from './support/game-database.ts';

const available = await mariadbAvailable();
if (!available) console.warn('schedule: skipped: no MariaDB at 127.0.0.1:3306');

const OWNER = 'owner-1';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';


const redis = available && (await redisReachable(REDIS_URL));
if (available && !redis) console.warn(`schedule on BullMQ: skipped: Redis not reachable at ${REDIS_URL}`);
const allowLocal = () => createOutboundGuard({ allowed: ['127.0.0.1'] });

describe.skipIf(!available)('scheduled backups', () => {
  const database = uniqueDatabaseName('sched');
  beforeAll(() => createGameDatabase(database));
  afterAll(() => dropDatabase(database));

  it('fire every interval on their own and stop when switched off', async () => {
    const h = await createHarness({ hourMs: 400 });
    try {
      await seedServer(h, { serverId: 'srv-tick', ownerId: OWNER, tier: 'pro' });
      await callAs(h, 'POST', '/backups/srv-tick/settings', OWNER, localSettings(database, { enabled: true, interval_hours: 1 }));
      await waitFor(async () => (await listBackups(h, 'srv-tick', OWNER)).filter((b) => b.status === 'done').length >= 2, 'two scheduled backups', 15_000);
      await callAs(h, 'POST', '/backups/srv-tick/settings', OWNER, localSettings(database, { enabled: false, interval_hours: 1 }));
      await waitFor(async () => (await listBackups(h, 'srv-tick', OWNER)).every((b) => b.status !== 'running'), 'the last run to end', 15_000);
      const count = (await listBackups(h, 'srv-tick', OWNER)).length;
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect((await listBackups(h, 'srv-tick', OWNER)).length).toBe(count);
    } finally {
      await h.close();
    }
  });

  it('survive a restart: the schedule saved before is fired by the next process', async () => {
    const base = await createTestDeps({ service: 'backups' });
    const jobsFile = join(base.root, 'jobs', 'backups-jobs.db');
    try {
      const firstJobs = await createJobQueue({ kind: 'embedded', file: jobsFile });
      const first = await createHarness({ hourMs: 1500 }, { deps: { ...base, jobs: firstJobs, outbound: allowLocal() } });
      await seedServer(first, { serverId: 'srv-restart', ownerId: OWNER, tier: 'pro' });
      await callAs(first, 'POST', '/backups/srv-restart/settings', OWNER, localSettings(database, { enabled: true, interval_hours: 1 }));
      // Stopped before the first firing (1.5 s after the save): nothing ran in this process.
      expect(await listBackups(first, 'srv-restart', OWNER)).toEqual([]);
      await first.close();
      await firstJobs.close();

      const secondJobs = await createJobQueue({ kind: 'embedded', file: jobsFile });
      const second = await createHarness({ hourMs: 1500 }, { deps: { ...base, jobs: secondJobs, outbound: allowLocal() } });
      try {
        await waitFor(async () => (await listBackups(second, 'srv-restart', OWNER)).some((b) => b.status === 'done'), 'a backup fired after the restart', 15_000);
      } finally {
        await second.close();
        await secondJobs.close();
      }
    } finally {
      await base.cleanup();
    }
  });

  it.skipIf(!redis)('on BullMQ, two instances sharing the queue and the store run each firing once, never overlapping', async () => {
    const base = await createTestDeps({ service: 'backups' });
    const prefix = `skaldtest-${randomBytes(6).toString('hex')}:jobs`;
    const queues = [await createJobQueue({ kind: 'bullmq', url: REDIS_URL, prefix }), await createJobQueue({ kind: 'bullmq', url: REDIS_URL, prefix })];
    // Two instances: one document store (as two replicas share MongoDB), one BullMQ queue, a bus each (one
    // consumer group per process; B reads the identity facts A's consumer wrote into the shared store).
    const otherBus = await createEventBus({ kind: 'memory', file: join(base.root, 'bus-b', 'journal.db') });
    await otherBus.ensureTopics(ALL_TOPICS);
    const [a, b] = [
      await createHarness({ hourMs: 700 }, { deps: { ...base, jobs: queues[0]!, outbound: allowLocal() } }),
      await createHarness({ hourMs: 700 }, { deps: { ...base, bus: otherBus, jobs: queues[1]!, outbound: allowLocal() } }),
    ];
    try {
      await seedServer(a, { serverId: 'srv-bull', ownerId: OWNER, tier: 'legend' });
      await callAs(a, 'POST', '/backups/srv-bull/settings', OWNER, localSettings(database, { enabled: true, interval_hours: 1 }));
      const started = Date.now();
      await waitFor(async () => (await listBackups(b, 'srv-bull', OWNER)).filter((x) => x.status === 'done').length >= 3, 'three firings', 20_000);
      await callAs(b, 'POST', '/backups/srv-bull/settings', OWNER, localSettings(database, { enabled: false, interval_hours: 1 }));
      const elapsed = Date.now() - started;
      await waitFor(async () => (await listBackups(a, 'srv-bull', OWNER)).every((x) => x.status !== 'running'), 'the last run', 15_000);
      const runs = await listBackups(a, 'srv-bull', OWNER);
      // One run per firing: a firing taken by both instances would show as a failed or a twin run.
      expect(runs.every((x) => x.status === 'done')).toBe(true);
      expect(runs.length).toBeLessThanOrEqual(Math.floor(elapsed / 700) + 2);
    } finally {
      await a.close();
      await b.close();
      for (const queue of queues) await queue.close();
      await otherBus.close();
      await base.cleanup();
      await deleteRedisKeys(REDIS_URL, prefix);
    }
  });
});
