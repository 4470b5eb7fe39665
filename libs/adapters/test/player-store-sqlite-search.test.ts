import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { LogMentions, MentionedPlayer } from '@skald/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqlitePlayerStore } from '../src/player-store/index.ts';
import { playerSearchOf } from '../src/player-store/player-store-shared.ts';
import { searchCondition } from '../src/player-store/sqlite-player-search.ts';

const T0 = Date.UTC(2025, 2, 10);
const DAY = 86_400_000;
const SERVER = 'server-a';
const OTHER_SERVER = 'server-b';

let counter = 0;
function mention(at: number, players: readonly MentionedPlayer[], overrides: Partial<LogMentions> = {}): LogMentions {
  counter += 1;
  return { logId: `0190a000-0000-7000-8000-${String(counter).padStart(12, '0')}`, serverId: SERVER, at, logType: 'text', expiresAt: at + 30 * DAY, players, ...overrides };
}

const named = (linking: readonly string[], name: string): MentionedPlayer => ({ linking, listed: [], names: [name] });

describe('SQLite player store: name and identifier searches read indexes', () => {
  let dir = '';
  let file = '';
  let store: SqlitePlayerStore;
  /** A second connection to the file, as another process would read it. */
  let reader: DatabaseSync;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skald-players-search-'));
    file = join(dir, 'players.db');
    store = new SqlitePlayerStore(file, { walCheckpointer: null });
    reader = new DatabaseSync(file);
  });
  afterEach(async () => {
    reader.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The query plan's steps of the list's count for this search. */
  function planOf(search: string): string[] {
    const condition = searchCondition(SERVER, playerSearchOf(search)!);
    return reader
      .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM players p WHERE ${condition.sql}`)
      .all(...condition.params)
      .map((row) => String(row['detail']));
  }

  /** The players the trigram index holds text for (what a name search can find), by id. */
  function indexed(): number[] {
    return reader
      .prepare('SELECT rowid FROM player_search_trigrams ORDER BY rowid')
      .all()
      .map((row) => Number(row['rowid']));
  }

  const names = async (search: string, serverId = SERVER): Promise<Array<string | null>> =>
    (await store.list({ serverId, search, offset: 0, limit: 10, itemsPerRow: 5 })).players.map((p) => p.name);

  it('a name of 3 characters or more, an identifier and a value without its kind: no table is scanned', () => {
    for (const search of ['tholo', 'Bob Stone 12', 'License:abc', 'abc123']) {
      const plan = planOf(search);
      // The trigram index answers a MATCH (its plan says SCAN, of the matching rows only: index ":M").
      expect(plan.some((step) => /player_search_trigrams VIRTUAL TABLE INDEX \d+:M/.test(step))).toBe(true);
      expect(plan.filter((step) => step.startsWith('SCAN') && !step.includes('json_each') && !step.includes('player_search_trigrams'))).toEqual([]);
      expect(plan.some((step) => step.includes('player_identifiers USING COVERING INDEX player_identifiers_owner'))).toBe(true);
    }
  });

  it('a search shorter than a trigram reads the server names (there is no trigram to look up)', () => {
    expect(planOf('bo').some((step) => step.includes('player_search'))).toBe(true);
    expect(planOf('bo').some((step) => step.includes('player_search_trigrams'))).toBe(false);
  });

  it('finds a substring of any name, in any case, as the names row holds it, and not across servers', async () => {
    await store.record([
      mention(T0, [named(['license:a'], 'Aleksander Novak')]),
      mention(T0 + 1, [named(['license:b'], 'ÉLODIE "Quote" Martin')]),
      mention(T0 + 2, [named(['license:c'], 'Zed')], { serverId: OTHER_SERVER }),
    ]);
    expect(await names('SANDER NO')).toEqual(['Aleksander Novak']);
    expect(await names('élodie "quote')).toEqual(['ÉLODIE "Quote" Martin']);
    expect(await names('martin')).toEqual(['ÉLODIE "Quote" Martin']);
    expect(await names('nov')).toEqual(['Aleksander Novak']);
    expect(await names('zed')).toEqual([]);
    expect(await names('zed', OTHER_SERVER)).toEqual(['Zed']);
    expect(await names('ze')).toEqual([]);
    expect(await names('ze', OTHER_SERVER)).toEqual(['Zed']);
  });

  it('keeps the index in step with new names, merges, erasure and retention', async () => {
    await store.record([
      mention(T0, [named(['license:a'], 'Aleksander')]),
      mention(T0 + 1, [named(['license:b'], 'Bartholomew')]),
      mention(T0 + 2, [named(['license:c'], 'Cornelius')], { expiresAt: T0 + DAY }),
    ]);
    const [a, b, c] = await Promise.all(['license:a', 'license:b', 'license:c'].map(async (id) => Number((await store.byIdentifier(SERVER, id))!.id)));
    expect(indexed()).toEqual([a, b, c]);

    // A new name of a known player.
    await store.record([mention(T0 + 3, [named(['license:a'], 'Sasha')])]);
    expect(await names('sasha')).toEqual(['Sasha']);
    expect(await names('aleks')).toEqual(['Sasha']);

    // A log naming a and b together merges b into a: b's names are searched as a's, b's text leaves the index.
    await store.record([mention(T0 + 4, [{ linking: ['license:a', 'license:b'], listed: [], names: [] }])]);
    expect(indexed()).toEqual([a, c]);
    expect((await store.list({ serverId: SERVER, search: 'tholo', offset: 0, limit: 10, itemsPerRow: 5 })).players.map((p) => Number(p.id))).toEqual([a]);

    // Retention drops c (its only log expired).
    await store.forgetExpired(T0 + DAY);
    expect(indexed()).toEqual([a]);
    expect(await names('cornel')).toEqual([]);

    // Erasure drops a.
    await store.erase(SERVER, String(a));
    expect(indexed()).toEqual([]);
    expect(await names('sasha')).toEqual([]);
    expect(await names('tholo')).toEqual([]);
  });
});
