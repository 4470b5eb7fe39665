import { describe, expect, it, onTestFinished } from 'vitest';
import { BREAKDOWN_ROWS, buildDashboardStats, statsRange, trendPercent } from '../src/domain/dashboard-stats.ts';
import { createHarness, getAs, NOW, record, seedServer } from './support/harness.ts';

describe('trend and average (docs/spec/part-1.txt section 9)', () => {
  it('is 100 when the previous week is 0 and the current above 0, 0 when both are 0', () => {
    expect(trendPercent(5, 0)).toBe(100);
    expect(trendPercent(0, 0)).toBe(0);
  });
  it('is the rounded signed change otherwise', () => {
    expect(trendPercent(15, 10)).toBe(50);
    expect(trendPercent(5, 10)).toBe(-50);
    expect(trendPercent(0, 3)).toBe(-100);
    expect(trendPercent(2, 3)).toBe(-33);
    expect(trendPercent(10, 10)).toBe(0);
  });
});

describe('buildDashboardStats', () => {
  it('splits the last 7 days from the previous 7, fills empty days and sorts breakdowns by total', () => {
    const stats = buildDashboardStats(
      {
        totals: { text: 100, photo: 5 },
        perDay: { '2025-08-20': { text: 3, photo: 1 }, '2025-08-14': { text: 6, photo: 0 }, '2025-08-13': { text: 4, photo: 0 }, '2025-08-07': { text: 9, photo: 9 } },
        perLevel: { info: { text: 60, photo: 5 }, error: { text: 40, photo: 0 } },
        perType: { Chat: { text: 10, photo: 0 }, Combat: { text: 90, photo: 5 } },
        perResource: {},
      },
      NOW,
      [],
    );
    expect(statsRange(NOW)).toEqual({ fromDay: '2025-08-07', toDay: '2025-08-20' });
    expect(stats.totals).toEqual({ all: 105, text: 100, photo: 5 });
    expect(stats.last7Days.map((d) => d.date)).toEqual(['2025-08-14', '2025-08-15', '2025-08-16', '2025-08-17', '2025-08-18', '2025-08-19', '2025-08-20']);
    expect(stats.last7Days[0]).toEqual({ date: '2025-08-14', text: 6, photo: 0 });
    expect(stats.last7Days[1]).toEqual({ date: '2025-08-15', text: 0, photo: 0 });
    expect(stats.currentWeekTotal).toBe(10);
    expect(stats.previousWeekTotal).toBe(22);
    expect(stats.averagePerDay).toBe(1);
    expect(stats.trend).toBe(-55);
    expect(stats.perType.map((t) => t.name)).toEqual(['Combat', 'Chat']);
    expect(stats.perLevel[0]).toEqual({ name: 'info', text: 60, photo: 5 });
  });
});

describe('breakdown lists', () => {
  const empty = { totals: { text: 0, photo: 0 }, perDay: {}, perLevel: {}, perType: {}, perResource: {} };

  it('answers the top 10 rows and counts the rest in an other bucket, so the totals stay exact', () => {
    // 13 resources: r01 has 13 text logs, r02 12, ... r13 1; r13 also has 2 photo logs.
    const perResource = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`r${String(i + 1).padStart(2, '0')}`, { text: 13 - i, photo: i === 12 ? 2 : 0 }]));
    const stats = buildDashboardStats({ ...empty, totals: { text: 91, photo: 2 }, perResource }, NOW, []);
    expect(stats.perResource).toHaveLength(BREAKDOWN_ROWS);
    expect(stats.perResource.map((r) => r.name)).toEqual(['r01', 'r02', 'r03', 'r04', 'r05', 'r06', 'r07', 'r08', 'r09', 'r10']);
    // r11 (2 text), r12 (1 text... 2) and r13 (1 text + 2 photo) are left out.
    expect(stats.perResourceOther).toEqual({ names: 3, text: 3 + 2 + 1, photo: 2 });
    const shown = stats.perResource.reduce((n, r) => n + r.text + r.photo, 0);
    expect(shown + stats.perResourceOther.text + stats.perResourceOther.photo).toBe(stats.totals.all);
  });

  it('has an empty other bucket when nothing is left out', () => {
    const stats = buildDashboardStats({ ...empty, totals: { text: 3, photo: 0 }, perType: { a: { text: 2, photo: 0 }, b: { text: 1, photo: 0 } } }, NOW, []);
    expect(stats.perType.map((r) => r.name)).toEqual(['a', 'b']);
    expect(stats.perTypeOther).toEqual({ names: 0, text: 0, photo: 0 });
    expect(stats.perLevelOther).toEqual({ names: 0, text: 0, photo: 0 });
  });
});

describe('GET /logs/stats', () => {
  it('answers the stats of the server with the 8 newest photos', async () => {
    const h = await createHarness();
    onTestFinished(() => h.close());
    await seedServer(h, { serverId: 's', ownerId: 'o' }, { u: 'user' });
    await h.deps.logStore.insertBatch([
      ...Array.from({ length: 10 }, (_, i) => record('s', { id: `p${i}`, createdAt: NOW - 1000 * (10 - i), logType: 'photo', imageKey: `photos/s/p${i}.webp`, thumbKey: `thumbs/s/p${i}.webp` })),
      record('s', { id: 't', createdAt: NOW - 8 * 86_400_000, level: 'error' }),
    ]);
    const res = await getAs(h, '/logs/stats?serverId=s', 'u');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totals).toEqual({ all: 11, text: 1, photo: 10 });
    expect(body.currentWeekTotal).toBe(10);
    expect(body.previousWeekTotal).toBe(1);
    expect(body.trend).toBe(900);
    expect(body.averagePerDay).toBe(1);
    expect(body.recentPhotos).toHaveLength(8);
    expect(body.recentPhotos[0].id).toBe('p9');
    expect(body.recentPhotos[0].thumb_path).toMatch(/^\/api\/photologs\/image\/p9\?t=/);
    expect(body.perLevel).toEqual([{ name: 'info', text: 0, photo: 10 }, { name: 'error', text: 1, photo: 0 }]);
    expect(body.perLevelOther).toEqual({ names: 0, text: 0, photo: 0 });
  });

  it('cuts a long breakdown to the top rows and answers the rest as other', async () => {
    const h = await createHarness();
    onTestFinished(() => h.close());
    await seedServer(h, { serverId: 's', ownerId: 'o' });
    // 25 resources, res-00 with 25 logs down to res-24 with 1: 325 logs.
    await h.deps.logStore.insertBatch(
      Array.from({ length: 25 }, (_, r) => Array.from({ length: 25 - r }, (_, i) => record('s', { id: `r${r}-${i}`, resource: `res-${String(r).padStart(2, '0')}` }))).flat(),
    );
    const body = (await getAs(h, '/logs/stats?serverId=s', 'o')).json();
    expect(body.totals.all).toBe(325);
    expect(body.perResource).toHaveLength(10);
    expect(body.perResource[0]).toEqual({ name: 'res-00', text: 25, photo: 0 });
    // res-10 .. res-24: 15 names with 15 + 14 + ... + 1 = 120 logs.
    expect(body.perResourceOther).toEqual({ names: 15, text: 120, photo: 0 });
  });
});
