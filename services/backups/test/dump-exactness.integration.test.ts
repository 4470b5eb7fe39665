/**
 * A backup restores exactly ("The dump" and "Tests"): a game-like database with every tricky
 * type, a view on a view, triggers and routines is backed up THROUGH THE API, the downloaded file is
 * restored with the `mariadb` client into an empty database, and CHECKSUM TABLE, SHOW CREATE TABLE (with
 * AUTO_INCREMENT) and every definition equal the source's. Needs the machine's MariaDB.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundGuard } from '@skald/service-kit';
import { createTestDeps } from '@skald/testing';
import { dumpToObject, DEFAULT_DUMP_LIMITS } from '../src/testing.ts';
import { callAs, createHarness, finished, localSettings, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { createEmptyDatabase, createGameDatabase, databaseFingerprint, dropDatabase, MARIADB, mariadbAvailable, restoreInto, uniqueDatabaseName } from './support/game-database.ts';

const available = await mariadbAvailable();
if (!available) console.warn('dump-exactness: skipped: no MariaDB at 127.0.0.1:3306');

const S = 'srv-exact';
const OWNER = 'owner-1';

describe.skipIf(!available)('a backup restores exactly', () => {
  const source = uniqueDatabaseName('src');
  const restored = uniqueDatabaseName('dst');
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness();
    await seedServer(h, { serverId: S, ownerId: OWNER, tier: 'pro' });
    await createGameDatabase(source);
    await createEmptyDatabase(restored);
  });

  afterAll(async () => {
    await dropDatabase(source);
    await dropDatabase(restored);
    await h?.close();
  });

  it('backs up through the API, downloads a .sql file, and the mariadb client restores it exactly', async () => {
    expect((await callAs(h, 'POST', `/backups/${S}/settings`, OWNER, localSettings(source))).statusCode).toBe(200);
    const created = await callAs(h, 'POST', `/backups/${S}/create`, OWNER);
    expect(created.statusCode).toBe(202);
    const { id, status } = created.json<{ id: string; status: string }>();
    expect(status).toBe('running');
    const backup = await finished(h, S, OWNER, id);
    expect(backup).toMatchObject({ status: 'done', error: null });

    const download = await callAs(h, 'GET', `/backups/${S}/download/${id}`, OWNER);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/sql; charset=utf-8');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="backup-${id}.sql"`);
    expect(download.rawPayload.length).toBe(backup.size);
    const sql = download.rawPayload.toString('utf8');
    expect(sql).toMatch(/-- Dump completed \S+\n$/);
    expect(sql).not.toMatch(/DEFINER=/);
    expect(sql.split('\n').slice(0, 4).join('\n')).not.toContain(MARIADB.host);

    const file = join(h.deps.root, 'downloaded.sql');
    await writeFile(file, download.rawPayload);
    await restoreInto(restored, file);
    const [before, after] = [await databaseFingerprint(source), await databaseFingerprint(restored)];
    expect(after).toEqual(before);
    // What the fingerprint covers: five tables, two views, two triggers, a procedure and a function.
    const kinds = Object.keys(before).map((k) => k.split(':')[0]);
    expect(kinds.filter((k) => k === 'table')).toHaveLength(5);
    expect(kinds.filter((k) => k === 'view')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'trigger')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'routine')).toHaveLength(2);
  });

  it('a host that resolves to a refused address at run time fails the run with the guard reason and stores nothing', async () => {
    const deps = await createTestDeps();
    try {
      const run = dumpToObject(
        { objects: deps.objects, outbound: createOutboundGuard({ allowed: [] }) },
        { host: 'localhost', port: MARIADB.port, user: MARIADB.user, password: 'secret-pw', database: source },
        'backups/refused.sql.gz',
        DEFAULT_DUMP_LIMITS,
      );
      await expect(run).rejects.toThrow(/localhost \(.+\) is not allowed: it is a loopback address/);
      await expect(run).rejects.not.toThrow(/secret-pw/);
      expect(await deps.objects.list('backups/')).toEqual([]);
    } finally {
      await deps.cleanup();
    }
  });
});
