/**
 * The player view over the logs service as the test kit builds it: logs arrive as `logs.batch-accepted`
 * events through the service's own consumer (extraction at storage), and are read and erased through the
 * routes with real tokens. Tenants: S (free tier: 10 photo logs) with owner-1, admin-1 and user-1; OTHER
 * of a stranger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditRecordedEvent, LogsBatchAcceptedEvent, TOPICS, eventMessage, on, subscribeEvents } from '@skald/contracts';
import type { AcceptedLog, AuditRecorded, PlayerDetail, PlayerList, PlayerLogPage } from '@skald/contracts';
import type { Subscription } from '@skald/ports';
import { waitFor } from '@skald/testing';
import { sweepExpired } from '../src/domain/retention.ts';
import { LOGS_CONSUMER_GROUP } from '../src/events/batch-consumer.ts';
import { BAD_CURSOR, BAD_IDENTIFIER, PLAYER_NOT_FOUND } from '../src/http/player-routes.ts';
import { NOW, createHarness, getAs, seedTenants, storedIds, storedObjects } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-players';
const OTHER = 'srv-players-other';
const ALICE = ['license:aaaa1111', 'discord:111'];
const BOB = ['license:bbbb2222'];

let h: Harness;
let audit: Subscription;
const audited: AuditRecorded[] = [];
let seq = 0;

function accepted(overrides: Partial<AcceptedLog>): AcceptedLog {
  seq += 1;
  return {
    id: `0190b000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    createdAt: NOW - 3_600_000 + seq * 1000,
    level: 'info',
    type: 'General',
    resource: 'core',
    message: `log ${seq}`,
    metadata: null,
    logType: 'text',
    imageKey: null,
    thumbKey: null,
    ...overrides,
  };
}

async function photo(overrides: Partial<AcceptedLog>): Promise<AcceptedLog> {
  const log = accepted({ logType: 'photo', ...overrides });
  const imageKey = `photos/${S}/${log.id}.webp`;
  const thumbKey = `thumbs/${S}/${log.id}.webp`;
  await h.deps.objects.put(imageKey, Buffer.from('image'), 'image/webp');
  await h.deps.objects.put(thumbKey, Buffer.from('thumb'), 'image/webp');
  return { ...log, imageKey, thumbKey };
}

/** Publishes an accepted event and waits until the service's consumer handled it (logs stored, players recorded). */
async function publish(serverId: string, logs: AcceptedLog[]): Promise<void> {
  await h.deps.bus.publish([eventMessage(LogsBatchAcceptedEvent, serverId, { serverId, logs })]);
  await waitFor(async () => ((await h.deps.bus.consumerLag?.()) ?? []).some((entry) => entry.group === LOGS_CONSUMER_GROUP && entry.topic === TOPICS.logsIngested && entry.lag === 0), 'the batch handled');
}

const as = (userId: string | null, url: string) => getAs(h, url, userId);
const list = async (query: string, userId = 'user-1'): Promise<PlayerList> => (await as(userId, `/players?serverId=${S}${query}`)).json();
const byIdentifier = async (identifier: string): Promise<PlayerDetail> => (await as('user-1', `/players/by-identifier/${encodeURIComponent(identifier)}?serverId=${S}`)).json();
const timeline = async (id: string, query = ''): Promise<PlayerLogPage> => (await as('user-1', `/players/${id}/logs?serverId=${S}${query}`)).json();

let kill: AcceptedLog;
let join: AcceptedLog;
let screenshot: AcceptedLog;

beforeAll(async () => {
  h = await createHarness();
  await seedTenants(h, S, OTHER);
  audit = await subscribeEvents(h.deps.bus, { group: 'test.players.audit', handlers: [on(AuditRecordedEvent, async (entry) => void audited.push(entry))] });
  join = accepted({ message: 'Alice joined', metadata: { player: { name: 'Alice', identifiers: [...ALICE, 'ip:10.0.0.1'] } } });
  kill = accepted({
    message: 'Alice was killed by Bob at the bank',
    metadata: { weapon: 'WEAPON_PISTOL', victim: { name: 'Alice', identifiers: ALICE }, killer: { name: 'Bob', identifiers: BOB } },
  });
  screenshot = await photo({ message: 'Screenshot of Bob', metadata: { player: { name: 'Bob', identifiers: BOB } } });
  await publish(S, [join, kill, screenshot, accepted({ message: 'no player here', metadata: { x: 1 } })]);
  await publish(OTHER, [accepted({ message: 'Alice elsewhere', metadata: { player: { name: 'Alice', identifiers: ALICE } } })]);
});

