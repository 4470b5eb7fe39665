/**
 * Backup runs against the machine's MariaDB: failures recorded with clear reasons and no secret, no file
 * kept from a failed run, tier limits (0 refuses, rotation past maxBackups deletes the oldest with its
 * object), one run per server at a time, delete, and the audit entries.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@skald/contracts';
import { createOutboundGuard } from '@skald/service-kit';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { callAs, createHarness, finished, listBackups, localSettings, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { createGameDatabase, dropDatabase, mariadbAvailable, uniqueDatabaseName } from './support/game-database.ts';
import { slowObjects } from './support/slow-objects.ts';

const available = await mariadbAvailable();
if (!available) console.warn('backup-runs: skipped: no MariaDB at 127.0.0.1:3306');

const OWNER = 'owner-1';
const SECRET = 'N0t-the-r00t-password';

/** The backup.catalog-changed facts published for a server, oldest first: each the list of stored backup ids. */
function catalogs(harness: { published: readonly { topic: string; payload: unknown }[] }, serverId: string): string[][] {
  return harness.published
    .filter((m) => m.topic === TOPICS.backups)
    .map((m) => (m.payload as { data: { serverId: string; backups: { id: string; size: number }[] } }).data)
    .filter((d) => d.serverId === serverId)
    .map((d) => d.backups.map((b) => b.id));
}

