/**
 * Contract suite of the PlayerStore port. Every adapter's test file calls it:
 *   playerStoreContract('sqlite', async () => ({ adapter, cleanup }));
 * The rules it holds are docs/PLAYERS.md's: players are connected groups of linking identifiers, the older
 * id survives a merge, recording is idempotent, ip/token never link, deletions forget logs and players
 * left without logs disappear.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogMentions, LogType, MentionedPlayer, PlayerDetail, PlayerStore, QueuedLog } from '../src/index.ts';

export interface PlayerStoreFixture {
  readonly adapter: PlayerStore;
  readonly cleanup: () => Promise<void>;
}

const DAY = 86_400_000;
/** 2025-03-10T00:00:00Z */
const T0 = Date.UTC(2025, 2, 10);
const SERVER = 'server-a';
const OTHER_SERVER = 'server-b';

let counter = 0;
/** A UUID-shaped id sorting by creation (like ingestion's UUIDv7), or `plain` for any other string. */
function nextLogId(): string {
  counter += 1;
  return `0190a000-0000-7000-8000-${String(counter).padStart(12, '0')}`;
}

function player(linking: readonly string[], extra: Partial<MentionedPlayer> = {}): MentionedPlayer {
  return { linking, listed: [], names: [], ...extra };
}

/** A stored log as the store path queues it (its keys from a mention, its text and metadata as given). */
function queued(log: LogMentions, message: string, metadata: QueuedLog['metadata']): QueuedLog {
  return { logId: log.logId, serverId: log.serverId, at: log.at, logType: log.logType, expiresAt: log.expiresAt, message, metadata };
}

function mention(at: number, players: readonly MentionedPlayer[], overrides: Partial<LogMentions> = {}): LogMentions {
  return { logId: nextLogId(), serverId: SERVER, at, logType: 'text', expiresAt: at + 30 * DAY, players, ...overrides };
}