afterAll(async () => {
  await audit.stop();
  await h.close();
});

describe('GET /players', () => {
  it('lists the players newest lastSeen first, with names, identifiers, seen times and counts', async () => {
    const answer = await as('user-1', `/players?serverId=${S}`);
    expect(answer.statusCode).toBe(200);
    const body: PlayerList = answer.json();
    expect(body.total).toBe(2);
    expect(body.players.map((p) => p.name)).toEqual(['Bob', 'Alice']);
    const [bob, alice] = body.players;
    expect(bob).toMatchObject({ names: ['Bob'], identifiers: BOB, logCount: 1, photoCount: 1, firstSeen: new Date(kill.createdAt).toISOString(), lastSeen: new Date(screenshot.createdAt).toISOString() });
    expect(alice).toMatchObject({ names: ['Alice'], logCount: 2, photoCount: 0 });
    expect([...alice!.identifiers].sort()).toEqual([...ALICE, 'ip:10.0.0.1'].sort());
    expect(bob!.id).toMatch(/^\d+$/);
  });

  it('searches a name (contains, any case), an identifier and an identifier value without its kind', async () => {
    expect((await list('&search=LIC')).players.map((p) => p.name)).toEqual(['Alice']);
    expect((await list('&search=ali')).players.map((p) => p.name)).toEqual(['Alice']);
    expect((await list('&search=License:bbbb2222')).players.map((p) => p.name)).toEqual(['Bob']);
    expect((await list('&search=111')).players.map((p) => p.name)).toEqual(['Alice']);
    expect((await list('&search=nobody')).total).toBe(0);
  });

  it('pages with page and limit; total counts every match', async () => {
    expect(await list('&page=2&limit=1')).toMatchObject({ total: 2, players: [{ name: 'Alice' }] });
    expect((await as('user-1', `/players?serverId=${S}&limit=1000`)).statusCode).toBe(400);
  });

  it('answers 401 without a token and 404 for a server of another tenant', async () => {
    expect((await as(null, `/players?serverId=${S}`)).statusCode).toBe(401);
    const other = await as('user-1', `/players?serverId=${OTHER}`);
    expect(other.statusCode).toBe(404);
    expect((await as('stranger', `/players?serverId=${S}`)).statusCode).toBe(404);
  });
});

describe('GET /players/{id} and /players/by-identifier/{identifier}', () => {
  it('answers a player with every name and identifier first and last seen', async () => {
    const alice = await byIdentifier('license:aaaa1111');
    const answer = await as('user-1', `/players/${alice.id}?serverId=${S}`);
    expect(answer.statusCode).toBe(200);
    const body: PlayerDetail = answer.json();
    expect(body).toEqual(alice);
    expect(body.names).toEqual([{ name: 'Alice', firstSeen: new Date(join.createdAt).toISOString(), lastSeen: new Date(kill.createdAt).toISOString() }]);
    expect(body.identifiers.find((seen) => seen.identifier === 'ip:10.0.0.1')).toEqual({
      identifier: 'ip:10.0.0.1',
      firstSeen: new Date(join.createdAt).toISOString(),
      lastSeen: new Date(join.createdAt).toISOString(),
    });
  });

  it('finds an identifier with its kind in any case; 404 for one never seen, 400 for no identifier', async () => {
    expect((await byIdentifier('LICENSE:bbbb2222')).name).toBe('Bob');
    const unseen = await as('user-1', `/players/by-identifier/license:nobody?serverId=${S}`);
    expect([unseen.statusCode, unseen.json().error]).toEqual([404, PLAYER_NOT_FOUND]);
    const bad = await as('user-1', `/players/by-identifier/nokind?serverId=${S}`);
    expect([bad.statusCode, bad.json().error]).toEqual([400, BAD_IDENTIFIER]);
  });

  it("answers 404 for an unknown id, another server's player, and an id that is no number; 401 and 404 for strangers", async () => {
    const theirs = (await h.deps.playerStore!.byIdentifier(OTHER, 'license:aaaa1111'))!.id;
    for (const id of ['999999', theirs, 'abc']) {
      const answer = await as('user-1', `/players/${id}?serverId=${S}`);
      expect([id, answer.statusCode, answer.json().error]).toEqual([id, 404, PLAYER_NOT_FOUND]);
    }
    const alice = await byIdentifier('license:aaaa1111');
    expect((await as(null, `/players/${alice.id}?serverId=${S}`)).statusCode).toBe(401);
    expect((await as('user-1', `/players/${theirs}?serverId=${OTHER}`)).statusCode).toBe(404);
    expect((await as(null, `/players/by-identifier/license:aaaa1111?serverId=${S}`)).statusCode).toBe(401);
  });
});

