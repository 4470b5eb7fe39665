/**
 * Staff admin area benchmark: GET /admin/stats and GET /admin/servers through the admin service
 * as the test kit builds it (real factory and routes over the embedded adapters, Fastify inject, a real
 * superadmin token: verification, revocation and site-role checks included), with ADMIN_BENCH_SERVERS
 * servers (default 5,000) and ADMIN_BENCH_USERS accounts (default 50,000) in its read model, seeded directly
 * (as the consumers would leave it): the servers' log counts sum to ADMIN_BENCH_LOGS (default 5,000,000)
 * with a 7-day series each. Beside them, in the same run, the log store's indexed page (the newest 50 logs
 * of one server out of ADMIN_BENCH_LOGS stored ones): what one ordinary page costs on this machine.
 * Bars: both admin calls p95 < 50 ms.
 * Run: `npm run bench -- admin-area`, or `node scripts/bench/benchmarks/admin-area.bench.ts`. A quick run:
 * ADMIN_BENCH_LOGS=500000.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { LogRecord } from '@skald/ports';
import { buildTestService, createTestDeps, waitFor } from '@skald/testing';
import type { TestService } from '@skald/testing';
import { countUsers, createAdminServiceWith, createOverview, statsDays } from '@skald/admin-service/testing';
import type { BenchRow } from '../harness/bench-row.ts';
import { percentile } from '../harness/samples.ts';

const SERVERS = Number(process.env['ADMIN_BENCH_SERVERS'] ?? 5_000);
const USERS = Number(process.env['ADMIN_BENCH_USERS'] ?? 50_000);
const LOGS = Number(process.env['ADMIN_BENCH_LOGS'] ?? 5_000_000);
const BAR_MS = 50;
const RUNS = 60;
const BATCH = 5000;

async function timed(runs: number, call: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i += 1) {
    const t = performance.now();
    await call();
    if (i >= 5) times.push(performance.now() - t); // the first runs warm the page cache and statements
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

export default async function adminAreaBenchmark(): Promise<BenchRow[]> {
  const deps = await createTestDeps({ service: 'admin' });
  let service: TestService | undefined;
  try {
    const now = Date.now();
    const days = statsDays(now);
    const seed = performance.now();
    const overview = await createOverview(deps.docs);
    for (let i = 0; i < USERS; i += 1) {
      const createdAt = new Date(now - (i % 30) * 86_400_000).toISOString();
      await overview.users.insertOne({
        _id: `user-${i}`,
        email: `user${i}@bench.test`,
        username: `user${i}`,
        siteRole: 'user',
        twoFA: i % 4 === 0,
        active: true,
        createdAt,
        createdDay: createdAt.slice(0, 10),
        lastLoginAt: null,
        serverCount: i < SERVERS ? 1 : 0,
      });
    }
    const perServer = Math.floor(LOGS / SERVERS);
    for (let i = 0; i < SERVERS; i += 1) {
      const createdAt = new Date(now - (i % 60) * 86_400_000).toISOString();
      const logs = i % 10 === 9 ? 0 : perServer + (i < LOGS % SERVERS ? 1 : 0);
      await overview.servers.insertOne({
        _id: `server-${i}`,
        known: true,
        name: `Server ${i}`,
        ownerId: `user-${i}`,
        tier: 'free',
        suspended: i % 97 === 0,
        createdAt,
        createdDay: createdAt.slice(0, 10),
        userCount: 1 + (i % 5),
        logs,
        photoLogs: i % 7,
        days: days.map((date, d) => ({ date, logs: Math.floor(logs / 30) + d, photoLogs: d % 2 })),
        auditCount: i % 40,
        backupCount: i % 3,
        backupSize: (i % 3) * 1_048_576,
        changedAt: now - 60_000,
      });
    }
    const seedSeconds = (performance.now() - seed) / 1000;

    // The log store beside it: LOGS logs over SERVERS servers, the newest page of one of them measured.
    const fill = performance.now();
    for (let start = 0; start < LOGS; start += BATCH) {
      const records: LogRecord[] = [];
      for (let i = start; i < Math.min(LOGS, start + BATCH); i += 1) {
        const createdAt = now - 30 * 86_400_000 + Math.floor((i / LOGS) * 30 * 86_400_000);
        records.push({
          id: `${createdAt.toString(36).padStart(10, '0')}-${i.toString(36).padStart(8, '0')}`,
          serverId: `server-${i % SERVERS}`,
          createdAt,
          level: 'info',
          type: 'General',
          resource: 'core',
          message: `bench log ${i}`,
          metadata: null,
          logType: 'text',
          imageKey: null,
          thumbKey: null,
          expiresAt: createdAt + 365 * 86_400_000,
        });
      }
      await deps.logStore.insertBatch(records);
    }
    console.log(`seeded ${USERS.toLocaleString()} users and ${SERVERS.toLocaleString()} servers in ${seedSeconds.toFixed(1)} s; ${LOGS.toLocaleString()} logs stored in ${((performance.now() - fill) / 1000).toFixed(1)} s`);
    const page = await timed(RUNS, async () => {
      const found = await deps.logStore.query({ serverId: 'server-1', logType: 'text', offset: 0, limit: 50 });
      if (found.items.length === 0) throw new Error('the log store page is empty');
    });

    const admin = await buildTestService((d) => createAdminServiceWith(d), { deps });
    service = admin;
    await admin.identity.user('bench-super', 'superadmin');
    const authorization = `Bearer ${admin.tokenFor({ id: 'bench-super', role: 'superadmin' })}`;
    const get = async (url: string) => {
      const res = await admin.inject({ method: 'GET', url, headers: { authorization } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res;
    };
    await waitFor(async () => (await admin.inject({ method: 'GET', url: '/admin/stats', headers: { authorization } })).statusCode === 200, 'the superadmin in the read model');
    const stats = (await get('/admin/stats')).json<{ totalLogs: number; totalServers: number; totalUsers: number }>();
    if (stats.totalServers !== SERVERS || stats.totalUsers < USERS) throw new Error(`unexpected stats ${JSON.stringify(stats)}`);

    const statsTime = await timed(RUNS, async () => void (await get('/admin/stats')));
    const serversTime = await timed(RUNS, async () => void (await get('/admin/servers')));
    // What the answers rest on: a replica reads every server once (at its first answer), then only the changed
    // ones each second; it counts the accounts every 5 s in the background.
    const fullLoad = await timed(10, async () => void (await overview.servers.find({})));
    const changedRead = await timed(20, async () => void (await overview.servers.find({ changedAt: { $gte: Date.now() - 5_000 } })));
    const usersBuild = await timed(10, async () => void (await countUsers(overview, Date.now())));
    const baseline = `log store indexed page p95 ${page.p95.toFixed(2)} ms (p50 ${page.p50.toFixed(2)})`;
    const note = `${SERVERS.toLocaleString('en-US')} servers, ${USERS.toLocaleString('en-US')} users, ${stats.totalLogs.toLocaleString('en-US')} logs counted; through the route (token, site role, JSON)`;
    for (const [label, t] of [
      ['GET /admin/stats', statsTime],
      ['GET /admin/servers', serversTime],
    ] as const) {
      console.log(`${label.padEnd(22)} p50 ${t.p50.toFixed(2).padStart(7)} ms   p95 ${t.p95.toFixed(2).padStart(7)} ms   (${baseline})`);
    }
    console.log(`behind them: full read of the servers p95 ${fullLoad.p95.toFixed(2)} ms (once per replica), changed-servers read p95 ${changedRead.p95.toFixed(2)} ms (each second), account counts p95 ${usersBuild.p95.toFixed(2)} ms (every 5 s)`);
    return [
      { name: 'servers full read p95', value: Number(fullLoad.p95.toFixed(2)), unit: 'ms', note: "a replica's first answer only; then it reads the changed servers" },
      { name: 'changed-servers read p95', value: Number(changedRead.p95.toFixed(2)), unit: 'ms', note: 'no server changed: the index range alone' },
      { name: 'account counts p95', value: Number(usersBuild.p95.toFixed(2)), unit: 'ms', note: 'rebuilt in the background when older than 5 s' },
      { name: 'GET /admin/stats p95', value: Number(statsTime.p95.toFixed(2)), unit: 'ms', target: `< ${BAR_MS} ms`, pass: statsTime.p95 < BAR_MS, baseline, note },
      { name: 'GET /admin/servers p95', value: Number(serversTime.p95.toFixed(2)), unit: 'ms', target: `< ${BAR_MS} ms`, pass: serversTime.p95 < BAR_MS, baseline, note },
    ];
  } finally {
    await service?.close();
    await deps.cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await adminAreaBenchmark();
