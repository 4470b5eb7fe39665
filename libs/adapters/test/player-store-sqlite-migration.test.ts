import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { SqlitePlayerStore } from '../src/player-store/index.ts';
import { PLAYER_SCHEMA_SQL } from '../src/player-store/sqlite-player-schema.ts';

const T0 = Date.UTC(2025, 2, 10);
const DAY = 86_400_000;
const SERVER = 'server-a';
const LOG_1 = '0190a000-0000-7000-8000-000000000001';
const LOG_2 = '0190a000-0000-7000-8000-000000000002';
const LOG_3 = '0190a000-0000-7000-8000-000000000003';
const hexOf = (id: string): string => id.replaceAll('-', '');

/** What schema 4 added: a file of an earlier schema has no trigram index of the names. */
const WITHOUT_TRIGRAMS = `
  DROP TRIGGER player_search_inserted; DROP TRIGGER player_search_updated; DROP TRIGGER player_search_deleted;
  DROP TABLE player_search_trigrams;`;

/**
 * A players.db as schema 3 wrote it: two players, John (license:a) and Alice (license:b, once known as Ally).
 */
function writeVersion3File(file: string): void {
  const db = new DatabaseSync(file);
  db.exec(PLAYER_SCHEMA_SQL);
  db.exec(`
    ${WITHOUT_TRIGRAMS}
    INSERT INTO players (id, server_id, name, name_seen, first_seen, last_seen, log_count, photo_count, next_expiry)
      VALUES (1, '${SERVER}', 'John', ${T0}, ${T0}, ${T0}, 1, 0, ${T0 + 30 * DAY}),
             (2, '${SERVER}', 'Alice', ${T0 + 1000}, ${T0}, ${T0 + 1000}, 2, 0, ${T0 + 30 * DAY});
    INSERT INTO player_search (server_id, player_id, folded) VALUES ('${SERVER}', 1, char(10) || 'john'), ('${SERVER}', 2, char(10) || 'ally' || char(10) || 'alice');
    INSERT INTO player_identifiers VALUES (1, 'license:a', '${SERVER}', ${T0}, ${T0}), (2, 'license:b', '${SERVER}', ${T0}, ${T0 + 1000});
    INSERT INTO player_names VALUES (1, 'John', ${T0}, ${T0}), (2, 'Ally', ${T0}, ${T0}), (2, 'Alice', ${T0 + 1000}, ${T0 + 1000});
    INSERT INTO player_logs VALUES (1, 0, ${T0}, X'${hexOf(LOG_1)}', ${T0 + 30 * DAY});
    INSERT INTO player_logs VALUES (2, 0, ${T0}, X'${hexOf(LOG_2)}', ${T0 + 30 * DAY});
    INSERT INTO player_logs VALUES (2, 0, ${T0 + 1000}, X'${hexOf(LOG_3)}', ${T0 + 1000 + 30 * DAY});
    PRAGMA user_version = 3;
  `);
  db.close();
}

/** The players the trigram index of names holds, by id (null: the file has none). */
function trigramRowsOf(file: string): number[] | null {
  const db = new DatabaseSync(file);
  try {
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'player_search_trigrams'").get() === undefined) return null;
    return db
      .prepare('SELECT rowid FROM player_search_trigrams ORDER BY rowid')
      .all()
      .map((row) => Number(row['rowid']));
  } finally {
    db.close();
  }
}

/**
 * A players.db as schema 2 wrote it: player_identifiers keyed by (server, identifier, player) with an index
 * by player. One player (John) with a license and a Discord account, seen in two logs.
 */
function writeVersion2File(file: string): void {
  const db = new DatabaseSync(file);
  db.exec(PLAYER_SCHEMA_SQL);
  db.exec(`
    ${WITHOUT_TRIGRAMS}
    DROP TABLE player_identifiers;
    CREATE TABLE player_identifiers (
      server_id TEXT NOT NULL, identifier TEXT NOT NULL, player_id INTEGER NOT NULL,
      first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,
      PRIMARY KEY (server_id, identifier, player_id)
    ) WITHOUT ROWID;
    CREATE INDEX player_identifiers_player ON player_identifiers (player_id);
    INSERT INTO players (id, server_id, name, name_seen, first_seen, last_seen, log_count, photo_count, next_expiry)
      VALUES (1, '${SERVER}', 'John', ${T0 + 1000}, ${T0}, ${T0 + 1000}, 2, 0, ${T0 + 30 * DAY});
    INSERT INTO player_search (server_id, player_id, folded) VALUES ('${SERVER}', 1, char(10) || 'john');
    INSERT INTO player_identifiers VALUES ('${SERVER}', 'license:a', 1, ${T0}, ${T0 + 1000});
    INSERT INTO player_identifiers VALUES ('${SERVER}', 'discord:1', 1, ${T0}, ${T0});
    INSERT INTO player_names VALUES (1, 'John', ${T0}, ${T0 + 1000});
    INSERT INTO player_logs VALUES (1, 0, ${T0}, X'${hexOf(LOG_1)}', ${T0 + 30 * DAY});
    INSERT INTO player_logs VALUES (1, 0, ${T0 + 1000}, X'${hexOf(LOG_2)}', ${T0 + 1000 + 30 * DAY});
    PRAGMA user_version = 2;
  `);
  db.close();
}

