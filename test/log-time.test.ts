/**
 * The time a log happened, end to end through the all-in-one (ingestion → bus → logs store → list): logs
 * sent in one order with their own times in another come back ordered, paged, filtered, counted and
 * exported by those times, each with the arrival beside it; a time outside the window keeps the arrival and
 * says so; an invalid one is a 400 that stores nothing. Times are relative to the clock with margins of
 * minutes and hours, so a slow machine cannot move a log across a bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiLog, LogHistogram } from '@skald/contracts';
import { waitFor } from '@skald/testing';
import { bearer, startAllInOne } from '../gateway/test/support/all-in-one.ts';
import type { AllInOne } from '../gateway/test/support/all-in-one.ts';

const HOUR = 3_600_000;

let aio: AllInOne;
let token: string;
let serverId: string;
let key: string;
/** When the test started sending: every time below is relative to it. */
let now: number;
/** The clock's bounds around the first request, and the second request's start. */
let firstSent: { before: number; after: number };
let secondBefore: number;

async function list(query = ''): Promise<{ logs: ApiLog[]; total: number }> {
  const res = await aio.inject({ method: 'GET', url: `/api/logs/my?serverId=${serverId}${query}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return { logs: res.json<ApiLog[]>(), total: Number(res.headers['x-total-count']) };
}

beforeAll(async () => {
  aio = await startAllInOne();
  token = (await aio.signUp('timeowner')).token;
  const server = await aio.createServer(token, 'Time RP');
  serverId = server.id;
  key = server.api_key;
  now = Date.now();
  // A resource that batched through an outage sends its logs late, each with the time it happened.
  let before = Date.now();
  const first = await aio.inject({
    method: 'POST',
    url: '/api/logs',
    headers: { 'x-api-key': key },
    payload: [
      { message: 'third', timestamp: now - HOUR },
      { message: 'first', timestamp: new Date(now - 20 * HOUR).toISOString() },
      { message: 'fourth' },
      { message: 'second', timestamp: String(now - 5 * HOUR) },
      { message: 'refused', timestamp: now - 30 * HOUR, metadata: { player: 'Ann' } },
    ],
  });
  expect(first.statusCode, first.body).toBe(201);
  firstSent = { before, after: Date.now() };
  before = Date.now();
  secondBefore = before;
  const second = await aio.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': key }, payload: { message: 'zeroth', timestamp: now - 23 * HOUR } });
  expect(second.statusCode, second.body).toBe(201);
  await waitFor(async () => (await list()).logs.length === 6, 'the six logs stored');
});

afterAll(async () => {
  await aio?.close();
});

describe('a log’s own time, end to end', () => {
  it('lists the logs by the time they happened, not the order they arrived in, with both times', async () => {
    const { logs, total } = await list();
    expect(total).toBe(6);
    // 'refused' and 'fourth' took the first request's arrival (one millisecond: the later id first).
    expect(logs.map((l) => l.message)).toEqual(['refused', 'fourth', 'third', 'second', 'first', 'zeroth']);
    const byMessage = new Map(logs.map((l) => [l.message, l]));
    expect(byMessage.get('third')!.created_at).toBe(new Date(now - HOUR).toISOString());
    expect(byMessage.get('second')!.created_at).toBe(new Date(now - 5 * HOUR).toISOString());
    expect(byMessage.get('first')!.created_at).toBe(new Date(now - 20 * HOUR).toISOString());
    expect(byMessage.get('zeroth')!.created_at).toBe(new Date(now - 23 * HOUR).toISOString());
    for (const message of ['third', 'second', 'first', 'fourth', 'refused']) {
      const received = Date.parse(byMessage.get(message)!.received_at);
      expect(received).toBeGreaterThanOrEqual(firstSent.before);
      expect(received).toBeLessThanOrEqual(firstSent.after);
    }
    expect(Date.parse(byMessage.get('zeroth')!.received_at)).toBeGreaterThanOrEqual(secondBefore);
    expect(byMessage.get('fourth')!.created_at).toBe(byMessage.get('fourth')!.received_at);
    const refused = byMessage.get('refused')!;
    expect(refused.created_at).toBe(refused.received_at);
    expect(refused.metadata).toEqual({ player: 'Ann', _skald: { clientTimestamp: now - 30 * HOUR, timestampRejected: 'too old' } });
  });

  it('pages and filters by the log’s time', async () => {
    const page2 = await list('&page=2&pageSize=2');
    expect(page2.logs.map((l) => l.message)).toEqual(['third', 'second']);
    expect(page2.total).toBe(6);
    const range = `&timeFrom=${encodeURIComponent(new Date(now - 6 * HOUR).toISOString())}&timeTo=${encodeURIComponent(new Date(now - 30 * 60_000).toISOString())}`;
    const inRange = await list(range);
    expect(inRange.logs.map((l) => l.message)).toEqual(['third', 'second']);
    expect(inRange.total).toBe(2);
    // A whole UTC day: the logs that happened on it, wherever their arrival fell.
    const all = (await list()).logs;
    const day = new Date(now - 20 * HOUR).toISOString().slice(0, 10);
    const onDay = await list(`&dateFrom=${day}&dateTo=${day}&timeZone=UTC`);
    expect(onDay.logs.map((l) => l.message)).toEqual(all.filter((l) => l.created_at.startsWith(day)).map((l) => l.message));
    expect(onDay.logs.map((l) => l.message)).toContain('first');
  });

  it('counts the histogram and the dashboard’s days by the log’s time', async () => {
    const res = await aio.inject({ method: 'GET', url: `/api/logs/my/histogram?serverId=${serverId}&timeZone=UTC`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    const histogram = res.json<LogHistogram>();
    expect(histogram.total).toBe(6);
    const barOf = (iso: string) => histogram.buckets.find((b) => b.from <= iso && iso < b.to);
    const zeroth = new Date(now - 23 * HOUR).toISOString();
    expect(barOf(zeroth)!.total).toBeGreaterThanOrEqual(1);
    expect(histogram.buckets[0]!.from <= zeroth).toBe(true);
    const stats = await aio.inject({ method: 'GET', url: `/api/logs/stats?serverId=${serverId}`, headers: bearer(token) });
    expect(stats.statusCode).toBe(200);
    const days = stats.json<{ last7Days: { date: string; text: number }[] }>().last7Days;
    const all = (await list()).logs;
    for (const { date, text } of days) expect(text, date).toBe(all.filter((l) => l.created_at.startsWith(date)).length);
  });

  it('exports newest first by the log’s time', async () => {
    const res = await aio.inject({ method: 'GET', url: `/api/exports/logs?serverId=${serverId}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.body.trim().split('\r\n').slice(1);
    expect(rows.map((row) => row.split(',')[5])).toEqual(['refused', 'fourth', 'third', 'second', 'first', 'zeroth']);
  });

  it('answers 400 naming the field for a timestamp that is no time, and stores nothing of that request', async () => {
    const res = await aio.inject({ method: 'POST', url: '/api/logs', headers: { 'x-api-key': key }, payload: [{ message: 'kept out' }, { message: 'bad', timestamp: 'tomorrow' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: '[1].timestamp' });
    expect((await list()).total).toBe(6);
  });
});
