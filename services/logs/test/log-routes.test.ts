import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COLOR_LEVELS, LOG_LEVELS, QUOTA_WINDOW_MS, quotaKey, quotaWindowStart } from '@skald/contracts';
import { signAccessToken } from '@skald/service-kit';
import { generateTestKeys, waitFor } from '@skald/testing';
import { NOW, createHarness, getAs, record, seedTenants, storedIds, storedObjects } from './support/harness.ts';
import type { Harness } from './support/harness.ts';

const S = 'srv-1';
const OTHER = 'srv-2';
let h: Harness;

function get(url: string, user: string | null = 'owner-1') {
  return getAs(h, url, user);
}

beforeEach(async () => {
  h = await createHarness();
  await seedTenants(h, S, OTHER);
});

afterEach(async () => {
  await h.close();
});

describe('GET /logs/my', () => {
  it('answers the spec field names, newest first, with X-Total-Count', async () => {
    await h.deps.logStore.insertBatch([
      record(S, { id: 'a', createdAt: NOW - 2000, message: 'older', metadata: { player: 'Steve' } }),
      record(S, { id: 'b', createdAt: NOW - 1000, message: 'newer' }),
      record(OTHER, { id: 'c', createdAt: NOW - 500 }),
      record(S, { id: 'p', createdAt: NOW - 100, logType: 'photo', imageKey: 'photos/srv-1/p.webp', thumbKey: 'thumbs/srv-1/p.webp' }),
    ]);
    const res = await get(`/logs/my?serverId=${S}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers['x-total-capped']).toBe('false');
    const body = res.json();
    expect(body.map((l: { id: string }) => l.id)).toEqual(['b', 'a']);
    expect(body[1]).toEqual({
      id: 'a',
      created_at: new Date(NOW - 2000).toISOString(),
      received_at: new Date(NOW - 2000).toISOString(),
      level: 'info',
      type: 'General',
      resource: 'unknown',
      message: 'older',
      metadata: { player: 'Steve' },
      log_type: 'text',
      image_path: null,
      thumb_path: null,
    });
  });

  it('combined includes photo logs with signed image paths', async () => {
    await h.deps.logStore.insertBatch([
      record(S, { id: 't', createdAt: NOW - 2000 }),
      record(S, { id: 'p', createdAt: NOW - 100, logType: 'photo', imageKey: 'photos/srv-1/p.webp', thumbKey: 'thumbs/srv-1/p.webp' }),
    ]);
    const body = (await get(`/logs/my/combined?serverId=${S}`)).json();
    expect(body.map((l: { id: string }) => l.id)).toEqual(['p', 't']);
    expect(body[0].log_type).toBe('photo');
    expect(body[0].image_path).toMatch(/^\/api\/photologs\/image\/p\?t=/);
    expect(body[0].thumb_path).toMatch(/^\/api\/photologs\/image\/p\?t=/);
  });

  it('filters case-insensitively, searches metadata, and bounds dates by whole UTC days', async () => {
    const day = (iso: string) => Date.parse(iso);
    await h.deps.logStore.insertBatch([
      record(S, { id: 'd1-start', createdAt: day('2025-08-18T00:00:00.000Z'), level: 'error', type: 'Combat', resource: 'ArenaRes' }),
      record(S, { id: 'd1-end', createdAt: day('2025-08-18T23:59:59.999Z'), level: 'warn', metadata: { weapon: 'Crossbow' } }),
      record(S, { id: 'd0', createdAt: day('2025-08-17T23:59:59.999Z'), level: 'error' }),
      record(S, { id: 'd2', createdAt: day('2025-08-19T00:00:00.000Z'), level: 'error' }),
    ]);
    const ids = async (q: string) => (await get(`/logs/my?serverId=${S}&${q}`)).json().map((l: { id: string }) => l.id);
    expect(await ids('dateFrom=2025-08-18&dateTo=2025-08-18')).toEqual(['d1-end', 'd1-start']);
    expect(await ids('level=ERROR')).toEqual(['d2', 'd1-start', 'd0']);
    expect(await ids('type=combat&resource=arenares')).toEqual(['d1-start']);
    expect(await ids('search=crossBOW')).toEqual(['d1-end']);
    expect(await ids('dateFrom=&dateTo=&search=&level=')).toHaveLength(4);
  });

  it('pages on the server (page from 1, pageSize) and answers the newest 1000 without page', async () => {
    await h.deps.logStore.insertBatch(Array.from({ length: 1005 }, (_, i) => record(S, { id: `n${String(i).padStart(4, '0')}`, createdAt: NOW - 10_000 + i })));
    const page2 = await get(`/logs/my?serverId=${S}&page=2&pageSize=3`);
    expect(page2.headers['x-total-count']).toBe('1005');
    expect(page2.json().map((l: { id: string }) => l.id)).toEqual(['n1001', 'n1000', 'n0999']);
    const defaultSize = await get(`/logs/my?serverId=${S}&page=1`);
    expect(defaultSize.json()).toHaveLength(10);
    const unpaged = await get(`/logs/my?serverId=${S}`);
    expect(unpaged.json()).toHaveLength(1000);
    expect(unpaged.json()[0].id).toBe('n1004');
  });

  it("bounds dates by the caller's local days when timeZone is given", async () => {
    // Berlin is UTC+2 in August: its 2025-08-18 runs from 2025-08-17T22:00Z to 2025-08-18T21:59:59.999Z.
    // New York is UTC-4: 2025-08-18T02:00Z is still the evening of its 2025-08-17.
    await h.deps.logStore.insertBatch([
      record(S, { id: 'before', createdAt: Date.parse('2025-08-17T21:59:59.999Z') }),
      record(S, { id: 'first', createdAt: Date.parse('2025-08-17T22:00:00.000Z') }),
      record(S, { id: 'utc-night', createdAt: Date.parse('2025-08-18T02:00:00.000Z') }),
      record(S, { id: 'last', createdAt: Date.parse('2025-08-18T21:59:59.999Z') }),
      record(S, { id: 'after', createdAt: Date.parse('2025-08-18T22:00:00.000Z') }),
    ]);
    const ids = async (q: string) => (await get(`/logs/my?serverId=${S}&${q}`)).json().map((l: { id: string }) => l.id);
    expect(await ids('dateFrom=2025-08-18&dateTo=2025-08-18&timeZone=Europe/Berlin')).toEqual(['last', 'utc-night', 'first']);
    expect(await ids('dateFrom=2025-08-18&timeZone=Europe%2FBerlin')).toEqual(['after', 'last', 'utc-night', 'first']);
    expect(await ids('dateTo=2025-08-17&timeZone=America/New_York')).toEqual(['utc-night', 'first', 'before']);
    // Without a time zone (or an empty one) the days stay UTC days, as before.
    expect(await ids('dateTo=2025-08-17')).toEqual(['first', 'before']);
    expect(await ids('dateFrom=2025-08-18&dateTo=2025-08-18')).toEqual(['after', 'last', 'utc-night']);
    expect(await ids('dateFrom=2025-08-18&dateTo=2025-08-18&timeZone=')).toEqual(['after', 'last', 'utc-night']);
    const photos = await get(`/photologs/my?serverId=${S}&dateFrom=2025-08-18&timeZone=Asia/Kolkata`);
    expect(photos.statusCode).toBe(200);
    const unknown = await get(`/logs/my?serverId=${S}&dateFrom=2025-08-18&timeZone=Mars/Olympus_Mons`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('timeZone');
  });

  it('refuses bad parameters with 400 naming the field', async () => {
    expect((await get(`/logs/my?serverId=${S}&pageSize=251&page=1`)).statusCode).toBe(400);
    expect((await get(`/logs/my?serverId=${S}&page=0`)).statusCode).toBe(400);
    const badDate = await get(`/logs/my?serverId=${S}&dateFrom=2025-02-30`);
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error).toContain('dateFrom');
    expect((await get(`/logs/my?serverId=${S}&dateTo=yesterday`)).statusCode).toBe(400);
    // Access is decided before the query is validated: a request that names no server has none to read.
    const unnamed = await get(`/logs/my`);
    expect(unnamed.statusCode).toBe(404);
    expect(unnamed.json().error).toBe('Server not found.');
  });
});

describe('GET /photologs/my', () => {
  it('answers { photologs, maxPhotoLogs } with only photo logs and the tier maximum', async () => {
    await h.deps.logStore.insertBatch([
      record(S, { id: 't' }),
      record(S, { id: 'p1', logType: 'photo', imageKey: 'photos/srv-1/p1.webp', thumbKey: 'thumbs/srv-1/p1.webp' }),
    ]);
    const res = await get(`/photologs/my?serverId=${S}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('1');
    const body = res.json();
    expect(body.maxPhotoLogs).toBe(10);
    expect(body.photologs.map((l: { id: string }) => l.id)).toEqual(['p1']);
    const pro = await get(`/photologs/my?serverId=${OTHER}`, 'stranger');
    expect(pro.json().maxPhotoLogs).toBe(6000);
  });

  it('answers how many photo logs are stored whatever the filters, beside the filtered total', async () => {
    await h.deps.logStore.insertBatch([
      record(S, { id: 't', level: 'error' }),
      record(S, { id: 'p1', level: 'info', logType: 'photo', imageKey: 'photos/srv-1/p1.webp', thumbKey: 'thumbs/srv-1/p1.webp' }),
      record(S, { id: 'p2', level: 'warn', logType: 'photo', imageKey: 'photos/srv-1/p2.webp', thumbKey: 'thumbs/srv-1/p2.webp' }),
      record(OTHER, { id: 'p3', logType: 'photo', imageKey: 'photos/srv-2/p3.webp', thumbKey: 'thumbs/srv-2/p3.webp' }),
    ]);
    const none = await get(`/photologs/my?serverId=${S}&level=error&page=1`);
    expect(none.json()).toMatchObject({ photologs: [], total: 0, totalCapped: false, stored: 2, maxPhotoLogs: 10 });
    const one = (await get(`/photologs/my?serverId=${S}&level=warn&page=1&pageSize=6`)).json();
    expect([one.total, one.stored]).toEqual([1, 2]);
  });
});

describe('role matrix', () => {
  const reads = [`/logs/my?serverId=${S}`, `/logs/my/combined?serverId=${S}`, `/photologs/my?serverId=${S}`, `/logs/stats?serverId=${S}`,
    `/settings/colors?serverId=${S}`, `/settings/levels?serverId=${S}`, `/server/usage/${S}`];

  it('lets every member read', async () => {
    for (const user of ['owner-1', 'admin-1', 'user-1']) {
      for (const url of reads) expect((await get(url, user)).statusCode, `${user} ${url}`).toBe(200);
    }
  });

  it('answers 404 to another tenant and 401 without a user', async () => {
    for (const url of reads) {
      expect((await get(url, 'stranger')).statusCode, url).toBe(404);
      expect((await get(url, null)).statusCode, url).toBe(401);
    }
    expect((await get(`/logs/my?serverId=does-not-exist`)).statusCode).toBe(404);
  });

  it('answers 401 to a revoked, malformed or foreign token', async () => {
    const url = `/logs/my?serverId=${S}`;
    const bearer = (token: string) => h.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect((await bearer(signAccessToken(generateTestKeys(), { sub: 'user-1', role: 'user', tv: 0 }, 3600))).statusCode).toBe(401);
    expect((await bearer('not.a.token')).statusCode).toBe(401);
    await h.identity.revokeSessions('user-1', 1);
    await waitFor(async () => (await get(url, 'user-1')).statusCode === 401, 'the revocation in the logs read model');
    expect((await h.injectAs({ id: 'user-1', tv: 1 }, { method: 'GET', url })).statusCode).toBe(200);
  });

  it('lets only admin and owner change colours and delete logs', async () => {
    const put = (user: string) => h.injectAs({ id: user }, { method: 'PUT', url: `/settings/colors?serverId=${S}`, payload: { info: { bg_color: '#000000', text_color: '#ffffff' } } });
    const del = (user: string) => h.injectAs({ id: user }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=1` });
    expect((await put('user-1')).statusCode).toBe(403);
    expect((await del('user-1')).statusCode).toBe(403);
    expect((await put('stranger')).statusCode).toBe(404);
    expect((await del('stranger')).statusCode).toBe(404);
    for (const user of ['admin-1', 'owner-1']) {
      expect((await put(user)).statusCode).toBe(200);
      expect((await del(user)).statusCode).toBe(200);
    }
  });
});

describe('DELETE /logs/cleanup', () => {
  it('deletes logs older than the days, their photo objects, and answers deletedCount', async () => {
    await h.deps.objects.put('photos/srv-1/old.webp', Buffer.from('x'), 'image/webp');
    await h.deps.objects.put('thumbs/srv-1/old.webp', Buffer.from('x'), 'image/webp');
    await h.deps.logStore.insertBatch([
      record(S, { id: 'old', createdAt: NOW - 3 * 86_400_000, logType: 'photo', imageKey: 'photos/srv-1/old.webp', thumbKey: 'thumbs/srv-1/old.webp' }),
      record(S, { id: 'old-text', createdAt: NOW - 2.5 * 86_400_000 }),
      record(S, { id: 'new', createdAt: NOW - 1000 }),
      record(OTHER, { id: 'other-old', createdAt: NOW - 10 * 86_400_000 }),
    ]);
    const res = await h.injectAs({ id: 'admin-1' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=2` });
    expect(res.json()).toEqual({ deletedCount: 2 });
    expect([...(await storedIds(h, S)), ...(await storedIds(h, OTHER))].sort()).toEqual(['new', 'other-old']);
    expect(await storedObjects(h)).toEqual([]);
    const all = await h.injectAs({ id: 'admin-1' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=0` });
    expect(all.json()).toEqual({ deletedCount: 1 });
  });

  it("refuses missing, negative, fractional or non-numeric days with the spec's message", async () => {
    for (const days of ['', '-1', '1.5', 'abc', '1e3', '%20']) {
      const res = await h.injectAs({ id: 'owner-1' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}&days=${days}` });
      expect(res.statusCode, days).toBe(400);
      expect(res.json().error).toBe('Insert a valid amount of days (0 or more)');
    }
    const missing = await h.injectAs({ id: 'owner-1' }, { method: 'DELETE', url: `/logs/cleanup?serverId=${S}` });
    expect(missing.json().error).toBe('Insert a valid amount of days (0 or more)');
  });
});