export function playerStoreContract(name: string, build: () => Promise<PlayerStoreFixture>): void {
  describe(`PlayerStore contract: ${name}`, () => {
    let fixture: PlayerStoreFixture;
    let store: PlayerStore;

    beforeEach(async () => {
      fixture = await build();
      store = fixture.adapter;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    async function detail(id: string, serverId = SERVER): Promise<PlayerDetail> {
      const found = await store.get(serverId, id);
      if (found === null || !('player' in found)) throw new Error(`player ${id} is ${JSON.stringify(found)}`);
      return found.player;
    }

    async function idOf(identifier: string, serverId = SERVER): Promise<string> {
      const found = await store.byIdentifier(serverId, identifier);
      if (found === null) throw new Error(`no player for ${identifier}`);
      return found.id;
    }

    it('queues stored logs durably in order, and drops them with the recording that covers them', async () => {
      expect(await store.queued(10)).toEqual({ logs: [], through: -1 });
      const a = queued(mention(T0, [player(['license:a'], { listed: ['ip:1.1.1.1'], names: ['Ann'] })]), 'Ann joined', { player: { name: 'Ann', ids: ['license:a', 'ip:1.1.1.1'] }, n: 1.5 });
      const b = queued(mention(T0 + 1, [], { serverId: OTHER_SERVER, logType: 'photo' }), 'a photo', null);
      const c = queued(mention(T0 + 2, []), 'ünïcode "quoted" license:c\n', { nested: [[{ deep: true }], null] });
      await store.queue([a, b]);
      await store.queue([]);
      await store.queue([c]);
      const all = await store.queued(100);
      expect(all.logs).toEqual([a, b, c]);
      // At least `limit` when that many wait, in whole queue entries.
      const first = await store.queued(1);
      expect(first.logs).toEqual([a, b]);
      await store.record([mention(T0, [player(['license:a'], { listed: ['ip:1.1.1.1'], names: ['Ann'] })], { logId: a.logId })], first.through);
      expect((await store.queued(100)).logs).toEqual([c]);
      // A recording of nothing still drops what it covers.
      await store.record([], all.through);
      expect(await store.queued(100)).toEqual({ logs: [], through: -1 });
      expect(await store.byIdentifier(SERVER, 'license:a')).toMatchObject({ logCount: 1, name: 'Ann' });
      expect(await store.byIdentifier(SERVER, 'license:c')).toBeNull();
    });

    it('settles what it gathered in memory: a read on another connection would see it', async () => {
      await store.record([mention(T0, [player(['license:s'], { names: ['Sam'] })])]);
      await store.record([mention(T0 + 5_000, [player(['license:s'], { names: ['Sam'] })])]);
      await store.settle();
      const found = await store.byIdentifier(SERVER, 'license:s');
      expect(found?.identifiers).toEqual([{ identifier: 'license:s', firstSeen: T0, lastSeen: T0 + 5_000 }]);
      expect(found?.names).toEqual([{ name: 'Sam', firstSeen: T0, lastSeen: T0 + 5_000 }]);
    });

    it('records a player with its identifiers, names, counts and seen times', async () => {
      await store.record([
        mention(T0, [player(['license:a', 'discord:1'], { listed: ['ip:10.0.0.1'], names: ['John'] })]),
        mention(T0 + 1000, [player(['license:a'], { names: ['Johnny'] })], { logType: 'photo' }),
        mention(T0 + 2000, [player(['license:a'], { names: ['John'] })]),
      ]);
      const john = await store.byIdentifier(SERVER, 'license:a');
      expect(john).not.toBeNull();
      expect(john).toMatchObject({ serverId: SERVER, name: 'John', firstSeen: T0, lastSeen: T0 + 2000, logCount: 2, photoCount: 1 });
      expect(john!.id).toMatch(/^\d+$/);
      expect(john!.names).toEqual([
        { name: 'John', firstSeen: T0, lastSeen: T0 + 2000 },
        { name: 'Johnny', firstSeen: T0 + 1000, lastSeen: T0 + 1000 },
      ]);
      expect(john!.identifiers).toEqual([
        { identifier: 'license:a', firstSeen: T0, lastSeen: T0 + 2000 },
        { identifier: 'discord:1', firstSeen: T0, lastSeen: T0 },
        { identifier: 'ip:10.0.0.1', firstSeen: T0, lastSeen: T0 },
      ]);
      expect(await detail(john!.id)).toEqual(john);
    });

    it('keeps the newest name as the name, whatever order the logs arrive in', async () => {
      await store.record([mention(T0 + 5000, [player(['license:a'], { names: ['New'] })])]);
      await store.record([mention(T0, [player(['license:a'], { names: ['Old'] })])]);
      const found = await detail(await idOf('license:a'));
      expect(found.name).toBe('New');
      expect(found.firstSeen).toBe(T0);
    });

    it('records idempotently: a batch delivered again counts nothing twice', async () => {
      const batch = [mention(T0, [player(['license:a'], { names: ['John'] })]), mention(T0 + 1, [player(['license:a']), player(['license:b'])], { logType: 'photo' })];
      await store.record(batch);
      await store.record(batch);
      await store.record([batch[1]!]);
      expect(await detail(await idOf('license:a'))).toMatchObject({ logCount: 1, photoCount: 1 });
      expect(await detail(await idOf('license:b'))).toMatchObject({ logCount: 0, photoCount: 1 });
      expect((await store.list({ serverId: SERVER, offset: 0, limit: 10, itemsPerRow: 5 })).total).toBe(2);
    });

    it('a batch partly delivered before counts only its new logs, also past one insert of many rows', async () => {
      const logs = Array.from({ length: 250 }, (_, k) => mention(T0 + k, [player(['license:a'])]));
      await store.record(logs.slice(100, 150));
      await store.record(logs);
      expect(await detail(await idOf('license:a'))).toMatchObject({ logCount: 250, photoCount: 0, firstSeen: T0, lastSeen: T0 + 249 });
    });

    it('joins identifiers seen together into one player across logs', async () => {
      await store.record([mention(T0, [player(['license:a', 'discord:1'])]), mention(T0 + 1, [player(['discord:1', 'steam:9'])])]);
      const id = await idOf('license:a');
      expect(await idOf('steam:9')).toBe(id);
      expect((await detail(id)).logCount).toBe(2);
    });

    it('a Discord account seen with two licenses merges their players into the older, which answers for the other', async () => {
      await store.record([mention(T0, [player(['license:a'], { names: ['Main'] })])]);
      await store.record([mention(T0 + 1, [player(['license:b'], { names: ['Alt'] })], { logType: 'photo' })]);
      const older = await idOf('license:a');
      const younger = await idOf('license:b');
      expect(Number(older)).toBeLessThan(Number(younger));
      await store.record([mention(T0 + 2, [player(['discord:1', 'license:a'])]), mention(T0 + 3, [player(['discord:1', 'license:b'])])]);
      expect(await store.get(SERVER, younger)).toEqual({ mergedInto: older });
      expect(await idOf('license:b')).toBe(older);
      const merged = await detail(older);
      expect(merged).toMatchObject({ logCount: 3, photoCount: 1, firstSeen: T0, lastSeen: T0 + 3 });
      expect(merged.identifiers.map((i) => i.identifier).sort()).toEqual(['discord:1', 'license:a', 'license:b']);
      expect(merged.names.map((n) => n.name).sort()).toEqual(['Alt', 'Main']);
      expect((await store.list({ serverId: SERVER, offset: 0, limit: 10, itemsPerRow: 5 })).players.map((p) => p.id)).toEqual([older]);
      // The merged id's timeline is the survivor's.
      expect(await store.timeline({ serverId: SERVER, playerId: younger, limit: 10 })).toHaveLength(4);
    });

    it('one log joining two players merges them too, and merges chain to the final survivor', async () => {
      await store.record([mention(T0, [player(['license:a'])]), mention(T0 + 1, [player(['license:b'])]), mention(T0 + 2, [player(['license:c'])])]);
      const [a, b, c] = [await idOf('license:a'), await idOf('license:b'), await idOf('license:c')];
      await store.record([mention(T0 + 3, [player(['license:b', 'license:c'])])]);
      expect(await store.get(SERVER, c)).toEqual({ mergedInto: b });
      await store.record([mention(T0 + 4, [player(['license:a', 'license:c'])])]);
      expect(await store.get(SERVER, b)).toEqual({ mergedInto: a });
      expect(await store.get(SERVER, c)).toEqual({ mergedInto: a });
      expect(await detail(a)).toMatchObject({ logCount: 5 });
    });

    it('a batch delivered again after a merge counts nothing twice', async () => {
      const first = [mention(T0, [player(['license:a'])]), mention(T0 + 1, [player(['license:b'])])];
      await store.record(first);
      await store.record([mention(T0 + 2, [player(['license:a', 'license:b'])])]);
      await store.record(first);
      expect(await detail(await idOf('license:a'))).toMatchObject({ logCount: 3 });
    });

    it('players named apart in one log each get it, unlinked (victim and killer)', async () => {
      await store.record([mention(T0, [player(['license:victim'], { names: ['Alice'] }), player(['license:killer'], { names: ['Bob'] })])]);
      const victim = await detail(await idOf('license:victim'));
      const killer = await detail(await idOf('license:killer'));
      expect(victim.id).not.toBe(killer.id);
      expect([victim.name, victim.logCount, killer.name, killer.logCount]).toEqual(['Alice', 1, 'Bob', 1]);
      const [victimLog] = await store.timeline({ serverId: SERVER, playerId: victim.id, limit: 5 });
      const [killerLog] = await store.timeline({ serverId: SERVER, playerId: killer.id, limit: 5 });
      expect(victimLog!.logId).toBe(killerLog!.logId);
    });

    it('ip and token are listed with each player seen with them and never link players', async () => {
      await store.record([
        mention(T0, [player(['license:a'], { listed: ['ip:10.0.0.1', 'token:2:x'] })]),
        mention(T0 + 10, [player(['license:b'], { listed: ['ip:10.0.0.1'] })]),
        // A group without a linking identifier makes no player.
        mention(T0 + 20, [player([], { listed: ['ip:10.0.0.9'] })]),
      ]);
      const a = await detail(await idOf('license:a'));
      const b = await detail(await idOf('license:b'));
      expect(a.id).not.toBe(b.id);
      expect(a.identifiers.map((i) => i.identifier).sort()).toEqual(['ip:10.0.0.1', 'license:a', 'token:2:x']);
      expect(b.identifiers.map((i) => i.identifier).sort()).toEqual(['ip:10.0.0.1', 'license:b']);
      expect((await store.byIdentifier(SERVER, 'ip:10.0.0.1'))?.id).toBe(b.id);
      expect(await store.byIdentifier(SERVER, 'ip:10.0.0.9')).toBeNull();
      const search = await store.list({ serverId: SERVER, search: '10.0.0.1', offset: 0, limit: 10, itemsPerRow: 5 });
      expect(search.players.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    });

    it('keeps servers apart', async () => {
      await store.record([mention(T0, [player(['license:a'])]), mention(T0, [player(['license:a'])], { serverId: OTHER_SERVER })]);
      const mine = await idOf('license:a');
      const theirs = await idOf('license:a', OTHER_SERVER);
      expect(mine).not.toBe(theirs);
      expect(await store.get(OTHER_SERVER, mine)).toBeNull();
      expect(await store.timeline({ serverId: OTHER_SERVER, playerId: mine, limit: 5 })).toEqual([]);
      expect(await store.logsOf(OTHER_SERVER, mine)).toEqual([]);
      await store.erase(OTHER_SERVER, mine);
      expect((await detail(mine)).logCount).toBe(1);
      expect((await store.list({ serverId: OTHER_SERVER, offset: 0, limit: 10, itemsPerRow: 5 })).players.map((p) => p.id)).toEqual([theirs]);
    });

    it('answers null for ids that name no player', async () => {
      await store.record([mention(T0, [player(['license:a'])])]);
      for (const id of ['abc', '0', '-1', '1.5', '', '99999999', '1e3']) expect(await store.get(SERVER, id)).toBeNull();
      expect(await store.byIdentifier(SERVER, 'license:zzz')).toBeNull();
      expect(await store.byIdentifier(SERVER, 'nokind')).toBeNull();
    });

    it('finds an identifier with its kind in any case', async () => {
      await store.record([mention(T0, [player(['license:AbC'])])]);
      expect(await store.byIdentifier(SERVER, 'LICENSE:AbC')).not.toBeNull();
      expect(await store.byIdentifier(SERVER, 'license:abc')).toBeNull();
    });

    it('lists players newest lastSeen first with a total, paged, each row with at most itemsPerRow names and identifiers', async () => {
      await store.record([
        mention(T0 + 3, [player(['license:c'], { names: ['Carol'] })]),
        mention(T0 + 1, [player(['license:a', 'discord:1', 'steam:1'], { names: ['Ann', 'Annie', 'A'] })]),
        mention(T0 + 2, [player(['license:b'], { names: ['Ben'] })]),
        mention(T0 + 5, [player(['license:a'], { names: ['Annie'] })]),
      ]);
      const page = await store.list({ serverId: SERVER, offset: 0, limit: 2, itemsPerRow: 2 });
      expect(page.total).toBe(3);
      expect(page.players.map((p) => p.name)).toEqual(['Annie', 'Carol']);
      expect(page.players[0]).toMatchObject({ names: ['Annie', expect.any(String)], identifiers: ['license:a', expect.any(String)], logCount: 2, firstSeen: T0 + 1, lastSeen: T0 + 5 });
      const next = await store.list({ serverId: SERVER, offset: 2, limit: 2, itemsPerRow: 2 });
      expect(next.players.map((p) => p.name)).toEqual(['Ben']);
      expect(next.total).toBe(3);
      expect(await store.list({ serverId: OTHER_SERVER, offset: 0, limit: 2, itemsPerRow: 2 })).toEqual({ players: [], total: 0 });
    });

    it('searches names (contains, any case), identifiers (exact, kind in any case) and values without the kind', async () => {
      await store.record([
        mention(T0, [player(['license:abc123', 'discord:555'], { names: ['Élodie Martin'] })]),
        mention(T0 + 1, [player(['license:def456'], { names: ['MARTINA'] })]),
        mention(T0 + 2, [player(['steam:abc'], { names: ['Zed'] })]),
      ]);
      const search = async (text: string) => (await store.list({ serverId: SERVER, search: text, offset: 0, limit: 10, itemsPerRow: 5 })).players.map((p) => p.name);
      expect(await search('martin')).toEqual(['MARTINA', 'Élodie Martin']);
      expect(await search('élodie')).toEqual(['Élodie Martin']);
      expect(await search('License:abc123')).toEqual(['Élodie Martin']);
      expect(await search('555')).toEqual(['Élodie Martin']);
      expect(await search('abc')).toEqual(['Zed']);
      expect(await search('license:abc')).toEqual([]);
      expect(await search('nobody')).toEqual([]);
      expect(await search('   ')).toHaveLength(3);
      const counted = await store.list({ serverId: SERVER, search: 'martin', offset: 1, limit: 1, itemsPerRow: 5 });
      expect(counted).toMatchObject({ total: 2, players: [{ name: 'Élodie Martin' }] });
    });

    it('pages a timeline newest first by log time then id, by a position, with or without a log type', async () => {
      const logs = [
        mention(T0 + 10, [player(['license:a'])]),
        mention(T0 + 30, [player(['license:a'])], { logType: 'photo' }),
        mention(T0 + 20, [player(['license:a'])]),
        mention(T0 + 20, [player(['license:a'])], { logType: 'photo' }),
        mention(T0 + 40, [player(['license:b'])]),
      ];
      await store.record(logs);
      const id = await idOf('license:a');
      const first = await store.timeline({ serverId: SERVER, playerId: id, limit: 3 });
      expect(first.map((ref) => ref.logId)).toEqual([logs[1]!.logId, logs[3]!.logId, logs[2]!.logId]);
      expect(first.map((ref) => ref.logType)).toEqual(['photo', 'photo', 'text']);
      expect(first[0]!.at).toBe(T0 + 30);
      const rest = await store.timeline({ serverId: SERVER, playerId: id, limit: 3, before: first[2]! });
      expect(rest.map((ref) => ref.logId)).toEqual([logs[0]!.logId]);
      const photos = await store.timeline({ serverId: SERVER, playerId: id, limit: 10, logType: 'photo' });
      expect(photos.map((ref) => ref.logId)).toEqual([logs[1]!.logId, logs[3]!.logId]);
      const texts = await store.timeline({ serverId: SERVER, playerId: id, limit: 10, logType: 'text', before: { at: T0 + 20, logId: logs[2]!.logId } });
      expect(texts.map((ref) => ref.logId)).toEqual([logs[0]!.logId]);
      expect(await store.timeline({ serverId: SERVER, playerId: '424242', limit: 3 })).toEqual([]);
      expect((await store.logsOf(SERVER, id)).map((ref) => ref.logId).sort()).toEqual(logs.slice(0, 4).map((log) => log.logId).sort());
    });

    it('takes log ids of any shape', async () => {
      await store.record([mention(T0, [player(['license:a'])], { logId: 'log-00000001' }), mention(T0, [player(['license:a'])], { logId: 'log-00000002' })]);
      const refs = await store.timeline({ serverId: SERVER, playerId: await idOf('license:a'), limit: 10 });
      expect(refs.map((ref) => ref.logId)).toEqual(['log-00000002', 'log-00000001']);
    });

    it('forgets logs by id from every player they name; a player left without logs disappears', async () => {
      const shared = mention(T0 + 5, [player(['license:victim']), player(['license:killer'])]);
      await store.record([mention(T0, [player(['license:killer'], { names: ['Bob'] })]), shared]);
      const victim = await idOf('license:victim');
      const killer = await idOf('license:killer');
      await store.forgetLogs(SERVER, [{ logId: shared.logId, at: shared.at, logType: 'text', identifiers: ['license:victim', 'license:killer', 'ip:1.1.1.1'] }]);
      expect(await store.get(SERVER, victim)).toBeNull();
      expect(await store.byIdentifier(SERVER, 'license:victim')).toBeNull();
      expect(await detail(killer)).toMatchObject({ logCount: 1, lastSeen: T0, name: 'Bob' });
    });

    it('erases a player with its identifiers, names, logs and the ids merged into it, and no one else', async () => {
      await store.record([mention(T0, [player(['license:a'])]), mention(T0 + 1, [player(['license:b'])]), mention(T0 + 2, [player(['license:other'])])]);
      const a = await idOf('license:a');
      const b = await idOf('license:b');
      await store.record([mention(T0 + 3, [player(['license:a', 'license:b'])])]);
      await store.erase(SERVER, b);
      expect(await store.get(SERVER, a)).toBeNull();
      expect(await store.get(SERVER, b)).toBeNull();
      expect(await store.byIdentifier(SERVER, 'license:b')).toBeNull();
      expect(await store.timeline({ serverId: SERVER, playerId: a, limit: 5 })).toEqual([]);
      expect((await store.list({ serverId: SERVER, offset: 0, limit: 10, itemsPerRow: 5 })).total).toBe(1);
      // An identifier seen again afterwards makes a new player.
      await store.record([mention(T0 + 4, [player(['license:a'])])]);
      const again = await idOf('license:a');
      expect(again).not.toBe(a);
      expect(await detail(again)).toMatchObject({ logCount: 1, firstSeen: T0 + 4 });
    });

    it('forgets a server\'s logs before a time, players left without logs disappearing', async () => {
      await store.record([
        mention(T0, [player(['license:old'])]),
        mention(T0, [player(['license:both'])]),
        mention(T0 + DAY, [player(['license:both'])]),
        mention(T0, [player(['license:old'])], { serverId: OTHER_SERVER }),
      ]);
      await store.forgetBefore(SERVER, { at: T0 + 1, logId: '' });
      expect(await store.byIdentifier(SERVER, 'license:old')).toBeNull();
      expect(await detail(await idOf('license:both'))).toMatchObject({ logCount: 1, firstSeen: T0 + DAY });
      expect(await store.byIdentifier(OTHER_SERVER, 'license:old')).not.toBeNull();
    });

    it('forgets photo logs older than a position (the photo limit), text logs kept', async () => {
      const photos = [0, 1, 2].map((i) => mention(T0 + i, [player(['license:a'])], { logType: 'photo' as LogType }));
      await store.record([...photos, mention(T0, [player(['license:a'])]), mention(T0, [player(['license:photos-only'])], { logType: 'photo' })]);
      await store.forgetBefore(SERVER, { at: photos[1]!.at, logId: photos[1]!.logId }, 'photo');
      const refs = await store.timeline({ serverId: SERVER, playerId: await idOf('license:a'), limit: 10 });
      expect(refs.map((ref) => ref.logId).sort()).toEqual([photos[1]!.logId, photos[2]!.logId, expect.any(String)].sort());
      expect(await detail(await idOf('license:a'))).toMatchObject({ logCount: 1, photoCount: 2 });
      expect(await store.byIdentifier(SERVER, 'license:photos-only')).toBeNull();
    });

    it('retention forgets expired logs: counts and seen span follow, empty players and their merged ids disappear', async () => {
      await store.record([
        mention(T0, [player(['license:a'])], { expiresAt: T0 + DAY }),
        mention(T0 + 2 * DAY, [player(['license:a'])], { expiresAt: T0 + 40 * DAY }),
        mention(T0, [player(['license:gone'])], { expiresAt: T0 + DAY }),
        mention(T0 + 1, [player(['license:gone2'])], { expiresAt: T0 + DAY }),
      ]);
      const gone = await idOf('license:gone');
      const gone2 = await idOf('license:gone2');
      await store.record([mention(T0 + 2, [player(['license:gone', 'license:gone2'])], { expiresAt: T0 + DAY })]);
      await store.forgetExpired(T0 + DAY - 1);
      expect((await detail(await idOf('license:a'))).logCount).toBe(2);
      await store.forgetExpired(T0 + DAY);
      expect(await detail(await idOf('license:a'))).toMatchObject({ logCount: 1, firstSeen: T0 + 2 * DAY });
      expect(await store.get(SERVER, gone)).toBeNull();
      expect(await store.get(SERVER, gone2)).toBeNull();
      expect((await store.list({ serverId: SERVER, offset: 0, limit: 10, itemsPerRow: 5 })).total).toBe(1);
      await store.forgetExpired(T0 + 41 * DAY);
      expect(await store.list({ serverId: SERVER, offset: 0, limit: 10, itemsPerRow: 5 })).toEqual({ players: [], total: 0 });
    });
  });
}
