/** GET /logs/my/histogram and /photologs/my/histogram: the lists' matches over time, by level. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogHistogram } from '@skald/contracts';
import { createHarness, getAs, record, seedTenants } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-1';
const OTHER = 'srv-2';
const HOUR = 3_600_000;
let h: Harness;

const get = (url: string, user: string | null = 'owner-1') => getAs(h, url, user);
const at = (iso: string) => Date.parse(iso);

async function histogram(query: string, path = '/logs/my/histogram'): Promise<LogHistogram> {
  const res = await get(`${path}?serverId=${S}&${query}`);
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json<LogHistogram>();
}

beforeEach(async () => {
  h = await createHarness();
  await seedTenants(h, S, OTHER);
});

afterEach(async () => {
  await h.close();
});

describe('GET /logs/my/histogram', () => {
  beforeEach(async () => {
    const levels = ['info', 'warn', 'error', 'debug', 'fatal'];
    const records = Array.from({ length: 90 }, (_, i) =>
      record(S, {
        createdAt: at('2025-08-18T00:00:00.000Z') + i * 47 * 60_000,
        level: levels[i % 5]!,
        type: i % 3 === 0 ? 'Combat' : 'General',
        resource: i % 4 === 0 ? 'arena' : 'lobby',
        message: i % 6 === 0 ? `sword swing ${i}` : `walked ${i}`,
        metadata: i % 10 === 0 ? { weapon: 'Crossbow' } : null,
        logType: i % 9 === 0 ? 'photo' : 'text',
        ...(i % 9 === 0 ? { imageKey: `photos/${S}/${i}.webp`, thumbKey: `thumbs/${S}/${i}.webp` } : {}),
      }),
    );
    await h.deps.logStore.insertBatch([...records, record(OTHER, { createdAt: at('2025-08-18T05:00:00.000Z'), message: 'sword of the other tenant' })]);
  });

  it('counts exactly what the list matches: its sum is X-Total-Count for every filter, search and range', async () => {
    const queries = [
      '',
      'level=ERROR',
      'search=sword',
      'search=SWORD&level=info',
      'search=crossbow',
      'type=combat&resource=ARENA',
      'dateFrom=2025-08-18&dateTo=2025-08-18&timeZone=Asia/Kolkata',
      'dateFrom=2025-08-19&timeZone=America/New_York&level=warn',
      'timeFrom=2025-08-18T10:00:00Z&timeTo=2025-08-18T14:00:00Z',
      'search=&level=&type=&dateFrom=&dateTo=',
    ];
    for (const q of queries) {
      const list = await get(`/logs/my?serverId=${S}&page=1&pageSize=1&${q}`);
      const answer = await histogram(q);
      expect(answer.total, q).toBe(Number(list.headers['x-total-count']));
      expect(answer.total, q).toBeGreaterThan(0);
      expect(answer.buckets.reduce((a, b) => a + b.total, 0), q).toBe(answer.total);
      for (const bar of answer.buckets) expect(Object.values(bar.levels).reduce((a, b) => a + b, 0)).toBe(bar.total);
      expect(answer.capped).toBe(false);
      expect(answer.buckets.length, q).toBeLessThanOrEqual(61);
    }
    const photos = await get(`/photologs/my?serverId=${S}&level=info`);
    const photoHistogram = await histogram('level=info', '/photologs/my/histogram');
    expect(photoHistogram.total).toBe(photos.json<{ total: number }>().total);
    expect(photoHistogram.total).toBeGreaterThan(0);
  });

  it('lists exactly a bar’s logs when its from and to go back as timeFrom and timeTo', async () => {
    const answer = await histogram('search=walked');
    const bar = answer.buckets.find((b) => b.total > 1)!;
    const res = await get(`/logs/my?serverId=${S}&search=walked&timeFrom=${bar.from}&timeTo=${bar.to}`);
    const logs = res.json<{ created_at: string; level: string }[]>();
    expect(logs).toHaveLength(bar.total);
    for (const log of logs) expect(log.created_at >= bar.from && log.created_at < bar.to).toBe(true);
    const byLevel: Record<string, number> = {};
    for (const log of logs) byLevel[log.level] = (byLevel[log.level] ?? 0) + 1;
    expect(byLevel).toEqual(bar.levels);
  });

  it('answers no bars and no step when nothing matches', async () => {
    expect(await histogram('search=nothing%20like%20this')).toEqual({ step: null, timeZone: 'UTC', buckets: [], total: 0, capped: false, countedFrom: null });
  });

  it('refuses bad filters with the list’s own messages, and unknown or paging parameters', async () => {
    const bad = async (q: string) => {
      const res = await get(`/logs/my/histogram?serverId=${S}&${q}`);
      expect(res.statusCode, q).toBe(400);
      return res.json<{ error: string }>().error;
    };
    expect(await bad('dateFrom=2025-02-31')).toBe('dateFrom must be a date YYYY-MM-DD');
    expect(await bad('dateFrom=2025-08-18&timeZone=Mars/Olympus')).toBe('timeZone must be a time zone such as Europe/Berlin or +02:00');
    expect(await bad('timeFrom=yesterday')).toBe('timeFrom must be an ISO 8601 time such as 2025-03-10T14:00:00Z');
    expect(await bad('timeTo=2025-08-18')).toBe('timeTo must be an ISO 8601 time such as 2025-03-10T15:00:00Z');
    expect(await bad('page=2')).toEqual(expect.any(String));
    expect(await bad('bogus=1')).toEqual(expect.any(String));
    // The list refuses the same way.
    expect((await get(`/logs/my?serverId=${S}&timeFrom=yesterday`)).json<{ error: string }>().error).toBe('timeFrom must be an ISO 8601 time such as 2025-03-10T14:00:00Z');
  });

  it('lets every member read it; another tenant gets 404 and no token 401, as for the list', async () => {
    for (const path of ['/logs/my/histogram', '/photologs/my/histogram']) {
      for (const user of ['owner-1', 'admin-1', 'user-1']) expect((await get(`${path}?serverId=${S}`, user)).statusCode, `${user} ${path}`).toBe(200);
      expect((await get(`${path}?serverId=${S}`, 'stranger')).statusCode, path).toBe(404);
      expect((await get(`${path}?serverId=${S}`, null)).statusCode, path).toBe(401);
      expect((await get(`${path}?serverId=does-not-exist`)).statusCode, path).toBe(404);
    }
    // The other tenant's own histogram holds only its log.
    expect((await get(`/logs/my/histogram?serverId=${OTHER}`, 'stranger')).json<LogHistogram>().total).toBe(1);
  });
});

describe('histogram bars in the user’s time zone', () => {
  it('starts the bars at local midnight and full local hours (Asia/Kolkata, +05:30)', async () => {
    await h.deps.logStore.insertBatch([
      record(S, { createdAt: at('2025-08-17T18:30:00.000Z'), level: 'info' }), // 00:00 local on the 18th: first bar
      record(S, { createdAt: at('2025-08-17T18:59:59.999Z'), level: 'warn' }), // 00:29:59.999 local: still the first bar
      record(S, { createdAt: at('2025-08-17T19:00:00.000Z'), level: 'error' }), // 00:30 local: the second
      record(S, { createdAt: at('2025-08-17T18:29:59.999Z'), level: 'error' }), // the 17th local: outside
    ]);
    const answer = await histogram('dateFrom=2025-08-18&dateTo=2025-08-18&timeZone=Asia/Kolkata');
    expect(answer.step).toBe('30m');
    expect(answer.timeZone).toBe('Asia/Kolkata');
    expect(answer.buckets).toHaveLength(48);
    expect(answer.buckets[0]).toEqual({ from: '2025-08-17T18:30:00.000Z', to: '2025-08-17T19:00:00.000Z', total: 2, levels: { info: 1, warn: 1 } });
    expect(answer.buckets[1]).toMatchObject({ from: '2025-08-17T19:00:00.000Z', total: 1, levels: { error: 1 } });
    expect(answer.buckets[47]!.to).toBe('2025-08-18T18:30:00.000Z');
  });

  it('follows the wall clock across a daylight-saving change (Europe/Berlin, 26 October 2025)', async () => {
    h.clock.now = at('2025-11-01T00:00:00.000Z');
    await h.deps.logStore.insertBatch([
      record(S, { createdAt: at('2025-10-25T23:30:00.000Z'), level: 'info' }), // 01:30 CEST on the 26th
      record(S, { createdAt: at('2025-10-26T01:30:00.000Z'), level: 'info' }), // 02:30 CET, the repeated hour
      record(S, { createdAt: at('2025-10-26T02:00:00.000Z'), level: 'warn' }), // 03:00 CET: the next bar
    ]);
    const answer = await histogram('dateFrom=2025-10-20&dateTo=2025-10-26&timeZone=Europe/Berlin');
    expect(answer.step).toBe('3h');
    expect(answer.buckets[0]!.from).toBe('2025-10-19T22:00:00.000Z'); // Monday 00:00 CEST
    expect(answer.buckets.at(-1)!.to).toBe('2025-10-26T23:00:00.000Z'); // Monday 00:00 CET
    const lengths = answer.buckets.map((b) => (at(b.to) - at(b.from)) / HOUR);
    // The bar from 00:00 to 03:00 local on the 26th holds the repeated hour: 4 hours; every other bar 3.
    const night = answer.buckets.findIndex((b) => b.from === '2025-10-25T22:00:00.000Z');
    expect(lengths[night]).toBe(4);
    expect(lengths.filter((l, i) => i !== night && l !== 3)).toEqual([]);
    expect(answer.buckets[night]!.levels).toEqual({ info: 2 });
    expect(answer.buckets[night + 1]).toMatchObject({ from: '2025-10-26T02:00:00.000Z', levels: { warn: 1 } });
    expect(answer.total).toBe(3);
  });
});