describe.skipIf(!available)('backup runs', () => {
  const database = uniqueDatabaseName('runs');
  let h: Harness;

  beforeAll(async () => {
    await createGameDatabase(database);
  });

  afterAll(async () => {
    await dropDatabase(database);
  });

  afterEach(async () => {
    await h?.close();
  });

  async function start(serverId: string, tier: string, settings = localSettings(database)): Promise<string> {
    await seedServer(h, { serverId, ownerId: OWNER, tier });
    expect((await callAs(h, 'POST', `/backups/${serverId}/settings`, OWNER, settings)).statusCode).toBe(200);
    const res = await callAs(h, 'POST', `/backups/${serverId}/create`, OWNER);
    expect(res.statusCode).toBe(202);
    return res.json<{ id: string }>().id;
  }

  it('a wrong password is a failed run saying access was denied, without the password or the user', async () => {
    h = await createHarness();
    const id = await start('srv-pw', 'starter', localSettings(database, { db_pass_enc: SECRET }));
    const backup = await finished(h, 'srv-pw', OWNER, id);
    expect(backup).toMatchObject({ status: 'failed', size: 0, error: 'Access denied for the database user (check the user name and password)' });
    const everything = JSON.stringify(await listBackups(h, 'srv-pw', OWNER));
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('root');
    expect(await h.deps.objects.list('backups/')).toEqual([]);
    expect((await callAs(h, 'GET', `/backups/srv-pw/download/${id}`, OWNER)).statusCode).toBe(404);
  });

  it('an unreachable port is a failed run naming the host and port', async () => {
    h = await createHarness();
    const id = await start('srv-port', 'starter', localSettings(database, { db_port: 1 }));
    expect(await finished(h, 'srv-port', OWNER, id)).toMatchObject({ status: 'failed', error: 'Could not connect to 127.0.0.1:1' });
  });

  it('a database that does not exist is a failed run saying so', async () => {
    h = await createHarness();
    const id = await start('srv-nodb', 'starter', localSettings(`${database}_missing`));
    expect(await finished(h, 'srv-nodb', OWNER, id)).toMatchObject({ status: 'failed', error: 'The database does not exist' });
  });

  it('a dump past the size limit fails, and no object or temporary file is left', async () => {
    h = await createHarness({ limits: { maxBytes: 2000 } });
    const id = await start('srv-big', 'starter');
    expect(await finished(h, 'srv-big', OWNER, id)).toMatchObject({ status: 'failed', error: 'The backup is larger than the limit of 2 KB' });
    expect(await h.deps.objects.list('')).toEqual([]);
  });

  it('a tier without backups refuses create with 403; incomplete settings with 400', async () => {
    h = await createHarness();
    await seedServer(h, { serverId: 'srv-free', ownerId: OWNER, tier: 'free' });
    await callAs(h, 'POST', '/backups/srv-free/settings', OWNER, localSettings(database));
    const refused = await callAs(h, 'POST', '/backups/srv-free/create', OWNER);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Your plan does not include database backups. Upgrade to enable them.');
    expect((await callAs(h, 'GET', '/backups/srv-free/settings', OWNER)).json()).toMatchObject({ maxBackups: 0 });

    await seedServer(h, { serverId: 'srv-empty', ownerId: OWNER, tier: 'starter' });
    const incomplete = await callAs(h, 'POST', '/backups/srv-empty/create', OWNER);
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().error).toBe('Fill in the database host, user and name first');
    expect(await listBackups(h, 'srv-empty', OWNER)).toEqual([]);
  });

  it('past maxBackups the oldest backup and its object are deleted (lite keeps 1)', async () => {
    h = await createHarness();
    const first = await start('srv-rot', 'lite');
    expect(await finished(h, 'srv-rot', OWNER, first)).toMatchObject({ status: 'done' });
    const second = (await callAs(h, 'POST', '/backups/srv-rot/create', OWNER)).json<{ id: string }>().id;
    expect(await finished(h, 'srv-rot', OWNER, second)).toMatchObject({ status: 'done' });
    expect((await listBackups(h, 'srv-rot', OWNER)).map((b) => b.id)).toEqual([second]);
    expect((await h.deps.objects.list('backups/')).map((o) => o.key)).toEqual([`backups/${second}.sql.gz`]);
    expect((await callAs(h, 'GET', `/backups/srv-rot/download/${first}`, OWNER)).statusCode).toBe(404);
    // The admin area's counts follow: the catalog after each run, the rotated-out backup gone from the second.
    await expect.poll(() => catalogs(h, 'srv-rot')).toEqual([[first], [second]]);
  });

  describe('with a slow object store', () => {
    let deps: TestDeps;
    beforeAll(async () => {
      deps = await createTestDeps({ service: 'backups' });
    });
    afterAll(async () => {
      await deps.cleanup();
    });

    it('one backup per server at a time: a second create while one runs is 409, a running backup cannot be deleted', async () => {
      h = await createHarness({}, { deps: { ...deps, objects: slowObjects(deps.objects, 300), outbound: createOutboundGuard({ allowed: ['127.0.0.1'] }) } });
      const id = await start('srv-busy', 'pro');
      const second = await callAs(h, 'POST', '/backups/srv-busy/create', OWNER);
      expect(second.statusCode).toBe(409);
      expect(second.json().error).toBe('A backup of this server is already running');
      expect((await callAs(h, 'DELETE', `/backups/srv-busy/${id}`, OWNER)).statusCode).toBe(409);
      expect((await listBackups(h, 'srv-busy', OWNER)).map((b) => b.status)).toEqual(['running']);
      expect(await finished(h, 'srv-busy', OWNER, id)).toMatchObject({ status: 'done' });
    });
  });

  it('delete removes the backup and its object; downloads and deletes are audited', async () => {
    h = await createHarness();
    const id = await start('srv-del', 'starter');
    await finished(h, 'srv-del', OWNER, id);
    expect((await callAs(h, 'GET', `/backups/srv-del/download/${id}`, OWNER)).statusCode).toBe(200);
    expect((await callAs(h, 'DELETE', '/backups/srv-del/not-a-backup', OWNER)).statusCode).toBe(404);
    const deleted = await callAs(h, 'DELETE', `/backups/srv-del/${id}`, OWNER);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Backup deleted' });
    expect(await listBackups(h, 'srv-del', OWNER)).toEqual([]);
    expect(await h.deps.objects.list('backups/')).toEqual([]);
    expect((await callAs(h, 'GET', `/backups/srv-del/download/${id}`, OWNER)).statusCode).toBe(404);
    await expect
      .poll(() => h.published.filter((m) => m.topic === TOPICS.audit).map((m) => (m.payload as { data: { action: string } }).data.action))
      .toEqual(['backup.settings-saved', 'backup.created', 'backup.downloaded', 'backup.deleted']);
    // The catalog once with the backup, once empty after the delete (sizes as the owner's list shows them).
    expect(catalogs(h, 'srv-del')).toEqual([[id], []]);
    const sizes = h.published.filter((m) => m.topic === TOPICS.backups).map((m) => (m.payload as { data: { backups: { size: number }[] } }).data.backups.map((b) => b.size));
    expect(sizes[0]![0]).toBeGreaterThan(0);
  });
});
