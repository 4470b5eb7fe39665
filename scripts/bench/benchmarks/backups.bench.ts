/**
 * Backups: a ~200 MB game database dumped through the backups service (POST create → mysql2
 * snapshot → SQL → gzip → object store, until the run is recorded done) and with `mariadb-dump
 * --single-transaction --hex-blob` on the same database in the same run; MB/s of SQL for both (best of
 * BENCH_BACKUP_RUNS each, alternating, since the machine is shared) and the service's RSS growth: the
 * kernel's high-water mark during the runs above the settled process before them.
 * Targets: at least 50% of mariadb-dump's speed, RSS growth under 100 MB.
 *
 * Needs the local MariaDB (127.0.0.1:3306, root without password) and `mariadb-dump`.
 * Run: `npm run bench -- backups` (BENCH_BACKUP_ROWS, default 600,000 players ≈ 200 MB of SQL).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createOutboundGuard } from '@skald/service-kit';
import { buildTestService, waitFor } from '@skald/testing';
import { createBackupsServiceWith } from '@skald/backups-service/testing';
import { createGameDatabase, dropDatabase, MARIADB, uniqueDatabaseName } from '../../../services/backups/test/support/game-database.ts';
import type { BenchRow } from '../harness/bench-row.ts';

const ROWS = Number(process.env['BENCH_BACKUP_ROWS'] ?? 600_000);
const RUNS = Number(process.env['BENCH_BACKUP_RUNS'] ?? 2);
const MB = 1024 * 1024;

function statusKb(field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

/** Settles the heap and resets the high-water mark to the current RSS; answers that RSS in bytes. */
function resetPeak(): number {
  globalThis.gc?.();
  writeFileSync('/proc/self/clear_refs', '5');
  return statusKb('VmRSS') * 1024;
}

/** mariadb-dump into a byte counter: answers {bytes, seconds}. */
function mariadbDump(database: string): Promise<{ bytes: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('mariadb-dump', ['-h', MARIADB.host, '-P', String(MARIADB.port), '-u', MARIADB.user, '--single-transaction', '--hex-blob', database], { stdio: ['ignore', 'pipe', 'inherit'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`mariadb-dump exited ${code}`));
      else resolve({ bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}

export default async function run(): Promise<BenchRow[]> {
  const database = uniqueDatabaseName('bench');
  console.log(`building ${database}: ${ROWS.toLocaleString('en-US')} players ...`);
  await createGameDatabase(database, { bigRows: ROWS });
  const service = await buildTestService((deps) => createBackupsServiceWith(deps), {
    service: 'backups',
    overrides: { outbound: createOutboundGuard({ allowed: [MARIADB.host] }) },
  });
  try {
    await service.identity.server({ serverId: 'bench', ownerId: 'owner', tier: 'legend' });
    await waitFor(async () => (await service.injectAs({ id: 'owner' }, { method: 'GET', url: '/backups/bench' })).statusCode === 200, 'the server', 10_000);
    const settings = { enabled: false, interval_hours: 24, db_host: MARIADB.host, db_port: MARIADB.port, db_user: MARIADB.user, db_name: database };
    await service.injectAs({ id: 'owner' }, { method: 'POST', url: '/backups/bench/settings', payload: settings });

    const backup = async (): Promise<{ bytes: number; seconds: number; stored: number }> => {
      const started = process.hrtime.bigint();
      const { id } = (await service.injectAs({ id: 'owner' }, { method: 'POST', url: '/backups/bench/create' })).json<{ id: string }>();
      let done: { status: string; size: number; error: string | null } | undefined;
      // Polled like the screen does (every few seconds, here 100 ms): a tighter loop would compete with the dump for the thread.
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const list = (await service.injectAs({ id: 'owner' }, { method: 'GET', url: '/backups/bench' })).json<{ id: string; status: string; size: number; error: string | null }[]>();
        done = list.find((b) => b.id === id);
        if (done !== undefined && done.status !== 'running') break;
      }
      if (done.status !== 'done') throw new Error(`backup failed: ${done.error}`);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const stored = (await service.deps.objects.stat(`backups/${id}.sql.gz`))?.size ?? 0;
      return { bytes: done.size, seconds, stored };
    };

    // Warm-up (modules, JIT, the first table scan into MariaDB's buffer pool), then the measured runs.
    await mariadbDump(database);
    await backup();
    const baseline = resetPeak();
    const ours: { bytes: number; seconds: number; stored: number }[] = [];
    const theirs: { bytes: number; seconds: number }[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      theirs.push(await mariadbDump(database));
      ours.push(await backup());
    }
    const peakGrowth = statusKb('VmHWM') * 1024 - baseline;
    const best = <T extends { bytes: number; seconds: number }>(runs: T[]) => runs.reduce((a, b) => (b.bytes / b.seconds > a.bytes / a.seconds ? b : a));
    const service_ = best(ours);
    const dump = best(theirs);
    const ourSpeed = service_.bytes / MB / service_.seconds;
    const theirSpeed = dump.bytes / MB / dump.seconds;
    const note = `${(service_.bytes / MB).toFixed(0)} MB of SQL (${ROWS.toLocaleString('en-US')} players), stored gzip-1 ${(service_.stored / MB).toFixed(0)} MB; best of ${RUNS}`;
    return [
      { name: 'service dump (API → done)', value: ourSpeed, unit: 'MB/s', target: `>= ${(theirSpeed / 2).toFixed(1)} (50% of mariadb-dump)`, pass: ourSpeed >= theirSpeed / 2, baseline: `mariadb-dump --single-transaction ${theirSpeed.toFixed(1)} MB/s (${(dump.bytes / MB).toFixed(0)} MB)`, note },
      { name: 'service RSS growth during dumps', value: Math.round(peakGrowth / MB), unit: 'MB', target: '< 100 MB', pass: peakGrowth < 100 * MB, baseline: `settled RSS ${Math.round(baseline / MB)} MB` },
    ];
  } finally {
    await service.close();
    await dropDatabase(database);
  }
}
