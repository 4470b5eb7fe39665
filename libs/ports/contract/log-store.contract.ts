/**
 * Contract suite of the LogStore port. Every adapter's test file calls it:
 *   logStoreContract('sqlite', async () => ({ adapter, cleanup }));
 * Besides each operation, it checks the rollup invariant: after any mix of inserts and deletes,
 * stats/facets/count equal what a naive recount of the stored logs gives.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogHistogram, LogMatchSpan, LogRecord, LogScanQuery, LogStats, LogStore, LogType } from '../src/index.ts';
import { seededRandom } from './seeded-random.ts';

export interface LogStoreFixture {
  readonly adapter: LogStore;
  readonly cleanup: () => Promise<void>;
}

/** What a suite asks of the adapter it builds: a small count cap, to check totals past it. */
export interface LogStoreFixtureOptions {
  readonly countCap?: number;
}

const DAY = 86_400_000;
/** 2025-03-10T00:00:00Z */
const T0 = Date.UTC(2025, 2, 10);

let counter = 0;
function log(overrides: Partial<LogRecord> & { serverId: string; createdAt: number }): LogRecord {
  counter += 1;
  const logType: LogType = overrides.logType ?? 'text';
  return {
    id: `log-${String(counter).padStart(8, '0')}`,
    level: 'info',
    type: 'General',
    resource: 'core',
    message: `message ${counter}`,
    metadata: null,
    logType,
    imageKey: logType === 'photo' ? `img/${counter}.webp` : null,
    thumbKey: logType === 'photo' ? `thumb/${counter}.webp` : null,
    expiresAt: overrides.createdAt + 30 * DAY,
    ...overrides,
  };
}

/** What stats() must answer, recomputed naively from the records a model says are stored. */
function naiveStats(records: readonly LogRecord[], fromDay: string, toDay: string): LogStats {
  const totals = { text: 0, photo: 0 };
  const perDay: Record<string, { text: number; photo: number }> = {};
  const perLevel: Record<string, { text: number; photo: number }> = {};
  const perType: Record<string, { text: number; photo: number }> = {};
  const perResource: Record<string, { text: number; photo: number }> = {};
  const bump = (m: Record<string, { text: number; photo: number }>, k: string, t: LogType): void => {
    (m[k] ??= { text: 0, photo: 0 })[t] += 1;
  };
  for (const r of records) {
    totals[r.logType] += 1;
    const day = new Date(r.createdAt).toISOString().slice(0, 10);
    if (day >= fromDay && day <= toDay) bump(perDay, day, r.logType);
    bump(perLevel, r.level, r.logType);
    bump(perType, r.type, r.logType);
    bump(perResource, r.resource, r.logType);
  }
  return { totals, perDay, perLevel, perType, perResource };
}