describe('GET /players/{id}/logs', () => {
  it('answers the logs mentioning the player newest first, photo logs with signed image paths', async () => {
    const bob = await byIdentifier('license:bbbb2222');
    const page = await timeline(bob.id);
    expect(page.logs.map((log) => log.id)).toEqual([screenshot.id, kill.id]);
    expect(page.next).toBeNull();
    const [shot, killed] = page.logs;
    expect(shot).toMatchObject({ log_type: 'photo', message: 'Screenshot of Bob' });
    expect(shot!.image_path).toMatch(new RegExp(`${screenshot.id}`));
    expect(shot!.thumb_path).toEqual(expect.any(String));
    expect(killed).toMatchObject({ log_type: 'text', image_path: null, metadata: kill.metadata });
  });

  it('pages by the next cursor, and keeps to one log type when asked', async () => {
    const alice = await byIdentifier('license:aaaa1111');
    const first = await timeline(alice.id, '&limit=1');
    expect(first.logs.map((log) => log.id)).toEqual([kill.id]);
    expect(first.next).toEqual(expect.any(String));
    const second = await timeline(alice.id, `&limit=1&before=${encodeURIComponent(first.next!)}`);
    expect(second.logs.map((log) => log.id)).toEqual([join.id]);
    expect(second.next).toBeNull();
    const bob = await byIdentifier('license:bbbb2222');
    expect((await timeline(bob.id, '&logType=photo')).logs.map((log) => log.id)).toEqual([screenshot.id]);
    expect((await timeline(bob.id, '&logType=text')).logs.map((log) => log.id)).toEqual([kill.id]);
  });

  it('refuses a cursor it did not give (400), and answers 404 for an unknown player and another tenant', async () => {
    const alice = await byIdentifier('license:aaaa1111');
    const bad = await as('user-1', `/players/${alice.id}/logs?serverId=${S}&before=garbage`);
    expect([bad.statusCode, bad.json().error]).toEqual([400, BAD_CURSOR]);
    expect((await as('user-1', `/players/999999/logs?serverId=${S}`)).statusCode).toBe(404);
    expect((await as('stranger', `/players/${alice.id}/logs?serverId=${S}`)).statusCode).toBe(404);
    expect((await as(null, `/players/${alice.id}/logs?serverId=${S}`)).statusCode).toBe(401);
  });
});

describe('merges', () => {
  it('a log joining two players leaves the older id; the other answers { mergedInto }', async () => {
    await publish(S, [accepted({ message: 'Carol joined', metadata: { player: { name: 'Carol', identifiers: ['license:cccc3333'] } } })]);
    const carol = await byIdentifier('license:cccc3333');
    const alice = await byIdentifier('license:aaaa1111');
    expect(Number(carol.id)).toBeGreaterThan(Number(alice.id));
    // Alice's Discord account seen with Carol's license: linked accounts.
    await publish(S, [accepted({ message: 'alt account', metadata: { identifiers: ['discord:111', 'license:cccc3333'] } })]);
    await waitFor(async () => (await as('user-1', `/players/${carol.id}?serverId=${S}`)).json().mergedInto !== undefined, 'the merge');
    const merged = await as('user-1', `/players/${carol.id}?serverId=${S}`);
    expect([merged.statusCode, merged.json()]).toEqual([200, { mergedInto: alice.id }]);
    const survivor = await byIdentifier('license:cccc3333');
    expect(survivor.id).toBe(alice.id);
    expect(survivor.names.map((seen) => seen.name).sort()).toEqual(['Alice', 'Carol']);
    expect(survivor.logCount).toBe(4);
    expect((await timeline(carol.id)).logs).toHaveLength(4);
  });
});

