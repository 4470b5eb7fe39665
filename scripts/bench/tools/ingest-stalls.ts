/**
 * The event loop's long turns while a block store ingests, and what ran in each: STALLS_ROWS logs (default
 * 1,000,000) of one server go into a BlockLogStore in this process as storage.bench.ts sends them (batches of 100,
 * a turn of the loop after each), then the sealer catches up and the store closes. Every SQLite call of this
 * thread (statements and exec, the WAL checkpoints run here included) is timed; GC pauses come from a
 * PerformanceObserver. A turn of at least STALLS_MIN_MS (200) is printed with its wall, this thread's CPU time,
 * the time it waited for a core (the kernel's run-queue delay of this thread, /proc/thread-self/schedstat) and
 * what is left (off the CPU of its own accord: SQLite's busy handler sleeping, I/O), the SQLite calls of at least
 * 5 ms inside it (with their caller; an exec's own CPU and run-queue wait too) and the GC pauses.
 * Knobs: STALLS_ROWS, STALLS_DATA (`bench`: the search bench's generator, default; `fivem`), STALLS_MIN_MS.
 * Run under the bench lock: `flock /work/helpers/bench.lock node scripts/bench/tools/ingest-stalls.ts`.
 */
import { existsSync, openSync, readSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import type { LogRecord } from '@skald/ports';
import { BlockLogStore } from '../../../libs/adapters/src/log-store/block-log-store.ts';
import { makeBatch } from '../benchmarks/search.bench.ts';
import { threadTimes } from '../harness/thread-cpu.ts';
import type { ThreadCpu } from '../harness/thread-cpu.ts';
import { fivemBatch } from '../harness/fivem-logs.ts';
import { machineLoad } from '../harness/samples.ts';

const ROWS = Number(process.env['STALLS_ROWS'] ?? 1_000_000);
const DATA = process.env['STALLS_DATA'] === 'fivem' ? 'fivem' : 'bench';
const MIN_MS = Number(process.env['STALLS_MIN_MS'] ?? 200);
/** SQLite calls at least this long are kept. */
const SLOW_CALL_MS = 5;
const GENERATED = 1000;
const BATCH = 100;
const T0 = Date.UTC(2025, 0, 1);

interface Sched {
  readonly cpuMs: number;
  /** Waiting for a core (runnable, not running). */
  readonly runqMs: number;
}

interface Call {
  readonly start: number;
  readonly end: number;
  /** An exec's own CPU and run-queue wait (statements: not measured, too many). */
  readonly sched: Sched | null;
  readonly what: string;
  readonly caller: string;
}

interface Turn {
  readonly start: number;
  readonly end: number;
  readonly sched: Sched;
}

const calls: Call[] = [];
const gcs: { start: number; end: number; kind: number }[] = [];
const schedFd = openSync('/proc/thread-self/schedstat', 'r');
const schedBuffer = Buffer.alloc(128);
/** This thread's time on a CPU and waiting on a run queue so far (the kernel's schedstat, in ns). */
function sched(): Sched {
  const n = readSync(schedFd, schedBuffer, 0, schedBuffer.length, 0);
  const [cpu, runq] = schedBuffer.toString('latin1', 0, n).split(' ');
  return { cpuMs: Number(cpu) / 1e6, runqMs: Number(runq) / 1e6 };
}
const since = (a: Sched): Sched => {
  const b = sched();
  return { cpuMs: b.cpuMs - a.cpuMs, runqMs: b.runqMs - a.runqMs };
};
const describeSched = (wallMs: number, s: Sched): string =>
  `${wallMs.toFixed(1)} ms wall: CPU ${s.cpuMs.toFixed(1)}, waiting for a core ${s.runqMs.toFixed(1)}, off the CPU ${(wallMs - s.cpuMs - s.runqMs).toFixed(1)}`;

/** The first frames outside this file and node:sqlite's own: who made the call. */
function callerOf(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(3);
  return frames
    .filter((frame) => frame.includes('libs/adapters'))
    .slice(0, 4)
    .map((frame) => frame.trim().replace(/^at /, '').replace(/\(.*libs\/adapters\/src\//, '(').replace(/file:\/\/.*libs\/adapters\/src\//, ''))
    .join(' < ');
}

function timed<A extends unknown[], R>(label: (self: unknown, args: A) => string, inner: (this: unknown, ...args: A) => R, withSched: boolean): (this: unknown, ...args: A) => R {
  return function (this: unknown, ...args: A): R {
    const start = performance.now();
    const before = withSched ? sched() : null;
    try {
      return inner.apply(this, args);
    } finally {
      const end = performance.now();
      if (end - start >= SLOW_CALL_MS) calls.push({ start, end, sched: before === null ? null : since(before), what: label(this, args), caller: callerOf() });
    }
  };
}

const sqlOf = (self: unknown): string => (self instanceof StatementSync ? self.sourceSQL : '?').replace(/\s+/g, ' ').slice(0, 90);
for (const method of ['run', 'get', 'all'] as const) {
  const inner = StatementSync.prototype[method] as (this: unknown, ...args: unknown[]) => unknown;
  (StatementSync.prototype as unknown as Record<string, unknown>)[method] = timed((self) => `${method} ${sqlOf(self)}`, inner, false);
}
const innerExec = DatabaseSync.prototype.exec as (this: unknown, sql: string) => void;
DatabaseSync.prototype.exec = timed((_self, args: [string]) => `exec ${args[0].slice(0, 90)}`, innerExec, true);

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const detail = (entry as { detail?: { kind?: number } }).detail;
    gcs.push({ start: entry.startTime, end: entry.startTime + entry.duration, kind: detail?.kind ?? 0 });
  }
}).observe({ entryTypes: ['gc'] });

/** A 1 ms timer runs at most once per loop iteration: a gap between two of its callbacks is one long iteration. */
const turns: Turn[] = [];
let last = performance.now();
let lastSched = sched();
const ticker = setInterval(() => {
  const now = performance.now();
  const at = sched();
  if (now - last >= MIN_MS) turns.push({ start: last, end: now, sched: { cpuMs: at.cpuMs - lastSched.cpuMs, runqMs: at.runqMs - lastSched.runqMs } });
  last = now;
  lastSched = at;
}, 1);

const describeCall = (call: Call): string =>
  `${call.sched === null ? `${(call.end - call.start).toFixed(1)} ms wall` : describeSched(call.end - call.start, call.sched)}: ${call.what} <- ${call.caller}`;
/** Every thread's CPU, looked at each second (a seal worker retired after an idle minute keeps its last figure). */
const threads = new Map<string, ThreadCpu>();
const threadLook = setInterval(() => {
  for (const [tid, thread] of threadTimes()) threads.set(tid, thread);
}, 1000);
function cpuByThread(): string {
  const byName = new Map<string, number>();
  for (const { name, cpuUs } of threads.values()) byName.set(name, (byName.get(name) ?? 0) + cpuUs);
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => `${name} ${(us / 1e6).toFixed(1)} s`)
    .join(', ');
}
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor (scavenge)',
  [constants.NODE_PERFORMANCE_GC_MINOR_MARK_SWEEP]: 'minor mark-sweep',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major (mark-compact)',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const mib = (bytes: number): string => (bytes / 1048576).toFixed(0);