export function logStoreContract(name: string, makeAdapter: (options?: LogStoreFixtureOptions) => Promise<LogStoreFixture>): void {
  describe(`LogStore contract: ${name}`, () => {
    let fixture: LogStoreFixture;
    let store: LogStore;
    let run = 0;
    let serverA: string;
    let serverB: string;

    beforeEach(async () => {
      fixture = await makeAdapter();
      store = fixture.adapter;
      run += 1;
      serverA = `server-a-${run}-${Date.now()}`;
      serverB = `server-b-${run}-${Date.now()}`;
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    describe('insertBatch', () => {
      it('stores records and round-trips every field', async () => {
        const text = log({ serverId: serverA, createdAt: T0 + 1000, metadata: { player: 'Ann', hp: 3, nested: { ok: true } } });
        const photo = log({ serverId: serverA, createdAt: T0 + 2000, logType: 'photo', level: 'warn' });
        expect(await store.insertBatch([text, photo])).toEqual({ inserted: 2 });
        const page = await store.query({ serverId: serverA, offset: 0, limit: 10 });
        expect(page.items).toEqual([photo, text]);
        expect(page.total).toBe(2);
      });

      it('is idempotent on id and reports only the new records', async () => {
        const batch = [log({ serverId: serverA, createdAt: T0 }), log({ serverId: serverA, createdAt: T0 + 1 })];
        expect(await store.insertBatch(batch)).toEqual({ inserted: 2 });
        expect(await store.insertBatch(batch)).toEqual({ inserted: 0 });
        const extra = log({ serverId: serverA, createdAt: T0 + 2 });
        expect(await store.insertBatch([batch[0]!, extra, extra])).toEqual({ inserted: 1 });
        expect(await store.count(serverA)).toBe(3);
        const stats = await store.stats(serverA, { fromDay: '2025-03-10', toDay: '2025-03-10' });
        expect(stats.totals).toEqual({ text: 3, photo: 0 });
      });

      it('shows each log once to reads made while its insert is under way', async () => {
        const first = log({ serverId: serverA, createdAt: T0 });
        const second = log({ serverId: serverA, createdAt: T0 + 1 });
        await store.insertBatch([first]);
        // Reads issued right behind the insert, before the caller got its answer: whatever they see, each log once.
        const pending = store.insertBatch([second, first]);
        const during = await store.query({ serverId: serverA, offset: 0, limit: 10, search: 'e' });
        expect(new Set(during.items.map((r) => r.id)).size).toBe(during.items.length);
        expect(await pending).toEqual({ inserted: 1 });
        for (const search of [undefined, 'e']) {
          const page = await store.query({ serverId: serverA, offset: 0, limit: 10, ...(search === undefined ? {} : { search }) });
          expect(page.items.map((r) => r.id)).toEqual([second.id, first.id]);
        }
      });

      it('accepts an empty batch', async () => {
        expect(await store.insertBatch([])).toEqual({ inserted: 0 });
      });

      it('stores a batch spanning several servers', async () => {
        await store.insertBatch([log({ serverId: serverA, createdAt: T0 }), log({ serverId: serverB, createdAt: T0 }), log({ serverId: serverA, createdAt: T0 })]);
        expect(await store.count(serverA)).toBe(2);
        expect(await store.count(serverB)).toBe(1);
      });
    });

    describe('query', () => {
      let records: LogRecord[];
      beforeEach(async () => {
        records = [
          log({ serverId: serverA, createdAt: T0 + 1 * 3600_000, level: 'info', type: 'Join', resource: 'lobby', message: 'Ann joined' }),
          log({ serverId: serverA, createdAt: T0 + 2 * 3600_000, level: 'ERROR', type: 'Death', resource: 'arena', message: 'Bob died 100% dead' }),
          log({ serverId: serverA, createdAt: T0 + 3 * 3600_000, level: 'error', type: 'death', resource: 'Arena', message: 'Cid fell', metadata: { weapon: 'Sword_of_Doom' } }),
          log({ serverId: serverA, createdAt: T0 + DAY + 1, level: 'warn', type: 'Chat', resource: 'lobby', message: 'hello world' }),
          log({ serverId: serverA, createdAt: T0 + DAY + 1, level: 'info', type: 'Chat', resource: 'lobby', message: 'same millisecond', logType: 'photo' }),
          log({ serverId: serverA, createdAt: T0 + 2 * DAY, level: 'debug', type: 'Join', resource: 'lobby', message: 'Dee joined', logType: 'photo' }),
          log({ serverId: serverB, createdAt: T0 + 2 * 3600_000, level: 'error', type: 'Death', resource: 'arena', message: 'other server Ann' }),
        ];
        await store.insertBatch(records);
      });

      it('returns one server newest first, ties broken by id descending', async () => {
        const page = await store.query({ serverId: serverA, offset: 0, limit: 50 });
        expect(idsOf(page.items)).toEqual([5, 4, 3, 2, 1, 0].map((i) => records[i]!.id));
        expect(page.total).toBe(6);
      });

      it('pages with offset and limit and keeps the total', async () => {
        const page = await store.query({ serverId: serverA, offset: 2, limit: 2 });
        expect(idsOf(page.items)).toEqual([records[3]!.id, records[2]!.id]);
        expect(page.total).toBe(6);
        expect((await store.query({ serverId: serverA, offset: 10, limit: 2 })).items).toEqual([]);
        const countOnly = await store.query({ serverId: serverA, offset: 0, limit: 0 });
        expect(countOnly).toEqual({ items: [], total: 6, totalCapped: false });
      });

      it('filters level, type and resource case-insensitively, alone and combined', async () => {
        const byLevel = await store.query({ serverId: serverA, level: 'Error', offset: 0, limit: 50 });
        expect(idsOf(byLevel.items)).toEqual([records[2]!.id, records[1]!.id]);
        expect(byLevel.total).toBe(2);
        const byType = await store.query({ serverId: serverA, type: 'DEATH', offset: 0, limit: 1 });
        expect(idsOf(byType.items)).toEqual([records[2]!.id]);
        expect(byType.total).toBe(2);
        const byResource = await store.query({ serverId: serverA, resource: 'LOBBY', offset: 0, limit: 50 });
        expect(byResource.total).toBe(4);
        const combined = await store.query({ serverId: serverA, resource: 'lobby', type: 'chat', level: 'WARN', offset: 0, limit: 50 });
        expect(idsOf(combined.items)).toEqual([records[3]!.id]);
        expect(combined.total).toBe(1);
        expect((await store.query({ serverId: serverA, level: 'err', offset: 0, limit: 50 })).total).toBe(0);
      });

      it('treats empty filter strings as no filter', async () => {
        expect((await store.query({ serverId: serverA, level: '', type: '', resource: '', search: '', offset: 0, limit: 50 })).total).toBe(6);
      });

      it('filters by log type', async () => {
        const photos = await store.query({ serverId: serverA, logType: 'photo', offset: 0, limit: 50 });
        expect(idsOf(photos.items)).toEqual([records[5]!.id, records[4]!.id]);
        expect(photos.total).toBe(2);
        const texts = await store.query({ serverId: serverA, logType: 'text', level: 'info', offset: 0, limit: 50 });
        expect(idsOf(texts.items)).toEqual([records[0]!.id]);
        expect(texts.total).toBe(1);
      });

      it('filters an inclusive time range, day-aligned or not', async () => {
        const day1 = await store.query({ serverId: serverA, from: T0 + DAY, to: T0 + 2 * DAY - 1, offset: 0, limit: 50 });
        expect(idsOf(day1.items)).toEqual([records[4]!.id, records[3]!.id]);
        expect(day1.total).toBe(2);
        const inclusive = await store.query({ serverId: serverA, from: T0 + 2 * 3600_000, to: T0 + 3 * 3600_000, offset: 0, limit: 50 });
        expect(inclusive.total).toBe(2);
        const fromOnly = await store.query({ serverId: serverA, from: T0 + DAY, offset: 0, limit: 50 });
        expect(fromOnly.total).toBe(3);
        const toOnly = await store.query({ serverId: serverA, to: T0 + DAY - 1, logType: 'text', offset: 0, limit: 50 });
        expect(toOnly.total).toBe(3);
        const rangeAndLevel = await store.query({ serverId: serverA, from: T0, to: T0 + DAY - 1, level: 'error', offset: 0, limit: 50 });
        expect(rangeAndLevel.total).toBe(2);
      });

      it('searches message, type, level, resource and metadata case-insensitively', async () => {
        const search = async (text: string): Promise<string[]> => idsOf((await store.query({ serverId: serverA, search: text, offset: 0, limit: 50 })).items);
        expect(await search('ann JOINED')).toEqual([records[0]!.id]);
        expect(await search('sword_of')).toEqual([records[2]!.id]);
        expect(await search('ARENA')).toEqual([records[2]!.id, records[1]!.id]);
        expect(await search('chat')).toEqual([records[4]!.id, records[3]!.id]);
        expect(await search('debug')).toEqual([records[5]!.id]);
        const page = await store.query({ serverId: serverA, search: 'joined', level: 'DEBUG', offset: 0, limit: 50 });
        expect(page.total).toBe(1);
      });

      it('treats LIKE/regex wildcards in a search as literal text', async () => {
        const total = async (text: string): Promise<number> => (await store.query({ serverId: serverA, search: text, offset: 0, limit: 50 })).total;
        expect(await total('100%')).toBe(1);
        expect(await total('%')).toBe(1);
        expect(await total('_')).toBe(1);
        expect(await total('.*')).toBe(0);
        expect(await total('(')).toBe(0);
        expect(await total('\\')).toBe(0);
      });

      it('never returns another server’s logs and answers an unknown server with nothing', async () => {
        expect((await store.query({ serverId: serverA, search: 'other server', offset: 0, limit: 50 })).total).toBe(0);
        expect((await store.query({ serverId: serverB, offset: 0, limit: 50 })).total).toBe(1);
        expect(await store.query({ serverId: 'nobody', offset: 0, limit: 50 })).toEqual({ items: [], total: 0, totalCapped: false });
      });

      it('answers only the logs whose id sorts after afterId, with the filters and an exact total', async () => {
        const after = await store.query({ serverId: serverA, afterId: records[2]!.id, offset: 0, limit: 50 });
        expect(idsOf(after.items)).toEqual([5, 4, 3].map((i) => records[i]!.id));
        expect(after.total).toBe(3);
        const filtered = await store.query({ serverId: serverA, afterId: records[2]!.id, logType: 'text', offset: 0, limit: 50 });
        expect(idsOf(filtered.items)).toEqual([records[3]!.id]);
        expect(filtered.total).toBe(1);
        const dayAligned = await store.query({ serverId: serverA, afterId: records[3]!.id, from: T0 + DAY, to: T0 + 3 * DAY - 1, offset: 0, limit: 50 });
        expect(dayAligned.total).toBe(2);
        const byLevel = await store.query({ serverId: serverA, afterId: records[1]!.id, level: 'error', offset: 0, limit: 50 });
        expect(byLevel.total).toBe(1);
        expect((await store.query({ serverId: serverA, afterId: records[5]!.id, offset: 0, limit: 50 })).total).toBe(0);
        expect((await store.query({ serverId: serverA, afterId: '', offset: 0, limit: 50 })).total).toBe(6);
      });

      it('counts exactly up to the count cap, then answers the cap with totalCapped; rollup totals are never capped', async () => {
        const capped = await makeAdapter({ countCap: 3 });
        try {
          await capped.adapter.insertBatch(records);
          const q = { serverId: serverA, offset: 0, limit: 2 };
          const broad = await capped.adapter.query({ ...q, search: 'e' });
          expect(broad.items).toHaveLength(2);
          expect({ total: broad.total, totalCapped: broad.totalCapped }).toEqual({ total: 3, totalCapped: true });
          const exact = await capped.adapter.query({ ...q, search: 'joined' });
          expect({ total: exact.total, totalCapped: exact.totalCapped }).toEqual({ total: 2, totalCapped: false });
          const atCap = await capped.adapter.query({ ...q, resource: 'lobby', from: T0 + 1 });
          expect({ total: atCap.total, totalCapped: atCap.totalCapped }).toEqual({ total: 3, totalCapped: true });
          const threeExactly = await capped.adapter.query({ ...q, resource: 'lobby', type: 'chat', from: T0 + 1 });
          expect({ total: threeExactly.total, totalCapped: threeExactly.totalCapped }).toEqual({ total: 2, totalCapped: false });
          const fromRollups = await capped.adapter.query({ ...q, resource: 'lobby' });
          expect({ total: fromRollups.total, totalCapped: fromRollups.totalCapped }).toEqual({ total: 4, totalCapped: false });
        } finally {
          await capped.cleanup();
        }
      });

      it('refuses malformed paging', async () => {
        await expect(store.query({ serverId: serverA, offset: -1, limit: 10 })).rejects.toThrow();
        await expect(store.query({ serverId: serverA, offset: 0, limit: 1.5 })).rejects.toThrow();
      });
    });

    describe('scan', () => {
      const collect = async (query: Parameters<LogStore['scan']>[0], pageSize: number): Promise<{ pages: number[]; ids: string[] }> => {
        const pages: number[] = [];
        const ids: string[] = [];
        for await (const page of store.scan(query, pageSize)) {
          pages.push(page.length);
          ids.push(...page.map((r) => r.id));
        }
        return { pages, ids };
      };

      it('hands out every matching log once, newest first, in pages, ties in one millisecond included', async () => {
        // 23 logs over 5 milliseconds: pages of 4 cut through runs of equal createdAt.
        const records = Array.from({ length: 23 }, (_, i) => log({ serverId: serverA, createdAt: T0 + Math.floor(i / 5), level: i % 3 === 0 ? 'error' : 'info' }));
        await store.insertBatch([...records, log({ serverId: serverB, createdAt: T0 })]);
        const expected = [...records].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((r) => r.id);
        const all = await collect({ serverId: serverA }, 4);
        expect(all.ids).toEqual(expected);
        expect(all.pages).toEqual([4, 4, 4, 4, 4, 3]);
        const whole = await collect({ serverId: serverA }, 10_000);
        expect(whole.ids).toEqual(expected);
        const errors = await collect({ serverId: serverA, level: 'ERROR' }, 3);
        expect(errors.ids).toEqual(expected.filter((id) => records.find((r) => r.id === id)!.level === 'error'));
        const ranged = await collect({ serverId: serverA, from: T0 + 1, to: T0 + 2 }, 4);
        expect(ranged.ids).toEqual(expected.filter((id) => [1, 2].includes(records.find((r) => r.id === id)!.createdAt - T0)));
      });

      it('round-trips every field and honours the log type', async () => {
        const text = log({ serverId: serverA, createdAt: T0, metadata: { note: 'a "quoted", comma\nline' } });
        const photo = log({ serverId: serverA, createdAt: T0 + 1, logType: 'photo' });
        await store.insertBatch([text, photo]);
        const pages: LogRecord[][] = [];
        for await (const page of store.scan({ serverId: serverA, logType: 'text' }, 10)) pages.push(page);
        expect(pages).toEqual([[text]]);
      });

      it('yields nothing for an unknown server and refuses a bad page size', async () => {
        expect((await collect({ serverId: 'nobody' }, 10)).ids).toEqual([]);
        await expect(collect({ serverId: serverA }, 0)).rejects.toThrow(RangeError);
        await expect(collect({ serverId: serverA }, 10_001)).rejects.toThrow(RangeError);
      });
    });

    describe('histogram', () => {
      const HOUR = 3_600_000;
      let records: LogRecord[];
      beforeEach(async () => {
        const random = seededRandom(17);
        const levels = ['info', 'INFO', 'warn', 'error', 'Error', 'debug'];
        const words = ['joined the lobby', 'died in arena', 'sword swing', 'chat hello', 'vehicle spawned'];
        records = Array.from({ length: 120 }, () =>
          log({
            serverId: serverA,
            // Three days from T0.
            createdAt: T0 + Math.floor(random() * 3 * DAY),
            level: levels[Math.floor(random() * levels.length)]!,
            type: random() < 0.2 ? 'Death' : 'General',
            resource: random() < 0.5 ? 'arena' : 'lobby',
            message: words[Math.floor(random() * words.length)]!,
            metadata: random() < 0.3 ? { weapon: 'Sword_of_Doom' } : null,
            logType: random() < 0.15 ? 'photo' : 'text',
          }),
        );
        await store.insertBatch([...records, log({ serverId: serverB, createdAt: T0 + HOUR, message: 'died in arena' })]);
      });

      /** What a list of the same query matches, decided in JS (docs/spec/part-1.txt section 5 semantics). */
      function matching(q: LogScanQuery): LogRecord[] {
        const eq = (a: string, b: string | undefined) => b === undefined || b === '' || a.toLowerCase() === b.toLowerCase();
        return records.filter((r) => {
          if (r.serverId !== q.serverId || (q.logType !== undefined && r.logType !== q.logType)) return false;
          if (!eq(r.level, q.level) || !eq(r.type, q.type) || !eq(r.resource, q.resource)) return false;
          if ((q.from !== undefined && r.createdAt < q.from) || (q.to !== undefined && r.createdAt > q.to)) return false;
          if (q.search === undefined || q.search === '') return true;
          const needle = q.search.toLowerCase();
          return [r.message, r.type, r.level, r.resource, r.metadata === null ? '' : JSON.stringify(r.metadata)].some((t) => t.toLowerCase().includes(needle));
        });
      }

      function naiveCounts(found: readonly LogRecord[], edges: readonly number[], from = Number.NEGATIVE_INFINITY): Record<string, number>[] {
        const counts: Record<string, number>[] = edges.slice(1).map(() => ({}));
        for (const r of found) {
          if (r.createdAt < from) continue;
          const bucket = edges.findIndex((e, i) => i < edges.length - 1 && r.createdAt >= e && r.createdAt < edges[i + 1]!);
          if (bucket < 0) continue;
          const level = r.level.toLowerCase();
          counts[bucket]![level] = (counts[bucket]![level] ?? 0) + 1;
        }
        return counts;
      }

      const sum = (h: LogHistogram): number => h.counts.reduce((acc, c) => acc + Object.values(c).reduce((a, b) => a + b, 0), 0);
      /** Hourly edges over the three days, with uneven widths in the middle (a clock change's 23-hour day). */
      const EDGES = [T0 - HOUR, ...Array.from({ length: 72 }, (_, i) => T0 + (i + 1) * HOUR).filter((e) => e !== T0 + 30 * HOUR)];

      it('counts the matches of every filter and search per bucket and lower-cased level, as a list of the same query matches', async () => {
        const queries: LogScanQuery[] = [
          { serverId: serverA },
          { serverId: serverA, level: 'ERROR' },
          { serverId: serverA, type: 'death', resource: 'ARENA' },
          { serverId: serverA, search: 'sword' },
          { serverId: serverA, search: 'ar', level: 'info' },
          { serverId: serverA, search: 'died in', logType: 'text' },
          { serverId: serverA, logType: 'photo' },
          { serverId: serverA, logType: 'text' },
          { serverId: serverA, logType: 'text', level: 'Info', from: T0 + 7 * HOUR },
          { serverId: serverA, logType: 'photo', level: 'info' },
          { serverId: serverA, from: T0 + 5 * HOUR + 123, to: T0 + 40 * HOUR, level: 'warn' },
        ];
        for (const q of queries) {
          const spans: LogMatchSpan[] = [];
          const h = await store.histogram(q, (span) => {
            spans.push(span);
            return EDGES;
          });
          const found = matching(q);
          expect(found.length, JSON.stringify(q)).toBeGreaterThan(0);
          expect(spans, JSON.stringify(q)).toEqual([{ first: Math.min(...found.map((r) => r.createdAt)), last: Math.max(...found.map((r) => r.createdAt)), capped: false }]);
          expect(h.edges).toEqual(EDGES);
          expect(h.capped).toBe(false);
          expect(h.counts, JSON.stringify(q)).toEqual(naiveCounts(found, EDGES));
          expect(sum(h)).toBe((await store.query({ ...q, offset: 0, limit: 1 })).total);
        }
      });

      it('leaves out matches outside the edges and answers nothing, without asking for edges, when nothing matches', async () => {
        const edges = [T0 + DAY, T0 + DAY + 6 * HOUR, T0 + 2 * DAY];
        const h = await store.histogram({ serverId: serverA, resource: 'lobby' }, () => edges);
        expect(h.counts).toEqual(naiveCounts(matching({ serverId: serverA, resource: 'lobby' }), edges));
        let asked = false;
        const none = await store.histogram({ serverId: serverA, search: 'no such words' }, () => {
          asked = true;
          return edges;
        });
        expect(none).toEqual({ edges: [], counts: [], capped: false, span: null });
        expect(await store.histogram({ serverId: 'nobody' }, () => edges)).toEqual({ edges: [], counts: [], capped: false, span: null });
        expect(asked).toBe(false);
        // Server B's one log never shows in A's histogram, nor A's in B's.
        const b = await store.histogram({ serverId: serverB }, () => [T0, T0 + DAY]);
        expect(b.counts).toEqual([{ info: 1 }]);
      });

      it('refuses edges that do not ascend or are too many', async () => {
        await expect(store.histogram({ serverId: serverA }, () => [T0, T0])).rejects.toThrow(RangeError);
        await expect(store.histogram({ serverId: serverA }, () => [T0])).rejects.toThrow(RangeError);
        await expect(store.histogram({ serverId: serverA }, () => [T0, T0 + 0.5])).rejects.toThrow(RangeError);
        await expect(store.histogram({ serverId: serverA }, () => Array.from({ length: 202 }, (_, i) => T0 + i))).rejects.toThrow(RangeError);
      });

      it('past the count cap, counts exactly every match from the span’s first instant on, and no more than the cap', async () => {
        const capped = await makeAdapter({ countCap: 10 });
        try {
          await capped.adapter.insertBatch(records);
          const queries: LogScanQuery[] = [
            { serverId: serverA },
            { serverId: serverA, logType: 'text' },
            { serverId: serverA, search: 'the lobby' },
            { serverId: serverA, level: 'info' },
            { serverId: serverA, search: 'arena', type: 'general' },
          ];
          for (const q of queries) {
            const found = matching(q);
            expect(found.length).toBeGreaterThan(10);
            const h = await capped.adapter.histogram(q, () => EDGES);
            expect(h.capped, JSON.stringify(q)).toBe(true);
            const span = h.span!;
            expect(span.last).toBe(Math.max(...found.map((r) => r.createdAt)));
            const counted = found.filter((r) => r.createdAt >= span.first).length;
            expect(counted, JSON.stringify(q)).toBeGreaterThan(0);
            expect(counted).toBeLessThanOrEqual(10);
            expect(h.counts, JSON.stringify(q)).toEqual(naiveCounts(found, EDGES, span.first));
          }
        } finally {
          await capped.cleanup();
        }
      });
    });

    describe('stats, facets and count', () => {
      it('counts totals, per day in range, and per level/type/resource split by log type', async () => {
        await store.insertBatch([
          log({ serverId: serverA, createdAt: T0, level: 'info', type: 'Join', resource: 'lobby' }),
          log({ serverId: serverA, createdAt: T0 + 10, level: 'info', type: 'Join', resource: 'arena', logType: 'photo' }),
          log({ serverId: serverA, createdAt: T0 + DAY, level: 'error', type: 'Death', resource: 'arena' }),
          log({ serverId: serverA, createdAt: T0 - DAY, level: 'warn', type: 'Chat', resource: 'lobby' }),
          log({ serverId: serverB, createdAt: T0, level: 'fatal', type: 'Crash', resource: 'x' }),
        ]);
        const stats = await store.stats(serverA, { fromDay: '2025-03-10', toDay: '2025-03-16' });
        expect(stats).toEqual({
          totals: { text: 3, photo: 1 },
          perDay: { '2025-03-10': { text: 1, photo: 1 }, '2025-03-11': { text: 1, photo: 0 } },
          perLevel: { info: { text: 1, photo: 1 }, error: { text: 1, photo: 0 }, warn: { text: 1, photo: 0 } },
          perType: { Join: { text: 1, photo: 1 }, Death: { text: 1, photo: 0 }, Chat: { text: 1, photo: 0 } },
          perResource: { lobby: { text: 2, photo: 0 }, arena: { text: 1, photo: 1 } },
        });
        expect(await store.facets(serverA)).toEqual({ levels: ['error', 'info', 'warn'], types: ['Chat', 'Death', 'Join'], resources: ['arena', 'lobby'] });
        expect(await store.count(serverA)).toBe(4);
        expect(await store.count(serverA, 'photo')).toBe(1);
        expect(await store.count(serverA, 'text')).toBe(3);
        expect(await store.count('nobody')).toBe(0);
        expect(await store.facets('nobody')).toEqual({ levels: [], types: [], resources: [] });
      });

      it('groups values differing only in case once in facets', async () => {
        await store.insertBatch([log({ serverId: serverA, createdAt: T0, level: 'info' }), log({ serverId: serverA, createdAt: T0, level: 'INFO' })]);
        const facets = await store.facets(serverA);
        expect(facets.levels).toHaveLength(1);
        expect(facets.levels[0]?.toLowerCase()).toBe('info');
      });

      it('refuses malformed days', async () => {
        await expect(store.stats(serverA, { fromDay: '2025-13-01', toDay: '2025-03-10' })).rejects.toThrow();
        await expect(store.stats(serverA, { fromDay: 'yesterday', toDay: '2025-03-10' })).rejects.toThrow();
      });
    });

    describe('deletes', () => {
      it('deleteBefore removes one server’s older logs, returns photo keys and updates stats and facets', async () => {
        const old = log({ serverId: serverA, createdAt: T0, logType: 'photo', resource: 'gone' });
        const keep = log({ serverId: serverA, createdAt: T0 + DAY, resource: 'kept' });
        const other = log({ serverId: serverB, createdAt: T0 });
        await store.insertBatch([old, keep, other]);
        const result = await store.deleteBefore(serverA, T0 + DAY);
        expect(result.deletedCount).toBe(1);
        expect(result.objectKeys.sort()).toEqual([old.imageKey, old.thumbKey].sort());
        expect(idsOf((await store.query({ serverId: serverA, offset: 0, limit: 10 })).items)).toEqual([keep.id]);
        expect(await store.count(serverB)).toBe(1);
        expect((await store.facets(serverA)).resources).toEqual(['kept']);
        const stats = await store.stats(serverA, { fromDay: '2025-03-01', toDay: '2025-03-31' });
        expect(stats.totals).toEqual({ text: 1, photo: 0 });
        expect(stats.perDay).toEqual({ '2025-03-11': { text: 1, photo: 0 } });
        expect(await store.deleteBefore(serverA, T0)).toEqual({ deletedCount: 0, objectKeys: [] });
        expect(await store.deleteBefore('nobody', T0 + 10 * DAY)).toEqual({ deletedCount: 0, objectKeys: [] });
      });

      it('deleteExpired removes expired logs of every server', async () => {
        const a = log({ serverId: serverA, createdAt: T0, expiresAt: T0 + DAY });
        const b = log({ serverId: serverB, createdAt: T0, expiresAt: T0 + DAY, logType: 'photo' });
        const fresh = log({ serverId: serverB, createdAt: T0, expiresAt: T0 + 10 * DAY });
        await store.insertBatch([a, b, fresh]);
        const result = await store.deleteExpired(T0 + DAY);
        expect(result.deletedCount).toBe(2);
        expect(result.objectKeys.sort()).toEqual([b.imageKey, b.thumbKey].sort());
        expect(await store.count(serverA)).toBe(0);
        expect(await store.count(serverB)).toBe(1);
        expect(await store.facets(serverA)).toEqual({ levels: [], types: [], resources: [] });
      });

      it('deleteOldest keeps the newest N of a log type and leaves the other type alone', async () => {
        const photos = Array.from({ length: 5 }, (_, i) => log({ serverId: serverA, createdAt: T0 + i, logType: 'photo' }));
        const texts = Array.from({ length: 3 }, (_, i) => log({ serverId: serverA, createdAt: T0 + i }));
        await store.insertBatch([...photos, ...texts]);
        const result = await store.deleteOldest(serverA, 'photo', 2);
        expect(result.deletedCount).toBe(3);
        expect(result.objectKeys.sort()).toEqual(photos.slice(0, 3).flatMap((p) => [p.imageKey!, p.thumbKey!]).sort());
        const left = await store.query({ serverId: serverA, logType: 'photo', offset: 0, limit: 10 });
        expect(idsOf(left.items)).toEqual([photos[4]!.id, photos[3]!.id]);
        expect(await store.count(serverA, 'text')).toBe(3);
        expect(await store.deleteOldest(serverA, 'photo', 2)).toEqual({ deletedCount: 0, objectKeys: [] });
        expect((await store.deleteOldest(serverA, 'text', 0)).deletedCount).toBe(3);
        expect(await store.count(serverA)).toBe(2);
      });

      it('getByKeys answers the server\'s stored logs with those keys, whole; nothing of another server or another time', async () => {
        const text = log({ serverId: serverA, createdAt: T0, metadata: { player: { identifiers: ['license:a'] } } });
        const photo = log({ serverId: serverA, createdAt: T0 + 1, logType: 'photo' });
        const other = log({ serverId: serverB, createdAt: T0 });
        await store.insertBatch([text, photo, other]);
        const key = (r: LogRecord) => ({ createdAt: r.createdAt, id: r.id });
        const found = await store.getByKeys(serverA, [key(photo), key(text), key(other), { createdAt: T0 + 5, id: text.id }, { createdAt: T0, id: 'missing' }]);
        expect(found.sort((a, b) => a.createdAt - b.createdAt)).toEqual([text, photo]);
        expect(await store.getByKeys(serverA, [])).toEqual([]);
        expect(await store.getByKeys('nobody', [key(text)])).toEqual([]);
      });

      it('deleteByKeys removes those logs of the server only, returns photo keys and keeps the rollups in step', async () => {
        const text = log({ serverId: serverA, createdAt: T0, resource: 'gone' });
        const photo = log({ serverId: serverA, createdAt: T0 + 1, logType: 'photo', resource: 'gone' });
        const keep = log({ serverId: serverA, createdAt: T0 + 2, resource: 'kept' });
        const other = log({ serverId: serverB, createdAt: T0 });
        await store.insertBatch([text, photo, keep, other]);
        const key = (r: LogRecord) => ({ createdAt: r.createdAt, id: r.id });
        const result = await store.deleteByKeys(serverA, [key(text), key(photo), key(photo), key(other), { createdAt: T0 + 9, id: keep.id }]);
        expect(result.deletedCount).toBe(2);
        expect(result.objectKeys.sort()).toEqual([photo.imageKey, photo.thumbKey].sort());
        expect(idsOf((await store.query({ serverId: serverA, offset: 0, limit: 10 })).items)).toEqual([keep.id]);
        expect(await store.count(serverB)).toBe(1);
        expect((await store.facets(serverA)).resources).toEqual(['kept']);
        expect((await store.stats(serverA, { fromDay: '2025-03-10', toDay: '2025-03-10' })).totals).toEqual({ text: 1, photo: 0 });
        expect(await store.deleteByKeys(serverA, [key(text)])).toEqual({ deletedCount: 0, objectKeys: [] });
        expect(await store.deleteByKeys('nobody', [key(keep)])).toEqual({ deletedCount: 0, objectKeys: [] });
      });

      it('a deleted id can be inserted again (idempotency covers stored logs only)', async () => {
        const r = log({ serverId: serverA, createdAt: T0 });
        await store.insertBatch([r]);
        await store.deleteBefore(serverA, T0 + 1);
        expect(await store.insertBatch([r])).toEqual({ inserted: 1 });
      });
    });

    describe('getById and neighbours (the context around a log)', () => {
      /** A UUIDv7 as ingestion makes them: its first 48 bits are `ms`, the arrival. */
      const uuid7 = (ms: number, n: number): string => {
        const hex = ms.toString(16).padStart(12, '0');
        return `${hex.slice(0, 8)}-${hex.slice(8)}-7${n.toString(16).padStart(3, '0')}-8000-${n.toString(16).padStart(12, '0')}`;
      };
      const key = (r: LogRecord) => ({ createdAt: r.createdAt, id: r.id });

      it('getById answers the server’s log whole, text or photo; null for an unknown id, another server’s log or an unknown server', async () => {
        const text = log({ serverId: serverA, createdAt: T0, metadata: { player: 'Ann' } });
        const photo = log({ serverId: serverA, createdAt: T0 + 1, logType: 'photo' });
        const other = log({ serverId: serverB, createdAt: T0 });
        await store.insertBatch([text, photo, other]);
        expect(await store.getById(serverA, text.id)).toEqual(text);
        expect(await store.getById(serverA, photo.id)).toEqual(photo);
        expect(await store.getById(serverA, other.id)).toBeNull();
        expect(await store.getById(serverA, 'missing')).toBeNull();
        expect(await store.getById(serverA, '')).toBeNull();
        expect(await store.getById('nobody', text.id)).toBeNull();
      });

      it('getById finds a UUIDv7-id log whatever its own time within ingestion’s window (a day before its arrival to 5 minutes after)', async () => {
        const arrival = T0 + 3 * DAY + 12_345;
        const times = [arrival, arrival - 3_000, arrival - 23 * 3600_000, arrival + 4 * 60_000, arrival - 20 * 60_000];
        const records = times.map((createdAt, n) => log({ serverId: serverA, createdAt, id: uuid7(arrival, n), ...(createdAt === arrival ? {} : { receivedAt: arrival }) }));
        // Neighbours in time that are not the log, so a lookup that matched on time alone would be caught.
        const decoys = times.map((createdAt, n) => log({ serverId: serverA, createdAt, id: uuid7(arrival, 100 + n) }));
        await store.insertBatch([...records, ...decoys]);
        for (const record of records) expect(await store.getById(serverA, record.id)).toEqual(record);
        expect(await store.getById(serverA, uuid7(arrival, 999))).toBeNull();
        expect(await store.getById(serverB, records[0]!.id)).toBeNull();
      });

      it('neighbours walks both ways from a log, nearest first, text and photo together, ties in one millisecond by id', async () => {
        const at = (createdAt: number, id: string, logType: LogType = 'text') => log({ serverId: serverA, createdAt, id, logType });
        const rows = [
          at(T0 + 1000, 'k-1'),
          at(T0 + 2000, 'k-2', 'photo'),
          at(T0 + 3000, 'k-3a'),
          at(T0 + 3000, 'k-3b', 'photo'),
          at(T0 + 3000, 'k-3c'),
          at(T0 + 4000, 'k-4'),
          at(T0 + 5000, 'k-5', 'photo'),
        ];
        // Inserted out of order, with another server's logs in between.
        await store.insertBatch([rows[4]!, rows[0]!, log({ serverId: serverB, createdAt: T0 + 3000, id: 'k-3bb' }), rows[6]!, rows[2]!, rows[5]!, rows[1]!, rows[3]!]);
        const middle = rows[3]!;
        expect(await store.neighbours(serverA, key(middle), 'older', 10)).toEqual([rows[2], rows[1], rows[0]]);
        expect(await store.neighbours(serverA, key(middle), 'newer', 10)).toEqual([rows[4], rows[5], rows[6]]);
        expect(idsOf(await store.neighbours(serverA, key(middle), 'older', 2))).toEqual(['k-3a', 'k-2']);
        expect(idsOf(await store.neighbours(serverA, key(middle), 'newer', 1))).toEqual(['k-3c']);
        expect(await store.neighbours(serverA, key(rows[0]!), 'older', 10)).toEqual([]);
        expect(await store.neighbours(serverA, key(rows[6]!), 'newer', 10)).toEqual([]);
        expect(await store.neighbours(serverA, key(middle), 'newer', 0)).toEqual([]);
        // A key that is no stored log: the logs on either side of where it would be.
        expect(idsOf(await store.neighbours(serverA, { createdAt: T0 + 3500, id: '' }, 'older', 2))).toEqual(['k-3c', 'k-3b']);
        expect(idsOf(await store.neighbours(serverA, { createdAt: T0 + 3500, id: '' }, 'newer', 5))).toEqual(['k-4', 'k-5']);
        expect(await store.neighbours('nobody', key(middle), 'older', 10)).toEqual([]);
      });

      it('neighbours refuses a malformed call', async () => {
        const k = { createdAt: T0, id: 'x' };
        await expect(store.neighbours(serverA, k, 'older', -1)).rejects.toThrow(RangeError);
        await expect(store.neighbours(serverA, k, 'older', 1.5)).rejects.toThrow(RangeError);
        await expect(store.neighbours(serverA, k, 'newer', 1_001)).rejects.toThrow(RangeError);
        await expect(store.neighbours(serverA, k, 'sideways' as 'older', 1)).rejects.toThrow(RangeError);
        await expect(store.neighbours('', k, 'older', 1)).rejects.toThrow(RangeError);
      });
    });

    describe('a log’s own time (createdAt) and its arrival (receivedAt)', () => {
      const HOUR = 3_600_000;
      /** 2025-03-20T00:00:00Z: when the logs below arrive, one after another (ids in arrival order). */
      const ARRIVAL = T0 + 10 * DAY;
      const RETENTION = 7 * DAY;
      let records: LogRecord[];
      beforeEach(async () => {
        // Their own times are out of that order: a client's batch sent late, another's clock ahead.
        records = [
          log({ serverId: serverA, createdAt: ARRIVAL - 2 * HOUR, receivedAt: ARRIVAL, message: 'two hours before' }),
          log({ serverId: serverA, createdAt: ARRIVAL + 1000, message: 'no time of its own' }),
          log({ serverId: serverA, createdAt: ARRIVAL - 23 * HOUR, receivedAt: ARRIVAL + 2000, message: 'twenty-three hours before', level: 'error' }),
          log({ serverId: serverA, createdAt: ARRIVAL + 4 * 60_000, receivedAt: ARRIVAL + 3000, message: 'clock ahead' }),
          log({ serverId: serverA, createdAt: ARRIVAL - 30 * 60_000, receivedAt: ARRIVAL + 4000, message: 'half an hour before', logType: 'photo' }),
        ];
        await store.insertBatch(records);
      });
      const byOwnTime = (items: readonly LogRecord[]): string[] => [...items].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((r) => r.id);

      it('answers receivedAt when it differs from createdAt, and none when it is absent or equal', async () => {
        const same = log({ serverId: serverB, createdAt: ARRIVAL, receivedAt: ARRIVAL });
        await store.insertBatch([same]);
        const { receivedAt: _equal, ...withoutArrival } = same;
        expect((await store.query({ serverId: serverB, offset: 0, limit: 5 })).items).toEqual([withoutArrival]);
        const page = await store.query({ serverId: serverA, offset: 0, limit: 10 });
        for (const record of records) expect(page.items.find((r) => r.id === record.id)).toEqual(record);
        const scanned: LogRecord[] = [];
        for await (const part of store.scan({ serverId: serverA }, 2)) scanned.push(...part);
        for (const record of records) expect(scanned.find((r) => r.id === record.id)).toEqual(record);
      });

      it('orders, pages, scans and searches by createdAt, whatever order the logs arrived in', async () => {
        const newestFirst = byOwnTime(records);
        expect(newestFirst).not.toEqual([...records].reverse().map((r) => r.id));
        expect(idsOf((await store.query({ serverId: serverA, offset: 0, limit: 10 })).items)).toEqual(newestFirst);
        expect(idsOf((await store.query({ serverId: serverA, offset: 1, limit: 2 })).items)).toEqual(newestFirst.slice(1, 3));
        const scanned: string[] = [];
        for await (const part of store.scan({ serverId: serverA }, 2)) scanned.push(...idsOf(part));
        expect(scanned).toEqual(newestFirst);
        const found = await store.query({ serverId: serverA, search: 'hours before', offset: 0, limit: 10 });
        expect(idsOf(found.items)).toEqual(byOwnTime(records.filter((r) => r.message.includes('hours before'))));
        expect(idsOf((await store.query({ serverId: serverA, logType: 'text', offset: 0, limit: 10 })).items)).toEqual(byOwnTime(records.filter((r) => r.logType === 'text')));
      });

      it('filters dates by createdAt, not by arrival, and totals the same way (day-aligned or not)', async () => {
        // The day before the arrival: three logs happened then, though none arrived then.
        const dayBefore = await store.query({ serverId: serverA, from: ARRIVAL - DAY, to: ARRIVAL - 1, offset: 0, limit: 10 });
        expect(idsOf(dayBefore.items)).toEqual(byOwnTime(records.filter((r) => r.createdAt < ARRIVAL)));
        expect(dayBefore.total).toBe(3);
        // The arrival's first 3.5 s: every log arrived within it, two happened within it.
        const arrived = await store.query({ serverId: serverA, from: ARRIVAL, to: ARRIVAL + 3500, offset: 0, limit: 10 });
        expect(idsOf(arrived.items)).toEqual([records[1]!.id]);
        expect(arrived.total).toBe(1);
        const sinceHalfAnHour = await store.query({ serverId: serverA, from: ARRIVAL - HOUR, offset: 0, limit: 10 });
        expect(idsOf(sinceHalfAnHour.items)).toEqual(byOwnTime(records.filter((r) => r.createdAt >= ARRIVAL - HOUR)));
      });

      it('buckets the histogram and the per-day stats by createdAt', async () => {
        const edges = [ARRIVAL - DAY, ARRIVAL - 12 * HOUR, ARRIVAL - HOUR, ARRIVAL, ARRIVAL + HOUR];
        const h = await store.histogram({ serverId: serverA }, () => edges);
        expect(h.span).toEqual({ first: ARRIVAL - 23 * HOUR, last: ARRIVAL + 4 * 60_000, capped: false });
        expect(h.counts).toEqual([{ error: 1 }, { info: 1 }, { info: 1 }, { info: 2 }]);
        const stats = await store.stats(serverA, { fromDay: '2025-03-19', toDay: '2025-03-20' });
        expect(stats.perDay).toEqual({ '2025-03-19': { text: 2, photo: 1 }, '2025-03-20': { text: 2, photo: 0 } });
      });

      it('expires by expiresAt, which counts from the arrival: a log stamped 23 h before it arrived is kept its full retention, one stamped ahead no longer', async () => {
        const backdated = log({ serverId: serverB, createdAt: ARRIVAL - 23 * HOUR, receivedAt: ARRIVAL, expiresAt: ARRIVAL + RETENTION });
        // Happened a second later the same day and was received then: its retention ends almost a day sooner.
        const onTime = log({ serverId: serverB, createdAt: ARRIVAL - 23 * HOUR + 1000, expiresAt: ARRIVAL - 23 * HOUR + 1000 + RETENTION });
        const ahead = log({ serverId: serverB, createdAt: ARRIVAL + 4 * 60_000, receivedAt: ARRIVAL, expiresAt: ARRIVAL + RETENTION, logType: 'photo' });
        const later = log({ serverId: serverB, createdAt: ARRIVAL + HOUR, expiresAt: ARRIVAL + HOUR + RETENTION });
        await store.insertBatch([backdated, onTime, ahead, later]);
        const left = async (): Promise<string[]> => idsOf((await store.query({ serverId: serverB, offset: 0, limit: 10 })).items);
        // When the backdated log's own time plus the retention has passed: only the log received then goes.
        expect((await store.deleteExpired(ARRIVAL - 23 * HOUR + 1000 + RETENTION)).deletedCount).toBe(1);
        expect(await left()).toEqual([later.id, ahead.id, backdated.id]);
        expect((await store.deleteExpired(ARRIVAL + RETENTION - 1)).deletedCount).toBe(0);
        // At its arrival's retention end it goes, and so does the log stamped ahead of its arrival.
        const atArrival = await store.deleteExpired(ARRIVAL + RETENTION);
        expect(atArrival.deletedCount).toBe(2);
        expect(atArrival.objectKeys.sort()).toEqual([ahead.imageKey, ahead.thumbKey].sort());
        expect(await left()).toEqual([later.id]);
        expect(await store.count(serverB)).toBe(1);
        expect((await store.stats(serverB, { fromDay: '2025-03-19', toDay: '2025-03-20' })).perDay).toEqual({ '2025-03-20': { text: 1, photo: 0 } });
        expect((await store.deleteExpired(ARRIVAL + HOUR + RETENTION)).deletedCount).toBe(1);
        expect(await store.count(serverB)).toBe(0);
        // The other server's logs (expiring 30 days after their own times) are untouched throughout.
        expect(await store.count(serverA)).toBe(records.length);
      });
    });

    describe('rollup invariant', () => {
      it('stats, facets and counts equal a naive recount after random inserts, redeliveries and deletes', async () => {
        const random = seededRandom(run * 7919);
        const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
        const stored = new Map<string, LogRecord>();
        const all: LogRecord[] = [];
        for (let round = 0; round < 6; round++) {
          const batch: LogRecord[] = [];
          for (let i = 0; i < 150; i++) {
            const redeliver = all.length > 0 && random() < 0.1;
            const r = redeliver
              ? pick(all)
              : log({
                  serverId: serverA,
                  createdAt: T0 + Math.floor(random() * 6 * DAY),
                  level: pick(['info', 'warn', 'error', 'Info']),
                  type: pick(['Join', 'Chat', 'Death']),
                  resource: pick(['lobby', 'arena', 'spawn']),
                  logType: random() < 0.2 ? 'photo' : 'text',
                  expiresAt: T0 + Math.floor(random() * 12 * DAY),
                });
            batch.push(r);
            if (!redeliver) all.push(r);
          }
          const fresh = new Set(batch.filter((r) => !stored.has(r.id)).map((r) => r.id));
          expect((await store.insertBatch(batch)).inserted).toBe(fresh.size);
          for (const r of batch) stored.set(r.id, r);
          if (round === 2) {
            const cut = T0 + 2 * DAY;
            const { deletedCount } = await store.deleteBefore(serverA, cut);
            const doomed = [...stored.values()].filter((r) => r.createdAt < cut);
            expect(deletedCount).toBe(doomed.length);
            for (const r of doomed) stored.delete(r.id);
          }
          if (round === 3) {
            const doomed = [...stored.values()].filter(() => random() < 0.1);
            const { deletedCount } = await store.deleteByKeys(serverA, doomed.map((r) => ({ createdAt: r.createdAt, id: r.id })));
            expect(deletedCount).toBe(doomed.length);
            for (const r of doomed) stored.delete(r.id);
          }
          if (round === 4) {
            const now = T0 + 5 * DAY;
            const { deletedCount } = await store.deleteExpired(now);
            const doomed = [...stored.values()].filter((r) => r.expiresAt <= now);
            expect(deletedCount).toBe(doomed.length);
            for (const r of doomed) stored.delete(r.id);
          }
        }
        const photos = [...stored.values()].filter((r) => r.logType === 'photo').sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
        const { deletedCount } = await store.deleteOldest(serverA, 'photo', 10);
        expect(deletedCount).toBe(Math.max(0, photos.length - 10));
        for (const r of photos.slice(10)) stored.delete(r.id);

        const remaining = [...stored.values()];
        const canonical = remaining.map((r) => ({ ...r, level: r.level.toLowerCase() }));
        const stats = await store.stats(serverA, { fromDay: '2025-03-10', toDay: '2025-03-20' });
        const lowerKeys = (m: LogStats['perLevel']): Record<string, unknown> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k.toLowerCase(), v]));
        const expected = naiveStats(canonical, '2025-03-10', '2025-03-20');
        expect({ ...stats, perLevel: lowerKeys(stats.perLevel) }).toEqual(expected);
        expect(await store.count(serverA)).toBe(remaining.length);
        const page = await store.query({ serverId: serverA, level: 'INFO', offset: 0, limit: 5 });
        expect(page.total).toBe(canonical.filter((r) => r.level === 'info').length);
        const combined = await store.query({ serverId: serverA, level: 'error', resource: 'arena', offset: 0, limit: 5 });
        expect(combined.total).toBe(remaining.filter((r) => r.level === 'error' && r.resource === 'arena').length);
        const facets = await store.facets(serverA);
        expect(facets.types).toEqual([...new Set(remaining.map((r) => r.type))].sort());
      });
    });
  });
}

function idsOf(items: readonly LogRecord[]): string[] {
  return items.map((r) => r.id);
}
