/**
 * GET /logs/{id}/context over the real service: who may read it, its bounds, and the order of the logs
 * around a log (text and photo together, ties in one millisecond by id, both lists oldest first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_LINES, MAX_CONTEXT_LINES } from '@skald/contracts';
import type { ApiLog, LogContext } from '@skald/contracts';
import { SERVER_NOT_FOUND } from '@skald/service-kit';
import { LOG_NOT_FOUND } from '../src/http/context-route.ts';
import { NOW, createHarness, getAs, record, seedTenants } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-context';
const OTHER = 'srv-context-other';
let h: Harness;

const ids = (logs: readonly ApiLog[]) => logs.map((log) => log.id);
const context = (id: string, query = '', user: string | null = 'user-1') => getAs(h, `/logs/${encodeURIComponent(id)}/context?serverId=${S}${query}`, user);

/** A UUIDv7 as ingestion makes them: its first 48 bits are the arrival. */
function uuid7(ms: number, n: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7${n.toString(16).padStart(3, '0')}-8000-${n.toString(16).padStart(12, '0')}`;
}

beforeAll(async () => {
  h = await createHarness();
  await seedTenants(h, S, OTHER);
  // 60 logs a second apart (m-00 oldest), three in one millisecond around the middle, a photo log among them,
  // and the other tenant's logs at the same times.
  const t = (i: number) => NOW - 3_600_000 + i * 1000;
  const logs = Array.from({ length: 60 }, (_, i) => record(S, { id: `m-${String(i).padStart(2, '0')}`, createdAt: t(i), message: `line ${i}` }));
  logs.push(
    record(S, { id: 'm-30a', createdAt: t(30), message: 'same millisecond a' }),
    record(S, { id: 'm-30b', createdAt: t(30), logType: 'photo', imageKey: `photos/${S}/m-30b.webp`, thumbKey: `thumbs/${S}/m-30b.webp`, message: 'screenshot' }),
    // A log stamped by its game server 19.5 s before it arrived, found through its id's time.
    record(S, { id: uuid7(t(45), 1), createdAt: t(45) - 19_500, receivedAt: t(45), message: 'late arrival' }),
  );
  await h.deps.logStore.insertBatch(logs);
  await h.deps.logStore.insertBatch(Array.from({ length: 5 }, (_, i) => record(OTHER, { id: `o-${i}`, createdAt: t(30) + i })));
});

afterAll(async () => {
  await h.close();
});

describe('GET /logs/{id}/context', () => {
  it('answers the log and its neighbours in time, both lists oldest first, text and photo together, ties by id', async () => {
    const res = await context('m-30', '&before=3&after=3');
    expect(res.statusCode).toBe(200);
    const body = res.json<LogContext>();
    expect(body.log).toMatchObject({ id: 'm-30', message: 'line 30', log_type: 'text', created_at: new Date(NOW - 3_600_000 + 30_000).toISOString() });
    expect(ids(body.before)).toEqual(['m-27', 'm-28', 'm-29']);
    expect(ids(body.after)).toEqual(['m-30a', 'm-30b', 'm-31']);
    const photo = body.after[1]!;
    expect(photo.log_type).toBe('photo');
    expect(photo.image_path).toMatch(/^\/api\/photologs\/image\/m-30b\?t=/);
    expect(photo.thumb_path).toMatch(/^\/api\/photologs\/image\/m-30b\?/);
    // From the photo log itself: the tie is broken the same way on both sides.
    const around = (await context('m-30b', '&before=2&after=1')).json<LogContext>();
    expect(ids(around.before)).toEqual(['m-30', 'm-30a']);
    expect(ids(around.after)).toEqual(['m-31']);
  });

  it(`takes ${DEFAULT_CONTEXT_LINES} on each side by default, fewer near either end, and none when asked for 0`, async () => {
    const middle = (await context('m-29')).json<LogContext>();
    expect(middle.before).toHaveLength(DEFAULT_CONTEXT_LINES);
    expect(middle.after).toHaveLength(DEFAULT_CONTEXT_LINES);
    expect(middle.before.at(-1)!.id).toBe('m-28');
    const first = (await context('m-00', `&before=${MAX_CONTEXT_LINES}&after=2`)).json<LogContext>();
    expect(first.before).toEqual([]);
    expect(ids(first.after)).toEqual(['m-01', 'm-02']);
    const last = (await context('m-59', `&after=${MAX_CONTEXT_LINES}&before=0`)).json<LogContext>();
    expect(last).toMatchObject({ before: [], after: [] });
    expect(last.log.id).toBe('m-59');
  });

  it('finds a log stamped by its game server before it arrived, and places it by its own time', async () => {
    const id = uuid7(NOW - 3_600_000 + 45_000, 1);
    const body = (await context(id, '&before=1&after=1')).json<LogContext>();
    expect(body.log).toMatchObject({ id, message: 'late arrival' });
    // 19.5 s before m-45 arrived: between m-25 and m-26.
    expect(ids(body.before)).toEqual(['m-25']);
    expect(ids(body.after)).toEqual(['m-26']);
  });

  it('lets every member read it (user, admin, owner)', async () => {
    for (const user of ['user-1', 'admin-1', 'owner-1']) {
      const res = await context('m-10', '&before=1&after=1', user);
      expect(res.statusCode, user).toBe(200);
      expect(ids(res.json<LogContext>().before), user).toEqual(['m-09']);
    }
  });

  it('answers 401 without a token', async () => {
    const res = await context('m-10', '', null);
    expect(res.statusCode).toBe(401);
  });

  it("answers 404 to the other tenant, and for another server's log or an unknown id", async () => {
    const stranger = await context('m-10', '', 'stranger');
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe(SERVER_NOT_FOUND);
    // A member of S naming the other server: not a member there.
    const otherServer = await getAs(h, `/logs/o-1/context?serverId=${OTHER}`, 'user-1');
    expect(otherServer.statusCode).toBe(404);
    expect(otherServer.json().message).toBe(SERVER_NOT_FOUND);
    // The other server's log asked for on S, and an id of nothing.
    for (const id of ['o-1', 'nope', uuid7(NOW, 7)]) {
      const res = await context(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message, id).toBe(LOG_NOT_FOUND);
    }
    // The stranger owns OTHER and still cannot reach S's log through it.
    expect((await getAs(h, `/logs/m-10/context?serverId=${OTHER}`, 'stranger')).statusCode).toBe(404);
  });

  it('refuses bad counts with a sentence', async () => {
    const cases: [string, string][] = [
      ['&before=101', `The number of logs before must be a whole number from 0 to ${MAX_CONTEXT_LINES}.`],
      ['&before=-1', `The number of logs before must be a whole number from 0 to ${MAX_CONTEXT_LINES}.`],
      ['&after=abc', `The number of logs after must be a whole number from 0 to ${MAX_CONTEXT_LINES}.`],
      ['&after=1.5', `The number of logs after must be a whole number from 0 to ${MAX_CONTEXT_LINES}.`],
      ['&around=3', 'Unknown field: around.'],
    ];
    for (const [query, sentence] of cases) {
      const res = await context('m-10', query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBe(sentence);
    }
    const noServer = await getAs(h, '/logs/m-10/context', 'user-1');
    expect(noServer.statusCode).toBe(404);
  });
});
