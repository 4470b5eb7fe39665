/**
 * Logs read API benchmark: with LOGS_BENCH_ROWS stored logs (default 5,000,000) in the embedded
 * SQLite log store, measures the logs service as the test kit builds it (its real factory and routes over
 * the embedded adapters, Fastify inject) with a real access token, so every request pays what a browser's
 * does: token verification, the revocation and role checks against the identity read model, the query and
 * the JSON answer:
 *   - the newest filtered page (level=error, pageSize 50) p50/p95 — bar: p95 < 30 ms
 *   - the newest unfiltered page and a type+resource filtered page
 *   - dashboard stats (GET /logs/stats) p50/p95 — bar: < 100 ms
 *   - the histogram (GET /logs/my/histogram): unfiltered (past the count cap), a level, a search, a type over one day
 * Run: `npm run bench -- logs-api` (rows in the harness table) or `node scripts/bench/benchmarks/logs-api.bench.ts`
 * (prints only). Size: LOGS_BENCH_ROWS, else BENCH_ROWS, default 5,000,000 (e.g. BENCH_ROWS=500000 for a quick run).
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { LogRecord } from '@skald/ports';
import { buildTestService, createTestDeps, waitFor } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { createLogsService } from '@skald/logs-service';
import type { BenchRow } from '../harness/bench-row.ts';
import { percentile } from '../harness/samples.ts';

const ROWS = Number(process.env['LOGS_BENCH_ROWS'] ?? process.env['BENCH_ROWS'] ?? 5_000_000);
const SERVERS = 10;
const TARGET = 'bench-server-0';
const USER = 'bench-user';
const BATCH = 5000;
const LEVELS = ['info', 'info', 'info', 'warn', 'debug', 'error', 'info', 'fatal'];
const TYPES = ['General', 'Chat', 'Combat', 'Join', 'Economy'];

export default async function logsApiBenchmark(): Promise<BenchRow[]> {
  const deps = await createTestDeps({ service: 'logs' });
  const { logStore } = deps;
  let service: TestService | undefined;
  try {
    const now = Date.now();
    const spanMs = 30 * 86_400_000;
    const fill = performance.now();
    for (let start = 0; start < ROWS; start += BATCH) {
      const records: LogRecord[] = [];
      for (let i = start; i < Math.min(ROWS, start + BATCH); i += 1) {
        const createdAt = now - spanMs + Math.floor((i / ROWS) * spanMs);
        // Attributes vary per server's own sequence (j), so every server gets every level, type and resource.
        const j = Math.floor(i / SERVERS);
        records.push({
          id: `${createdAt.toString(36).padStart(10, '0')}-${i.toString(36).padStart(8, '0')}`,
          serverId: `bench-server-${i % SERVERS}`,
          createdAt,
          level: LEVELS[j % LEVELS.length]!,
          type: TYPES[j % TYPES.length]!,
          resource: `resource-${j % 13}`,
          message: `player ${i % 977} did something number ${i}`,
          metadata: i % 3 === 0 ? { player: `p${i % 977}`, x: i % 100 } : null,
          logType: j % 50 === 0 ? 'photo' : 'text',
          imageKey: j % 50 === 0 ? `photos/b/${i}.webp` : null,
          thumbKey: j % 50 === 0 ? `thumbs/b/${i}.webp` : null,
          expiresAt: createdAt + 365 * 86_400_000,
        });
      }
      await logStore.insertBatch(records);
    }
    const fillSeconds = (performance.now() - fill) / 1000;
    console.log(`filled ${ROWS.toLocaleString()} logs (${SERVERS} servers) in ${fillSeconds.toFixed(1)} s (${Math.round(ROWS / fillSeconds).toLocaleString()} logs/s)`);

    const logs = await buildTestService(createLogsService, { deps });
    service = logs;
    // The owner of the measured server, on the top tier, as the auth service would publish it.
    await logs.identity.server({ serverId: TARGET, ownerId: USER, tier: 'legend' });
    // One token for every request, as a browser reuses its session's token.
    const authorization = `Bearer ${logs.tokenFor({ id: USER })}`;
    const get = (url: string) => logs.inject({ method: 'GET', url, headers: { authorization } });
    await waitFor(async () => (await get(`/settings/levels?serverId=${TARGET}`)).statusCode === 200, 'the bench server in the logs read model');

    const rows: BenchRow[] = [];
    const note = `${ROWS.toLocaleString('en-US')} stored logs, ${SERVERS} servers, through the route (access token, role check, JSON)`;
    const measure = async (label: string, url: string, runs: number, bar?: number): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < runs + 5; i += 1) {
        const t = performance.now();
        const res = await get(url);
        const elapsed = performance.now() - t;
        if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
        if (i === 0 && Number(res.headers['x-total-count'] ?? 1) === 0) throw new Error(`${label}: the query matched nothing`);
        if (i >= 5) times.push(elapsed); // first runs warm the page cache and statements
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(`${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms`);
      rows.push({ name: `${label} p95`, value: Number(p95.toFixed(2)), unit: 'ms', ...(bar === undefined ? {} : { target: `< ${bar} ms`, pass: p95 < bar }), note });
      return p95;
    };

    const filtered = await measure('newest page level=error pageSize=50', `/logs/my?serverId=${TARGET}&level=error&page=1&pageSize=50`, 100, 30);
    await measure('newest page (no filter) pageSize=50', `/logs/my?serverId=${TARGET}&page=1&pageSize=50`, 100);
    await measure('newest page type=combat resource=resource-3', `/logs/my?serverId=${TARGET}&type=combat&resource=resource-3&page=1&pageSize=50`, 100);
    await measure('photo logs page 1 (pageSize 6)', `/photologs/my?serverId=${TARGET}&page=1&pageSize=6`, 100);
    const stats = await measure('dashboard stats', `/logs/stats?serverId=${TARGET}`, 50, 100);
    // The histogram above the lists: counts up to the 100,000 newest matches per access path.
    await measure('histogram (no filter, capped)', `/logs/my/histogram?serverId=${TARGET}&timeZone=Europe/Berlin`, 30);
    await measure('histogram level=fatal', `/logs/my/histogram?serverId=${TARGET}&level=fatal&timeZone=Europe/Berlin`, 30);
    await measure('histogram search=number 12345', `/logs/my/histogram?serverId=${TARGET}&search=number%2012345&timeZone=Europe/Berlin`, 30);
    await measure('histogram type=combat one day', `/logs/my/histogram?serverId=${TARGET}&type=combat&dateFrom=${new Date(now - 86_400_000).toISOString().slice(0, 10)}&dateTo=${new Date(now - 86_400_000).toISOString().slice(0, 10)}`, 30);

    console.log(`bars: filtered page p95 ${filtered.toFixed(2)} ms (< 30) ${filtered < 30 ? 'PASS' : 'FAIL'}; stats p95 ${stats.toFixed(2)} ms (< 100) ${stats < 100 ? 'PASS' : 'FAIL'}`);
    return rows;
  } finally {
    await service?.close();
    await deps.cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await logsApiBenchmark();
