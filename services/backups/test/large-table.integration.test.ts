/**
 * The full-size case: the game database with a 200,000-row players table is backed up through the
 * API and restored with the `mariadb` client; every table's CHECKSUM and every definition equal the
 * source's. Runs in `npm test`: 15 s on this 2-core machine (36 s while three other test runs shared it); the
 * ~200 MB speed comparison is `npm run bench -- backups`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createHarness, finished, localSettings, seedServer } from './support/harness.ts';
import type { Harness } from './support/harness.ts';
import { createEmptyDatabase, createGameDatabase, databaseFingerprint, dropDatabase, mariadbAvailable, restoreInto, uniqueDatabaseName } from './support/game-database.ts';

const available = await mariadbAvailable();
if (!available) console.warn('large-table: skipped: no MariaDB at 127.0.0.1:3306');

const ROWS = 200_000;

describe.skipIf(!available)('a 200,000-row table', () => {
  const source = uniqueDatabaseName('big');
  const restored = uniqueDatabaseName('bigr');
  let h: Harness;

  beforeAll(async () => {
    await createGameDatabase(source, { bigRows: ROWS });
    await createEmptyDatabase(restored);
    h = await createHarness();
    await seedServer(h, { serverId: 'srv-big', ownerId: 'owner-1', tier: 'pro' });
  });

  afterAll(async () => {
    await h?.close();
    await dropDatabase(source);
    await dropDatabase(restored);
  });

  // timeout: dumps and restores a large table on the machine's MariaDB
  it('restores exactly', { timeout: 120_000 }, async () => {
    await callAs(h, 'POST', '/backups/srv-big/settings', 'owner-1', localSettings(source));
    const id = (await callAs(h, 'POST', '/backups/srv-big/create', 'owner-1')).json<{ id: string }>().id;
    const backup = await finished(h, 'srv-big', 'owner-1', id, 90_000);
    // The status with its reason: a failed run says why in the assertion's diff.
    expect({ status: backup.status, error: backup.error }).toEqual({ status: 'done', error: null });
    const download = await callAs(h, 'GET', `/backups/srv-big/download/${id}`, 'owner-1');
    expect(download.rawPayload.length).toBe(backup.size);
    const file = join(h.deps.root, 'big.sql');
    await writeFile(file, download.rawPayload);
    await restoreInto(restored, file);
    const [before, after] = [await databaseFingerprint(source), await databaseFingerprint(restored)];
    expect((before['table:players'] as { rows: number }).rows).toBe(ROWS + 3);
    expect(after).toEqual(before);
  });
});
