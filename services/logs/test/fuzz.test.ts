import { describe, expect, it, onTestFinished } from 'vitest';
import fc from 'fast-check';
import { createHarness, record, seedServer } from './support/harness.ts';

const PATHS = ['/logs/my', '/logs/my/combined', '/photologs/my', '/logs/stats', '/settings/colors', '/settings/levels', '/server/usage/s', '/photologs/image/p1'];
const KEYS = ['serverId', 'search', 'type', 'level', 'resource', 'dateFrom', 'dateTo', 'timeZone', 'page', 'pageSize', 'days', 't', '__proto__', 'constructor', 'serverId[$ne]'];

describe('fuzzed query strings and bodies never produce a 5xx', () => {
  it('on every read route, the cleanup route and the colour update', async () => {
    const h = await createHarness();
    onTestFinished(() => h.close());
    await seedServer(h, { serverId: 's', ownerId: 'u' });
    await h.deps.logStore.insertBatch([record('s', { id: 'p1', logType: 'photo', imageKey: 'photos/s/p1.webp', thumbKey: 'thumbs/s/p1.webp' }), record('s')]);
    const value = fc.oneof(fc.string(), fc.constantFrom('s', '1', '0', '-1', '251', '2025-02-30', '2025-08-20', '%', '%00', '1e309', 'NaN', 'Europe/Berlin', '+99:00', 'Etc/GMT+14', '../../etc/passwd'), fc.integer().map(String));
    const query = fc.array(fc.tuple(fc.constantFrom(...KEYS), value), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS, 'DELETE /logs/cleanup', 'PUT /settings/colors'), query, fc.jsonValue(), async (target, qs, body) => {
        const [method, url] = target.includes(' ') ? (target.split(' ') as ['DELETE' | 'PUT', string]) : (['GET', target] as const);
        const res = await h.injectAs({ id: 'u' }, {
          method,
          url: `${url}?${qs}`,
          headers: { 'content-type': 'application/json' },
          ...(method === 'PUT' ? { payload: JSON.stringify(body) } : {}),
        });
        expect(res.statusCode, `${method} ${url}?${qs} -> ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 400 },
    );
  });
});
