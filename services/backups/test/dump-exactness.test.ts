/**
 * The dump restores exactly (issue 13, "The dump"): a game-like database with every tricky type, a view on
 * a view, triggers and routines is dumped by the engine, restored with the `mariadb` client into an empty
 * database, and CHECKSUM TABLE, SHOW CREATE TABLE and every definition equal the source's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDeps } from '@skald/testing';
import type { TestDeps } from '@skald/testing';
import { DEFAULT_DUMP_LIMITS, dumpToObject } from '../src/domain/dump/dump-to-object.ts';
import { createEmptyDatabase, createGameDatabase, databaseFingerprint, dropDatabase, MARIADB, mariadbAvailable, restoreInto, uniqueDatabaseName } from './support/game-database.ts';
import { loopbackResolver, storedDumpToFile } from './support/dump-files.ts';

const available = await mariadbAvailable();
if (!available) console.warn('dump-exactness: skipped: no MariaDB at 127.0.0.1:3306');

describe.skipIf(!available)('the dump restores exactly', () => {
  const source = uniqueDatabaseName('src');
  const restored = uniqueDatabaseName('dst');
  let deps: TestDeps;

  beforeAll(async () => {
    deps = await createTestDeps();
    await createGameDatabase(source);
    await createEmptyDatabase(restored);
  });

  afterAll(async () => {
    await dropDatabase(source);
    await dropDatabase(restored);
    await deps?.cleanup();
  });

  it('restores every type, view, trigger and routine into an empty database', async () => {
    const key = 'backups/exactness.sql.gz';
    const result = await dumpToObject(
      { objects: deps.objects, outbound: loopbackResolver },
      { host: MARIADB.host, port: MARIADB.port, user: MARIADB.user, password: MARIADB.password, database: source },
      key,
      DEFAULT_DUMP_LIMITS,
    );
    const file = join(deps.root, 'restore.sql');
    await storedDumpToFile(deps.objects, key, file);
    const sql = await readFile(file);
    expect(result.size).toBe(sql.length);
    expect(sql.toString('utf8')).toMatch(/-- Dump completed \S+\n$/);
    expect(sql.toString('utf8')).not.toMatch(/DEFINER=/);

    await restoreInto(restored, file);
    const [before, after] = [await databaseFingerprint(source), await databaseFingerprint(restored)];
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(after).toEqual(before);
    // The fingerprint holds what the issue names: tables, two views, two triggers, a procedure and a function.
    expect(Object.keys(before).filter((k) => k.startsWith('view:'))).toHaveLength(2);
    expect(Object.keys(before).filter((k) => k.startsWith('trigger:'))).toHaveLength(2);
    expect(Object.keys(before).filter((k) => k.startsWith('routine:'))).toHaveLength(2);
  });
});