describe('DELETE /players/{id}', () => {
  it('is for the owner only: 401 without a token, 403 for admin and user, 404 for another tenant', async () => {
    const bob = await byIdentifier('license:bbbb2222');
    const url = `/players/${bob.id}?serverId=${S}`;
    expect((await h.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    for (const userId of ['admin-1', 'user-1']) expect((await h.injectAs({ id: userId }, { method: 'DELETE', url })).statusCode).toBe(403);
    expect((await h.injectAs({ id: 'stranger' }, { method: 'DELETE', url })).statusCode).toBe(404);
    expect((await byIdentifier('license:bbbb2222')).logCount).toBe(1);
  });

  it('erases every log and photo mentioning the player, the photo objects and the player; audited with the count', async () => {
    const bob = await byIdentifier('license:bbbb2222');
    const aliceBefore = await byIdentifier('license:aaaa1111');
    const answer = await h.injectAs({ id: 'owner-1' }, { method: 'DELETE', url: `/players/${bob.id}?serverId=${S}` });
    expect([answer.statusCode, answer.json()]).toEqual([200, { erased: 2 }]);
    const ids = await storedIds(h, S);
    expect(ids).not.toContain(kill.id);
    expect(ids).not.toContain(screenshot.id);
    expect(ids).toContain(join.id);
    expect(await storedObjects(h)).not.toContain(screenshot.imageKey);
    expect(await storedObjects(h)).not.toContain(screenshot.thumbKey);
    expect((await as('user-1', `/players/${bob.id}?serverId=${S}`)).statusCode).toBe(404);
    expect((await as('user-1', `/players/by-identifier/license:bbbb2222?serverId=${S}`)).statusCode).toBe(404);
    // Alice was in the erased kill log too: it leaves her timeline and count at once.
    const alice = await byIdentifier('license:aaaa1111');
    expect(alice.logCount).toBe(aliceBefore.logCount - 1);
    expect((await timeline(alice.id)).logs.map((log) => log.id)).not.toContain(kill.id);
    await waitFor(() => audited.some((entry) => entry.action === 'player.erased'), 'the audit entry');
    expect(audited.find((entry) => entry.action === 'player.erased')).toMatchObject({ serverId: S, actorId: 'owner-1', details: { playerId: bob.id, erasedCount: 2 } });
    // The other tenant's Alice is untouched.
    expect(await h.deps.playerStore!.byIdentifier(OTHER, 'license:aaaa1111')).not.toBeNull();
  });
});

describe('deletions of logs reach the players', () => {
  it('the photo limit: players forget the evicted photo logs', async () => {
    // The free tier keeps 10 photo logs: 12 photos of Dave, the 2 oldest evicted.
    const shots = [];
    for (let i = 0; i < 12; i++) shots.push(await photo({ message: `shot ${i}`, metadata: { player: { name: 'Dave', identifiers: ['license:dddd4444'] } } }));
    await publish(S, shots);
    await waitFor(async () => (await byIdentifier('license:dddd4444')).photoCount === 10, 'the evicted photos forgotten');
    const dave = await byIdentifier('license:dddd4444');
    expect(dave.firstSeen).toBe(new Date(shots[2]!.createdAt).toISOString());
    expect((await timeline(dave.id)).logs.map((log) => log.id)).toEqual(shots.slice(2).reverse().map((log) => log.id));
  });

  it('retention removes the rows with their logs, and a player with no remaining logs disappears', async () => {
    await publish(S, [accepted({ message: 'Eve', metadata: { player: { name: 'Eve', identifiers: ['license:eeee5555'] } } })]);
    const eve = await byIdentifier('license:eeee5555');
    // Free tier: 7 days from arrival. Past every log's expiry, everything goes.
    await sweepExpired({ logStore: h.deps.logStore, objects: h.deps.objects, log: h.deps.log, players: { store: h.deps.playerStore!, catchUp: async () => undefined } }, NOW + 8 * 86_400_000);
    expect((await as('user-1', `/players/${eve.id}?serverId=${S}`)).statusCode).toBe(404);
    expect(await list('')).toEqual({ players: [], total: 0 });
  });

  it('DELETE /logs/cleanup: players forget the deleted logs', async () => {
    await publish(S, [accepted({ message: 'Frank', metadata: { player: { name: 'Frank', identifiers: ['license:ffff6666'] } } })]);
    expect((await list('')).total).toBe(1);
    const cleaned = await h.injectAs({ id: 'admin-1' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=0` });
    expect(cleaned.statusCode).toBe(200);
    expect(await list('')).toEqual({ players: [], total: 0 });
  });
});
