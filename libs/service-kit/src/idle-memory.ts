/**
 * Gives memory back when the process goes idle (idle RSS of the all-in-one).
 *
 * V8 sizes the young generation for the load it saw: a few batches of 1000 logs grow it to its maximum
 * (64 MiB committed, both semi-spaces touched), and it stays that size while the process sits idle: in
 * the pinned bench nothing was returned 15 s after the last request, because V8's own memory reducer
 * does not shrink the young generation of a process that makes no further allocations. A smaller young
 * generation for good (`--max-semi-space-size=2`) made the batch path ~22% dearer (docs/PERFORMANCE.md).
 *
 * So the young generation keeps its size under load and is returned once the process is idle: when its
 * event loop has been almost idle for `idleChecks` checks in a row and V8's heap has room it does not use, one
 * memory-reducing full GC runs (V8's "last resort" collection: shrinks the young generation and
 * releases the freed pages; the compiled code is kept). It is a pause of ~0.1-0.3 s, taken only when
 * there is nothing to pause, and it is not free afterwards: the young generation regrows from 1 MiB
 * under the next load, which in A/B runs made the next seconds of single-log load dearer (up to ~15%
 * CPU per request; trimming before every burst, ~45%). Hence at most once a minute, and only after the
 * process has done some work since the last one (docs/PERFORMANCE.md).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleMemoryTrimOptions {
  /** How often the event loop's busy time is sampled. */
  readonly checkEveryMs: number;
  /** A check is idle when the event loop was busy for less than this share of the interval. */
  readonly idleBusyShare: number;
  /** This many idle checks in a row make the process idle. */
  readonly idleChecks: number;
  /** Heap committed but unused below this is not worth a full GC. */
  readonly minSlackBytes: number;
  /** At most one trim per this long: each costs the next burst of load some warm-up (see below). */
  readonly minIntervalMs: number;
  /**
   * And only after the event loop has worked this long since the last trim (or since start): no trim in
   * the quiet between start-up and the first traffic, none for a process that did nothing since.
   */
  readonly minBusyMs: number;
}

export const IDLE_MEMORY_TRIM_DEFAULTS: IdleMemoryTrimOptions = {
  checkEveryMs: 500,
  idleBusyShare: 0.05,
  idleChecks: 2,
  minSlackBytes: 16 * 1024 * 1024,
  minIntervalMs: 60_000,
  minBusyMs: 100,
};

/** What a trim decision reads, and the collection it runs (real ones in startIdleMemoryTrim; fakes in tests). */
export interface IdleMemoryProbes {
  /** Time the event loop has spent busy so far, in microseconds. */
  readonly busyMicros: () => number;
  /** Committed and used bytes of V8's heap. */
  readonly heap: () => { readonly total: number; readonly used: number };
  readonly now: () => number;
  readonly collect: () => void;
}

/** The decision, one check at a time: feed it a check every `checkEveryMs`. */
export class IdleMemoryTrim {
  readonly #options: IdleMemoryTrimOptions;
  readonly #probes: IdleMemoryProbes;
  #lastBusy: number;
  #idleInARow = 0;
  #lastTrim = Number.NEGATIVE_INFINITY;
  #busySinceTrimUs = 0;

  constructor(probes: IdleMemoryProbes, options: IdleMemoryTrimOptions = IDLE_MEMORY_TRIM_DEFAULTS) {
    this.#options = options;
    this.#probes = probes;
    this.#lastBusy = probes.busyMicros();
  }

  /** One check; answers whether it collected. */
  check(): boolean {
    const busy = this.#probes.busyMicros();
    const used = busy - this.#lastBusy;
    this.#lastBusy = busy;
    this.#busySinceTrimUs += used;
    const idle = used < this.#options.checkEveryMs * 1000 * this.#options.idleBusyShare;
    this.#idleInARow = idle ? this.#idleInARow + 1 : 0;
    if (this.#idleInARow < this.#options.idleChecks) return false;
    const now = this.#probes.now();
    if (now - this.#lastTrim < this.#options.minIntervalMs || this.#busySinceTrimUs < this.#options.minBusyMs * 1000) return false;
    const heap = this.#probes.heap();
    if (heap.total - heap.used < this.#options.minSlackBytes) return false;
    this.#probes.collect();
    this.#lastTrim = now;
    this.#busySinceTrimUs = 0;
    // The collection's own time is not load: the next check starts from here.
    this.#lastBusy = this.#probes.busyMicros();
    this.#idleInARow = 0;
    return true;
  }
}

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let memoryReducingGc: GcFunction | null | undefined;

/**
 * V8's gc() with the memory-reducing ("last resort") flavour, or null where it cannot be had. Taken from
 * a fresh vm context with --expose-gc on for that moment only, so the application's global scope never
 * gets a `gc` function.
 */
export function memoryReducingCollector(): (() => void) | null {
  if (memoryReducingGc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      memoryReducingGc = typeof gc === 'function' ? (gc as GcFunction) : null;
    } catch {
      memoryReducingGc = null;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  const gc = memoryReducingGc;
  if (gc === null) return null;
  return () => {
    // A last-resort collection also throws away the bytecode and compiled code of every function not
    // running, which the next request would pay for again (JIT warm-up); only the memory is wanted here.
    setFlagsFromString('--no-flush-bytecode');
    setFlagsFromString('--no-flush-baseline-code');
    try {
      gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    } finally {
      setFlagsFromString('--flush-bytecode');
      setFlagsFromString('--flush-baseline-code');
    }
  };
}

/** Starts the checks on an unref'd timer (never keeps the process alive); `stop()` ends them. */
export function startIdleMemoryTrim(options: IdleMemoryTrimOptions = IDLE_MEMORY_TRIM_DEFAULTS): { stop(): void } {
  const collect = memoryReducingCollector();
  if (collect === null) return { stop: () => undefined };
  const trim = new IdleMemoryTrim(
    {
      // libuv's own accounting of the loop: no system call, unlike process.cpuUsage().
      busyMicros: () => performance.eventLoopUtilization().active * 1000,
      heap: () => {
        const stats = getHeapStatistics();
        return { total: stats.total_heap_size, used: stats.used_heap_size };
      },
      now: () => performance.now(),
      collect,
    },
    options,
  );
  const timer = setInterval(() => trim.check(), options.checkEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
