/**
 * Logs read API benchmark (issue 4): with LOGS_BENCH_ROWS stored logs (default 5,000,000) in the embedded
 * SQLite log store, measures through the real routes (Fastify inject, role check included):
 *   - the newest filtered page (level=error, pageSize 50) p50/p95 — bar: p95 < 30 ms
 *   - the newest unfiltered page and a type+resource filtered page
 *   - dashboard stats (GET /logs/stats) p50/p95 — bar: < 100 ms
 * Run: `npm run bench -- logs-api` (rows in the harness table) or `node scripts/bench/logs-api.bench.ts`
 * (prints only). Size: LOGS_BENCH_ROWS, else BENCH_ROWS, default 5,000,000 (e.g. BENCH_ROWS=500000 for a quick run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pino from 'pino';
import { createLogStore, MemoryCounters } from '@skald/adapters';
import type { LogRecord } from '@skald/ports';
import { createImageUrlSigner, registerLogsRoutes } from '@skald/logs-service';
import type { ServerDirectory } from '../../services/logs/src/domain/server-directory.ts';
import { createLevelColorsRepository } from '../../services/logs/src/domain/level-colors.ts';
import { MemoryDocumentStore, MemoryObjectStore } from '../../services/logs/test/support/memory-stores.ts';
import type { BenchRow } from './bench-row.ts';

const ROWS = Number(process.env['LOGS_BENCH_ROWS'] ?? process.env['BENCH_ROWS'] ?? 5_000_000);
const SERVERS = 10;
const TARGET = 'bench-server-0';
const BATCH = 5000;
const LEVELS = ['info', 'info', 'info', 'warn', 'debug', 'error', 'info', 'fatal'];
const TYPES = ['General', 'Chat', 'Combat', 'Join', 'Economy'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export default async function logsApiBenchmark(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'logs-api-bench-'));
  const logStore = await createLogStore({ kind: 'sqlite', file: join(dir, 'logs.db') });
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

    const directory: ServerDirectory = { roleOf: async () => 'owner', server: async () => ({ tier: 'legend', suspended: false }) };
    const app = Fastify({ logger: false });
    await registerLogsRoutes(app, {
      authenticate: async () => 'bench-user',
      directory,
      logStore,
      objects: new MemoryObjectStore(),
      counters: new MemoryCounters(),
      colors: await createLevelColorsRepository(new MemoryDocumentStore()),
      signer: createImageUrlSigner(randomBytes(32).toString('base64'), '/api'),
      log: pino({ level: 'silent' }),
      now: Date.now,
    });
    await app.ready();

    const rows: BenchRow[] = [];
    const note = `${ROWS.toLocaleString('en-US')} stored logs, ${SERVERS} servers, through the route (role check, JSON)`;
    const measure = async (label: string, url: string, runs: number, bar?: number): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < runs + 5; i += 1) {
        const t = performance.now();
        const res = await app.inject({ method: 'GET', url });
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
    await app.close();

    console.log(`bars: filtered page p95 ${filtered.toFixed(2)} ms (< 30) ${filtered < 30 ? 'PASS' : 'FAIL'}; stats p95 ${stats.toFixed(2)} ms (< 100) ${stats < 100 ? 'PASS' : 'FAIL'}`);
    return rows;
  } finally {
    await logStore.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await logsApiBenchmark();
