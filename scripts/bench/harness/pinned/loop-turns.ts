/**
 * Records the event loop's long turns: a 1 ms interval timer runs once per loop iteration at most (the
 * timers phase), so a gap between two of its callbacks longer than the period is one iteration that ran
 * that long (every ready socket's callbacks, the immediates and the microtasks they queued). Iterations at
 * least `minMs` long are kept with their start and end on the monotonic clock V8's CPU profiler stamps its
 * samples with, so profile-stages.ts can say what ran in them. An idle loop still blocks in poll between
 * the timer's firings, so recording costs ~1,000 callbacks a second and changes little else.
 */
import { threadTimes } from '../thread-cpu.ts';
import type { ThreadCpu } from '../thread-cpu.ts';

/** One long iteration, in microseconds of the monotonic clock (a .cpuprofile's startTime is on it too). */
export interface LongTurn {
  readonly startUs: number;
  readonly endUs: number;
  /**
   * CPU time the loop's thread ran during it (user + system). Less than the wall time: the thread waited
   * (a lock, a page fault, a synchronous read) or the core ran another thread (V8's GC helpers, the
   * adapters' workers, anything else on that core) in between; a CPU profile counts that time as the stack
   * it interrupted.
   */
  readonly cpuUs: number;
  /** CPU time every thread of the process ran during it: above cpuUs by what the other threads took. */
  readonly processCpuUs: number;
}

export interface LoopTurns {
  /** Timer callbacks while recording: one per loop iteration while iterations last over 1 ms, fewer when shorter. */
  readonly iterations: number;
  readonly long: readonly LongTurn[];
  /** Every thread's CPU over the whole recording, largest first (threads that started or ended meanwhile counted from when seen). */
  readonly threads: readonly ThreadCpu[];
}

const PERIOD_MS = 1;

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);
const threadCpuUs = (): number => {
  const used = process.threadCpuUsage();
  return used.user + used.system;
};
const processCpuUs = (): number => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

export class LongTurnRecorder {
  readonly #minUs: number;
  #timer: NodeJS.Timeout | null = null;
  #last = 0;
  #lastCpu = 0;
  #lastProcessCpu = 0;
  #threadsAtStart = new Map<string, ThreadCpu>();
  #iterations = 0;
  readonly #long: LongTurn[] = [];

  constructor(minMs: number) {
    this.#minUs = minMs * 1000;
  }

  start(): void {
    this.#last = nowUs();
    this.#lastCpu = threadCpuUs();
    this.#lastProcessCpu = processCpuUs();
    this.#threadsAtStart = threadTimes();
    this.#timer = setInterval(() => this.#tick(), PERIOD_MS);
  }

  #tick(): void {
    const now = nowUs();
    const cpu = threadCpuUs();
    const all = processCpuUs();
    this.#iterations += 1;
    if (now - this.#last >= this.#minUs) {
      this.#long.push({ startUs: this.#last, endUs: now, cpuUs: cpu - this.#lastCpu, processCpuUs: all - this.#lastProcessCpu });
    }
    this.#last = now;
    this.#lastCpu = cpu;
    this.#lastProcessCpu = all;
  }

  stop(): LoopTurns {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    const threads = [...threadTimes()]
      .map(([tid, now]) => ({ name: now.name, cpuUs: now.cpuUs - (this.#threadsAtStart.get(tid)?.cpuUs ?? 0) }))
      .filter((thread) => thread.cpuUs > 0)
      .sort((a, b) => b.cpuUs - a.cpuUs);
    return { iterations: this.#iterations, long: [...this.#long], threads };
  }
}

/** What a recording amounts to, for a line of a bench's output. */
export interface TurnsSummary {
  readonly long: number;
  readonly wallMs: number;
  /** The loop's thread's CPU during the long turns. */
  readonly loopCpuMs: number;
  /** Every thread's CPU during the long turns. */
  readonly processCpuMs: number;
  readonly threads: readonly ThreadCpu[];
}

export function summariseTurns(recorded: LoopTurns): TurnsSummary {
  const sum = (pick: (turn: LongTurn) => number): number => recorded.long.reduce((total, turn) => total + pick(turn), 0) / 1000;
  return {
    long: recorded.long.length,
    wallMs: sum((t) => t.endUs - t.startUs),
    loopCpuMs: sum((t) => t.cpuUs),
    processCpuMs: sum((t) => t.processCpuUs),
    threads: recorded.threads,
  };
}
