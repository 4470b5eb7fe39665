/**
 * CSV export benchmark: with EXPORT_BENCH_ROWS text logs of one server (default 1,000,000) in the
 * embedded SQLite log store, GET /exports/logs through the logs service as the test kit builds it (its real
 * factory, routes and access token), served over a real HTTP socket and read by fetch chunk by chunk, so
 * nothing holds the file: rows per second, time to the first byte and the process's RSS growth (sampled
 * every 10 ms, split as /proc/self/status does): the anonymous part (what the process holds) — bar:
 * < 100 MB — and the total, which also counts the file pages of the memory-mapped log database. Beside it,
 * in the same process and on the same file, the floor: a plain SQLite SELECT of the same rows and columns
 * (no mmap), each row joined to text and written to /dev/null.
 * Run: `npm run bench -- export` or `node scripts/bench/benchmarks/export.bench.ts` (prints only).
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import type { LogRecord } from '@skald/ports';
import { buildTestService, waitFor } from '@skald/testing';
import { createLogsService } from '@skald/logs-service';
import type { BenchRow } from '../harness/bench-row.ts';

const ROWS = Number(process.env['EXPORT_BENCH_ROWS'] ?? 1_000_000);
const SERVER = 'bench-export-server';
const USER = 'bench-export-owner';
const BATCH = 5000;
const LEVELS = ['info', 'info', 'warn', 'error', 'debug'];
const MB = 1024 * 1024;

interface Rss {
  readonly total: number;
  /** Anonymous memory: the JS heap, buffers, SQLite's page cache (what the process itself holds). */
  readonly anon: number;
  /** File-backed pages mapped in: the log store's memory-mapped database file (the OS page cache). */
  readonly file: number;
}

/** RSS split as Linux reports it (/proc/self/status), in bytes; on other systems all of it counts as anonymous. */
function rss(): Rss {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { total: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile') + kib('RssShmem') };
  } catch {
    const total = process.memoryUsage.rss();
    return { total, anon: total, file: 0 };
  }
}

