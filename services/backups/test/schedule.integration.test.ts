/**
 * Scheduled backups (issue 13): a schedule fires on its own every interval (an "hour" shortened for the
 * test), stops when switched off, lives in the job queue's file so a restarted service fires it without
 * anyone saving again.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue } from '@skald/adapters';
import { createOutboundGuard } from '@skald/service-kit';
import { createTestDeps, waitFor } from '@skald/testing';
import { callAs, createHarness, listBackups, localSettings, seedServer } from './support/harness.ts';
import { createGameDatabase, dropDatabase, mariadbAvailable, uniqueDatabaseName } from './support/game-database.ts';

const available = await mariadbAvailable();
if (!available) console.warn('schedule: skipped: no MariaDB at 127.0.0.1:3306');

const OWNER = 'owner-1';
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
});