/** The heap now: what a major collection has to mark. */
function heapNote(): string {
  const m = process.memoryUsage();
  return `heap used ${mib(m.heapUsed)} of ${mib(m.heapTotal)} MiB, external ${mib(m.external)} MiB, RSS ${mib(m.rss)} MiB`;
}
const batchOf = (start: number): LogRecord[] => (DATA === 'fivem' ? fivemBatch('bench-server', start, GENERATED, ROWS, T0) : makeBatch(start, ROWS, T0));

const dir = await mkdtemp(join(tmpdir(), 'skald-ingest-stalls-'));
const file = join(dir, 'blocks.db');
const sizeOf = (path: string): number => (existsSync(path) ? statSync(path).size : 0);
try {
  const store = new BlockLogStore(file);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let maxWal = 0;
  let generating = 0;
  const started = performance.now();
  for (let start = 0; start < ROWS; start += GENERATED) {
    if (start % 500_000 === 0 && start > 0) console.log(`at ${start} logs (${(performance.now() / 1000).toFixed(0)} s): ${heapNote()}`);
    const t = performance.now();
    const logs = batchOf(start);
    generating += performance.now() - t;
    for (let i = 0; i < logs.length; i += BATCH) {
      await store.insertBatch(logs.slice(i, i + BATCH));
      maxWal = Math.max(maxWal, sizeOf(`${file}-wal`));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const ingestMs = performance.now() - started - generating;
  delay.disable();
  console.log(`ingested (${(performance.now() / 1000).toFixed(0)} s): ${heapNote()}`);
  await store.sealDue();
  await store.close();
  clearInterval(ticker);
  clearInterval(threadLook);
  const ms = (ns: number): string => (ns / 1e6).toFixed(1);
  console.log(
    `${ROWS} ${DATA} logs: ${Math.round(ROWS / (ingestMs / 1000))} logs/s, event-loop delay p50 ${ms(delay.percentile(50))} / p99 ${ms(delay.percentile(99))} / max ${ms(delay.max)} ms, largest WAL ${(maxWal / 1048576).toFixed(1)} MiB, ${(sizeOf(file) / ROWS).toFixed(1)} B/log; ${machineLoad()}`,
  );
  console.log(`CPU by thread over the run: ${cpuByThread()}`);
  const main = sched();
  console.log(`this thread over the run: CPU ${(main.cpuMs / 1000).toFixed(1)} s, waiting for a core ${(main.runqMs / 1000).toFixed(1)} s`);
  const bySize = (ms: number): number => turns.filter((t) => t.end - t.start >= ms).length;
  console.log(`turns of ${MIN_MS} ms or more: ${turns.length} (0.5 s or more: ${bySize(500)}, 1 s or more: ${bySize(1000)})`);
  for (const turn of turns) {
    console.log(`- turn at ${(turn.start / 1000).toFixed(1)} s: ${describeSched(turn.end - turn.start, turn.sched)}`);
    for (const call of calls.filter((c) => c.end > turn.start && c.start < turn.end)) {
      console.log(`    ${describeCall(call)}`);
    }
    for (const gc of gcs.filter((g) => g.end > turn.start && g.start < turn.end)) {
      console.log(`    GC ${GC_KINDS[gc.kind] ?? gc.kind} ${(gc.end - gc.start).toFixed(1)} ms`);
    }
  }
  const total = (list: readonly { start: number; end: number }[]): string => list.reduce((sum, c) => sum + c.end - c.start, 0).toFixed(0);
  console.log(`SQLite calls of ${SLOW_CALL_MS} ms or more: ${calls.length}, ${total(calls)} ms; GC pauses: ${gcs.length}, ${total(gcs)} ms, longest ${Math.max(0, ...gcs.map((g) => g.end - g.start)).toFixed(1)} ms`);
  const offCpu = turns.reduce((sum, t) => sum + t.end - t.start - t.sched.cpuMs - t.sched.runqMs, 0);
  const runq = turns.reduce((sum, t) => sum + t.sched.runqMs, 0);
  const cpu = turns.reduce((sum, t) => sum + t.sched.cpuMs, 0);
  console.log(`long turns together: ${total(turns)} ms wall, CPU ${cpu.toFixed(0)}, waiting for a core ${runq.toFixed(0)}, off the CPU ${offCpu.toFixed(0)}`);
  const slowest = [...calls].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 10);
  console.log('slowest SQLite calls:');
  for (const call of slowest) console.log(`    at ${(call.start / 1000).toFixed(1)} s: ${describeCall(call)}`);
} finally {
  clearInterval(ticker);
  clearInterval(threadLook);
  await rm(dir, { recursive: true, force: true });
}