describe('GET /server/usage/{id}', () => {
  it('reads used from the shared quota counter and limits from the tier', async () => {
    const windowStart = quotaWindowStart(Date.now());
    h.clock.now = Date.now();
    await h.deps.counters.consume(quotaKey(S, windowStart), 42, 1000, QUOTA_WINDOW_MS);
    const body = (await get(`/server/usage/${S}`)).json();
    expect(body).toEqual({
      used: 42,
      limit: 1000,
      reset: new Date(windowStart + QUOTA_WINDOW_MS).toISOString(),
      tierLabel: 'Free',
      retentionDays: 7,
      maxBackups: 0,
      maxWebhooks: 0,
      maxPhotoLogs: 10,
      maxAlertRules: 0,
      maxCases: 3,
      caseBytes: 0,
    });
    // The Pro server: its tier's webhooks and alert rules (the web app locks Alerts on the latter).
    expect((await get(`/server/usage/${OTHER}`, 'stranger')).json()).toMatchObject({ tierLabel: 'Pro', maxWebhooks: 20, maxAlertRules: 50 });
  });

  it("answers an error containing 'suspended' for a suspended server", async () => {
    await h.identity.suspended(S, true);
    await waitFor(async () => (await get(`/server/usage/${S}`)).statusCode !== 200, 'the suspension in the logs read model');
    const res = await get(`/server/usage/${S}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain('suspended');
  });
});

describe('colour settings', () => {
  it('answers the spec defaults, merges updates and refuses non-colours', async () => {
    const defaults = (await get(`/settings/colors?serverId=${S}`)).json();
    expect(defaults.info).toEqual({ bg_color: '#f0f0f0', text_color: '#333' });
    expect(defaults.warn).toEqual({ bg_color: '#fee2b3', text_color: '#b45309' });
    expect(defaults.error).toEqual({ bg_color: '#fecaca', text_color: '#991b1b' });
    expect(defaults.fatal).toEqual({ bg_color: '#fecaca', text_color: '#991b1b' });
    const put = (payload: unknown) => h.injectAs({ id: 'owner-1' }, { method: 'PUT', url: `/settings/colors?serverId=${S}`, payload: payload as object });
    const saved = await put({ warn: { bg_color: '#123456', text_color: '#abc' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().warn).toEqual({ bg_color: '#123456', text_color: '#abc' });
    expect(saved.json().info).toEqual(defaults.info);
    expect((await get(`/settings/colors?serverId=${S}`)).json().warn.bg_color).toBe('#123456');
    expect((await put({ info: { bg_color: 'red;background:url(x)', text_color: '#fff' } })).statusCode).toBe(400);
    expect((await put({ info: { bg_color: { $ne: null }, text_color: '#fff' } })).statusCode).toBe(400);
    // Colours of one server never leak into another.
    expect((await get(`/settings/colors?serverId=${OTHER}`, 'stranger')).json().warn.bg_color).toBe('#fee2b3');
  });

  it('lists the levels', async () => {
    expect((await get(`/settings/levels?serverId=${S}`)).json()).toEqual({ types: ['info', 'warn', 'error', 'fatal', 'debug'] });
  });

  it('colours exactly the log levels ingestion accepts (the contracts keep the two lists apart)', () => {
    expect([...COLOR_LEVELS]).toEqual([...LOG_LEVELS]);
  });
});
