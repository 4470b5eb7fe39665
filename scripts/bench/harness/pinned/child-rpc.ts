/**
 * The child side of PinnedChild: answers `{ id, command, payload }` requests from the parent with
 * `{ id, ok, value | error }`. `stop` runs the child's own stop handler (if any), answers, and exits.
 * Every child also answers `cpu`, `loop-delay-start` / `loop-delay-stop`, `profile-start` / `profile-stop`,
 * `alloc-start` / `alloc-stop` and `turns-start` / `turns-stop` (BUILT_IN).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ELDHistogram } from 'node:perf_hooks';
import { LongTurnRecorder, summariseTurns } from './loop-turns.ts';
import type { TurnsSummary } from './loop-turns.ts';

export type Handlers = Readonly<Record<string, (payload: never) => unknown>>;

interface Request {
  readonly id: number;
  readonly command: string;
  readonly payload: unknown;
}

/**
 * Commands every child answers. `cpu`: CPU time this process has used (user + system, all threads), in
 * microseconds. CPU per request is what a server under test costs whatever else the machine runs: a
 * process that is descheduled serves fewer requests per second but spends the same CPU on each.
 */
let profiler: Session | null = null;
let allocations: Session | null = null;
let loopDelay: ELDHistogram | null = null;
let turns: LongTurnRecorder | null = null;
/** Loop iterations at least this long are recorded by turns-start (twice the loop-delay timer's period). */
const LONG_TURN_MS = 20;

/** How late the event loop ran a 10 ms timer while it was watched, in milliseconds. */
export interface LoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

const BUILT_IN: Handlers = {
  cpu: () => {
    const used = process.cpuUsage();
    return used.user + used.system;
  },
  // Event-loop delay over one phase of the load: what a request may wait behind whatever else the loop runs.
  'loop-delay-start'() {
    loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
  },
  'loop-delay-stop'(): LoopDelay {
    if (loopDelay === null) throw new Error('no loop delay watch running');
    loopDelay.disable();
    const ms = (ns: number): number => ns / 1e6;
    const result = { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) };
    loopDelay = null;
    return result;
  },
  // The loop's long iterations during a profiled phase, to be read against the profile (profile-stages.ts --turns).
  'turns-start'() {
    turns = new LongTurnRecorder(LONG_TURN_MS);
    turns.start();
  },
  /** Written to `file` when one is given (profile-stages.ts --turns reads it); answers the summary. */
  async 'turns-stop'(file: string | null): Promise<TurnsSummary> {
    if (turns === null) throw new Error('no turn recorder running');
    const recorded = turns.stop();
    turns = null;
    if (file) await writeFile(file, JSON.stringify(recorded));
    return summariseTurns(recorded);
  },
  // V8's sampling heap profile of one phase, every allocation counted whether it lived or not (what the
  // young generation's collections work through), written as a .heapprofile (alloc-summary.ts reads it).
  async 'alloc-start'() {
    allocations = connectedSession();
    await allocations.post('HeapProfiler.enable');
    await allocations.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  },
  async 'alloc-stop'(file: string) {
    const written = await writeRecording(allocations, 'allocation profile', async (s) => (await s.post('HeapProfiler.stopSampling')).profile, file);
    allocations = null;
    return written;
  },
  // V8 CPU profile of this process (the same profiler as --cpu-prof), written as a .cpuprofile for one
  // phase of the load (BENCH_CPU_PROF).
  async 'profile-start'() {
    profiler = connectedSession();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.post('Profiler.start');
  },
  async 'profile-stop'(file: string) {
    const written = await writeRecording(profiler, 'profile', async (s) => (await s.post('Profiler.stop')).profile, file);
    profiler = null;
    return written;
  },
};

function connectedSession(): Session {
  const session = new Session();
  session.connect();
  return session;
}

/** Ends a recording of an inspector session (`stop` answers what it recorded) and writes it to `file` as JSON. */
async function writeRecording(session: Session | null, what: string, stop: (session: Session) => Promise<unknown>, file: string): Promise<string> {
  if (session === null) throw new Error(`no ${what} running`);
  const recorded = await stop(session);
  session.disconnect();
  await writeFile(file, JSON.stringify(recorded));
  return file;
}

export function serve(handlers: Handlers): void {
  if (process.send === undefined) throw new Error('run this file through PinnedChild (it needs the IPC channel)');
  const send = process.send.bind(process);
  process.on('message', (raw) => {
    const request = raw as Request;
    const handler = (handlers[request.command] ?? BUILT_IN[request.command]) as ((payload: unknown) => unknown) | undefined;
    void (async () => {
      try {
        if (handler === undefined && request.command !== 'stop') throw new Error(`unknown command ${request.command}`);
        const value = handler === undefined ? null : await handler(request.payload);
        send({ id: request.id, ok: true, value: value ?? null });
      } catch (error) {
        send({ id: request.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
      if (request.command === 'stop') process.disconnect?.();
    })();
  });
  // The parent sends nothing before this: a request sent while the child was still starting could
  // arrive before the listener above existed.
  send({ ready: true });
}

/** Resident set size of this process now, in bytes. */
export function rssBytes(): number {
  return process.memoryUsage.rss();
}

/** RSS split as the kernel counts it: anonymous memory (heaps, buffers) and file pages mapped (code, mmap). */
export interface RssSplit {
  readonly rss: number;
  /** Anonymous: the JS heap, malloc, SQLite's page cache. */
  readonly anon: number;
  /** File-backed: the binary and libraries, and memory-mapped database files (SQLite's mmap_size). */
  readonly file: number;
}

export function rssSplit(): RssSplit {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return { rss: rssBytes(), anon: Number.NaN, file: Number.NaN };
  }
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile') + kib('RssShmem') };
}

/** Samples RSS every 25 ms between start() and stop(); stop() answers the highest sample, split. */
export class PeakRss {
  #peak: RssSplit = { rss: 0, anon: 0, file: 0 };
  #timer: NodeJS.Timeout | null = null;

  #sample(): void {
    const now = rssSplit();
    if (now.rss > this.#peak.rss) this.#peak = now;
  }

  start(): void {
    this.#peak = rssSplit();
    this.#timer = setInterval(() => this.#sample(), 25);
  }

  stop(): RssSplit {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#sample();
    return this.#peak;
  }
}