function layoutOf(file: string): { version: number; indexes: string[]; key: string } {
  const db = new DatabaseSync(file);
  try {
    const version = Number(db.prepare('PRAGMA user_version').get()?.['user_version']);
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'player_identifiers' AND sql IS NOT NULL ORDER BY name")
      .all()
      .map((row) => String(row['name']));
    const key = db
      .prepare("SELECT name FROM pragma_index_xinfo('sqlite_autoindex_player_identifiers_1') WHERE key = 1 ORDER BY seqno")
      .all()
      .map((row) => String(row['name']))
      .join(', ');
    return { version, indexes, key };
  } finally {
    db.close();
  }
}

describe('SQLite player store: a schema 2 file opened by this code', () => {
  let dir = '';
  afterEach(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('moves player_identifiers to the layout clustered by player, keeping every row, once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-players-migration-'));
    const file = join(dir, 'players.db');
    writeVersion2File(file);

    const store = new SqlitePlayerStore(file, { walCheckpointer: null });
    try {
      expect(layoutOf(file)).toEqual({ version: 4, indexes: ['player_identifiers_owner'], key: 'player_id, identifier' });
      const found = await store.get(SERVER, '1');
      expect(found).toMatchObject({
        player: {
          id: '1',
          name: 'John',
          logCount: 2,
          identifiers: [
            { identifier: 'license:a', firstSeen: T0, lastSeen: T0 + 1000 },
            { identifier: 'discord:1', firstSeen: T0, lastSeen: T0 },
          ],
        },
      });
      expect((await store.byIdentifier(SERVER, 'DISCORD:1'))?.id).toBe('1');
      expect((await store.list({ serverId: SERVER, search: 'license:a', offset: 0, limit: 10, itemsPerRow: 5 })).total).toBe(1);
      expect(trigramRowsOf(file)).toEqual([1]);
      expect((await store.list({ serverId: SERVER, search: 'OHN', offset: 0, limit: 10, itemsPerRow: 5 })).total).toBe(1);
      expect((await store.timeline({ serverId: SERVER, playerId: '1', limit: 10 })).map((ref) => ref.logId)).toEqual([LOG_2, LOG_1]);

      // A later log naming the license and a new Steam account joins the same player, and records its time.
      await store.record([
        { logId: '0190a000-0000-7000-8000-000000000003', serverId: SERVER, at: T0 + 5000, logType: 'text', expiresAt: T0 + 5000 + 30 * DAY, players: [{ linking: ['license:a', 'steam:1'], listed: [], names: [] }] },
      ]);
      const after = await store.get(SERVER, '1');
      expect(after).toMatchObject({
        player: {
          logCount: 3,
          identifiers: [
            { identifier: 'license:a', firstSeen: T0, lastSeen: T0 + 5000 },
            { identifier: 'steam:1', firstSeen: T0 + 5000, lastSeen: T0 + 5000 },
            { identifier: 'discord:1', firstSeen: T0, lastSeen: T0 },
          ],
        },
      });
    } finally {
      await store.close();
    }

    // Opened again: nothing moves a second time.
    const again = new SqlitePlayerStore(file, { walCheckpointer: null });
    try {
      expect(layoutOf(file)).toEqual({ version: 4, indexes: ['player_identifiers_owner'], key: 'player_id, identifier' });
      expect((await again.get(SERVER, '1'))).toMatchObject({ player: { logCount: 3 } });
      expect((await again.byIdentifier(SERVER, 'steam:1'))?.id).toBe('1');
    } finally {
      await again.close();
    }
  });
});

describe('SQLite player store: a schema 3 file opened by this code', () => {
  let dir = '';
  afterEach(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('indexes every player\'s names by trigram, once, and keeps the index in step after', async () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-players-migration-'));
    const file = join(dir, 'players.db');
    writeVersion3File(file);
    expect(trigramRowsOf(file)).toBeNull();

    const store = new SqlitePlayerStore(file, { walCheckpointer: null });
    const names = async (search: string): Promise<Array<string | null>> =>
      (await store.list({ serverId: SERVER, search, offset: 0, limit: 10, itemsPerRow: 5 })).players.map((p) => p.name);
    try {
      expect(layoutOf(file).version).toBe(4);
      expect(trigramRowsOf(file)).toEqual([1, 2]);
      expect(await names('ally')).toEqual(['Alice']);
      expect(await names('LICE')).toEqual(['Alice']);
      expect(await names('john')).toEqual(['John']);
      // A name recorded after the migration is found through the index too.
      await store.record([
        { logId: '0190a000-0000-7000-8000-000000000004', serverId: SERVER, at: T0 + 5000, logType: 'text', expiresAt: T0 + 5000 + 30 * DAY, players: [{ linking: ['license:a'], listed: [], names: ['Johnny Bravo'] }] },
      ]);
      expect(await names('bravo')).toEqual(['Johnny Bravo']);
    } finally {
      await store.close();
    }

    // Opened again: the index is not filled a second time (a player's text is indexed once).
    const again = new SqlitePlayerStore(file, { walCheckpointer: null });
    try {
      expect(trigramRowsOf(file)).toEqual([1, 2]);
      expect((await again.list({ serverId: SERVER, search: 'john', offset: 0, limit: 10, itemsPerRow: 5 })).total).toBe(1);
    } finally {
      await again.close();
    }
  });
});
