/**
 * Where recording players spends its time as the store grows (docs/PLAYERS.md, "Where the recorder's time
 * goes"): the players benchmark's logs (PLAYERS_BENCH_ROWS, default 2,000,000; PLAYERS_BENCH_PLAYERS) recorded
 * straight into an embedded player store in runs of 10,000 logs, on this thread (no log store, no worker):
 * extraction, then record(), with every SQLite statement timed by its text, in this thread's CPU time (StatementSync.run/get/all and
 * the transaction's exec wrapped). Prints, per fifth of the logs, microseconds a log by stage and by
 * statement, so a cost that grows with the store shows as a column that grows.
 * Run: `node_modules/.bin/node scripts/bench/tools/players-record-stages.ts` (from the repository's root);
 * PLAYERS_STAGES_STATEMENTS=0 leaves statements untimed (for --cpu-prof).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import type { RecordableLog } from '@skald/ports';
import { SqlitePlayerStore } from '../../../libs/adapters/src/player-store/sqlite-player-store.ts';
import { mentionsOf } from '../../../services/logs/src/domain/players/record-players.ts';
import { SERVER, logAt } from '../benchmarks/players.bench.ts';

const ROWS = Number(process.env['PLAYERS_BENCH_ROWS'] ?? 2_000_000);
const RUN = 10_000;
const PARTS = 5;

/** This thread's CPU time (user + system), ms: the machine is shared, so wall time would count other work. */
function cpuMs(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

/** Milliseconds spent per statement kind in the current part. */
let times = new Map<string, number>();
/** Calls per statement kind in the current part. */
let calls = new Map<string, number>();
const add = (key: string, ms: number): void => {
  times.set(key, (times.get(key) ?? 0) + ms);
  calls.set(key, (calls.get(key) ?? 0) + 1);
};
const keyOf = (sql: string): string => {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (s.startsWith('INSERT OR IGNORE INTO player_logs')) return 'insert (player, log) rows';
  return s.slice(0, 60);
};
// PLAYERS_STAGES_STATEMENTS=0: no statement timing (for a CPU profile of recording as it runs, --cpu-prof).
const timeStatements = process.env['PLAYERS_STAGES_STATEMENTS'] !== '0';
for (const method of timeStatements ? (['run', 'get', 'all'] as const) : []) {
  const original = StatementSync.prototype[method] as (...args: unknown[]) => unknown;
  (StatementSync.prototype as unknown as Record<string, unknown>)[method] = function timed(this: StatementSync, ...args: unknown[]): unknown {
    const t = cpuMs();
    try {
      return original.apply(this, args);
    } finally {
      add(keyOf(this.sourceSQL), cpuMs() - t);
    }
  };
}
const exec = DatabaseSync.prototype.exec;
if (timeStatements) {
  DatabaseSync.prototype.exec = function timed(this: DatabaseSync, sql: string): void {
    const t = cpuMs();
    try {
      exec.call(this, sql);
    } finally {
      add(`exec ${sql.slice(0, 20)}`, cpuMs() - t);
    }
  };
}

const dir = mkdtempSync(join(tmpdir(), 'players-stages-'));
const file = join(dir, 'players.db');
const store = new SqlitePlayerStore(file, { walCheckpointer: null });
const log = { warn: () => undefined };
try {
  const perPart = Math.ceil(ROWS / PARTS);
  for (let part = 0; part < PARTS; part++) {
    times = new Map();
    calls = new Map();
    let extractMs = 0;
    let recordMs = 0;
    let mentions = 0;
    const end = Math.min(ROWS, (part + 1) * perPart);
    for (let i = part * perPart; i < end; ) {
      const logs: RecordableLog[] = [];
      for (const stop = Math.min(end, i + RUN); i < stop; i++) {
        const a = logAt(i);
        logs.push({ logId: a.id, serverId: SERVER, at: a.createdAt, logType: a.logType, expiresAt: a.createdAt + 90 * 86_400_000, message: a.message, metadata: a.metadata === null ? null : JSON.stringify(a.metadata) });
      }
      let t = cpuMs();
      const found = mentionsOf(logs, log);
      extractMs += cpuMs() - t;
      for (const m of found) mentions += m.players.length;
      t = cpuMs();
      await store.record(found);
      recordMs += cpuMs() - t;
    }
    const n = end - part * perPart;
    const us = (ms: number): string => ((ms * 1000) / n).toFixed(2);
    const top = [...times].sort((a, b) => b[1] - a[1]).slice(0, 8);
    const sqlMs = [...times.values()].reduce((a, b) => a + b, 0);
    console.log(
      `logs ${(part * perPart).toLocaleString('en-US')}-${end.toLocaleString('en-US')}: µs a log: extraction ${us(extractMs)}, record ${us(recordMs)} (SQLite ${us(sqlMs)}, JS ${us(recordMs - sqlMs)}); ${(mentions / n).toFixed(2)} mentions a log; file ${(statSync(file).size / 1048576).toFixed(0)} MiB`,
    );
    for (const [key, ms] of top) console.log(`    ${us(ms).padStart(6)}  ${key} (${(((calls.get(key) ?? 0) * 1000) / n).toFixed(1)} calls a 1,000 logs)`);
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