/** Samples RSS every 10 ms; `peak()` is the highest of each part seen since start. */
function rssSampler(): { readonly start: Rss; peak(): Rss; stop(): void } {
  const start = rss();
  let peak = start;
  const sample = () => {
    const now = rss();
    peak = { total: Math.max(peak.total, now.total), anon: Math.max(peak.anon, now.anon), file: Math.max(peak.file, now.file) };
  };
  const timer = setInterval(sample, 10);
  return {
    start,
    peak: () => {
      sample();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}

async function fill(store: { insertBatch(records: readonly LogRecord[]): Promise<unknown> }): Promise<void> {
  const now = Date.now();
  const spanMs = 60 * 86_400_000;
  for (let start = 0; start < ROWS; start += BATCH) {
    const records: LogRecord[] = [];
    for (let i = start; i < Math.min(ROWS, start + BATCH); i += 1) {
      const createdAt = now - spanMs + Math.floor((i / ROWS) * spanMs);
      records.push({
        id: `${createdAt.toString(36).padStart(10, '0')}-${i.toString(36).padStart(8, '0')}`,
        serverId: SERVER,
        createdAt,
        level: LEVELS[i % LEVELS.length]!,
        type: i % 7 === 0 ? 'Chat' : 'General',
        resource: `resource-${i % 13}`,
        message: i % 11 === 0 ? `player ${i % 977} said "hello, world"\nand left` : `player ${i % 977} did something number ${i}`,
        metadata: i % 3 === 0 ? { player: `p${i % 977}`, x: i % 100, tags: ['a', 'b'] } : null,
        logType: 'text',
        imageKey: null,
        thumbKey: null,
        expiresAt: createdAt + 365 * 86_400_000,
      });
    }
    await store.insertBatch(records);
  }
}

/** The floor: SELECT the export's rows and columns newest first, each row as one text line, to /dev/null. */
function plainSelect(file: string): { seconds: number; rows: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  const fd = openSync('/dev/null', 'w');
  try {
    const started = performance.now();
    const statement = db.prepare(
      'SELECT l.id, l.created_at, l.level, l.type, l.resource, l.message, l.metadata FROM logs l JOIN servers s ON s.key = l.server_key WHERE s.server_id = ? ORDER BY l.created_at DESC, l.id DESC',
    );
    let rows = 0;
    let chunk = '';
    for (const row of statement.iterate(SERVER)) {
      chunk += `${String(row['id'])},${String(row['created_at'])},${String(row['level'])},${String(row['type'])},${String(row['resource'])},${String(row['message'])},${String(row['metadata'] ?? '')}\n`;
      rows += 1;
      if (rows % 1000 === 0) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
    return { seconds: (performance.now() - started) / 1000, rows };
  } finally {
    closeSync(fd);
    db.close();
  }
}

export default async function exportBenchmark(): Promise<BenchRow[]> {
  const service = await buildTestService(createLogsService, { service: 'logs' });
  try {
    const filled = performance.now();
    await fill(service.deps.logStore);
    const fillSeconds = (performance.now() - filled) / 1000;
    await service.identity.server({ serverId: SERVER, ownerId: USER, tier: 'legend' });
    await waitFor(
      async () => (await service.injectAs({ id: USER }, { method: 'GET', url: `/exports/status?serverId=${SERVER}` })).statusCode === 200,
      'the logs read model to know the owner',
      10_000,
    );
    const address = await service.app.listen({ port: 0, host: '127.0.0.1' });

    globalThis.gc?.();
    const memory = rssSampler();
    const started = performance.now();
    const response = await fetch(`${address}/exports/logs?serverId=${SERVER}`, { headers: { authorization: `Bearer ${service.tokenFor({ id: USER })}` } });
    if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
    let firstByteMs = -1;
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of response.body) {
      if (firstByteMs < 0) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 13) newlines += 1;
    }
    const exportSeconds = (performance.now() - started) / 1000;
    const exportPeak = memory.peak();
    memory.stop();
    // CRLF ends every record; messages hold bare LFs only. The header row is one of them.
    const exportedRows = newlines - 1;
    if (exportedRows !== ROWS) throw new Error(`the export held ${exportedRows} rows, not ${ROWS}`);

    const selectMemory = rssSampler();
    const select = plainSelect(join(service.deps.root, 'logs', 'logs.db'));
    const selectPeak = selectMemory.peak();
    selectMemory.stop();
    const growth = (peak: Rss, start: Rss) => ({ total: (peak.total - start.total) / MB, anon: (peak.anon - start.anon) / MB, file: (peak.file - start.file) / MB });
    const exported = growth(exportPeak, memory.start);
    const selected = growth(selectPeak, selectMemory.start);
    const mb = (n: number) => `${Math.round(n)} MB`;

    const exportRate = Math.round(ROWS / exportSeconds);
    const selectRate = Math.round(select.rows / select.seconds);
    const note = `${ROWS.toLocaleString('en-US')} rows, ${(bytes / MB).toFixed(0)} MB of CSV over HTTP (fill ${fillSeconds.toFixed(1)} s)`;
    return [
      { name: 'CSV export (GET /exports/logs)', value: exportRate, unit: 'rows/s', baseline: `plain SQLite SELECT to /dev/null ${selectRate.toLocaleString('en-US')} rows/s`, note },
      { name: 'CSV export: first byte', value: Math.round(firstByteMs), unit: 'ms', target: '< 1000 ms', pass: firstByteMs < 1000 },
      {
        name: 'CSV export: RSS growth, anonymous (peak - start)',
        value: Math.round(exported.anon),
        unit: 'MB',
        target: '< 100 MB',
        pass: exported.anon < 100,
        baseline: `plain SELECT ${mb(selected.anon)}`,
        note: 'what the process holds: JS heap, buffers, SQLite page cache',
      },
      {
        name: 'CSV export: RSS growth, total (peak - start)',
        value: Math.round(exported.total),
        unit: 'MB',
        baseline: `plain SELECT ${mb(selected.total)}`,
        note: `RSS at start ${mb(memory.start.total / MB)}; includes ${mb(exported.file)} of file pages of the memory-mapped log database (PRAGMA mmap_size: the OS page cache, dropped under pressure); the plain SELECT reads without mmap`,
      },
    ];
  } finally {
    await service.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await exportBenchmark()) console.log(JSON.stringify(row));
}
