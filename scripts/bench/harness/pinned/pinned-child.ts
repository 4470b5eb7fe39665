/**
 * Child processes of the pinned ingestion benchmark, each started on a chosen CPU with
 * `taskset` (util-linux) and driven over Node's IPC channel with request/answer pairs.
 *
 * Why: autocannon inside the process under test shares its event loop, so a ratio measured that way
 * swung from 19% to 80% with whatever else the machine did. Here the load generator runs alone on one
 * core and every server under test (and the baselines) on the other, in processes of their own; every
 * thread of a pinned process (libuv pool, V8's GC helpers, libvips) inherits the affinity.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface PinningPlan {
  /** CPU of the load generator (and of the orchestrating process), or null when not pinned. */
  readonly loadCpu: number | null;
  /** CPU of every server and baseline under test, or null when not pinned. */
  readonly serverCpu: number | null;
  /** One line saying how the run was pinned, printed beside the figures. */
  readonly note: string;
}

function tasksetWorks(): boolean {
  const probe = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

/**
 * Load generator on CPU 0, servers on CPU 1, unless BENCH_LOAD_CPU / BENCH_SERVER_CPU say otherwise.
 * BENCH_PIN=0, fewer than two CPUs or no working taskset: nothing is pinned, and the note says so.
 */
export function pinningPlan(): PinningPlan {
  const cpus = availableParallelism();
  if (process.env['BENCH_PIN'] === '0') return { loadCpu: null, serverCpu: null, note: 'not pinned (BENCH_PIN=0)' };
  if (cpus < 2) return { loadCpu: null, serverCpu: null, note: `not pinned: ${cpus} CPU` };
  if (!tasksetWorks()) return { loadCpu: null, serverCpu: null, note: 'not pinned: taskset (util-linux) unavailable' };
  const loadCpu = Number(process.env['BENCH_LOAD_CPU'] ?? 0);
  const serverCpu = Number(process.env['BENCH_SERVER_CPU'] ?? 1);
  return { loadCpu, serverCpu, note: `load generator on CPU ${loadCpu}, servers on CPU ${serverCpu} (taskset), ${cpus} CPUs` };
}

/** Moves the calling process (all its threads) onto `cpu`. */
export function pinSelf(cpu: number | null): void {
  if (cpu === null) return;
  spawnSync('taskset', ['-a', '-cp', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

interface Answer {
  readonly id: number;
  readonly ok: boolean;
  readonly value?: unknown;
  readonly error?: string;
}

export class PinnedChild {
  readonly name: string;
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #exited: string | null = null;
  readonly #ready: Promise<void>;

  private constructor(name: string, child: ChildProcess) {
    this.name = name;
    this.#child = child;
    let markReady: () => void = () => undefined;
    let failReady: (error: Error) => void = () => undefined;
    this.#ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    // Handled here so a child that dies while starting does not leave an unhandled rejection.
    this.#ready.catch(() => undefined);
    child.on('message', (raw) => {
      if ((raw as { ready?: boolean }).ready === true) return markReady();
      const answer = raw as Answer;
      const waiter = this.#pending.get(answer.id);
      if (waiter === undefined) return;
      this.#pending.delete(answer.id);
      if (answer.ok) waiter.resolve(answer.value);
      else waiter.reject(new Error(`${name}: ${answer.error ?? 'failed'}`));
    });
    child.once('exit', (code, signal) => {
      this.#exited = `exited with ${code ?? signal}`;
      failReady(new Error(`${name} ${this.#exited} before it was ready`));
      for (const waiter of this.#pending.values()) waiter.reject(new Error(`${name} ${this.#exited}`));
      this.#pending.clear();
    });
  }

  /** Starts `script` (a file next to this one) with Node (this one unless `options.node`), on `cpu` when given. */
  static start(
    name: string,
    script: string,
    cpu: number | null,
    options: { execArgv?: readonly string[]; env?: Record<string, string>; node?: string | undefined } = {},
  ): PinnedChild {
    const file = fileURLToPath(new URL(script, import.meta.url));
    const node = [options.node ?? process.execPath, ...(options.execArgv ?? []), file];
    const [command, ...args] = cpu === null ? node : ['taskset', '-c', String(cpu), ...node];
    const child = spawn(command!, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...options.env },
    });
    return new PinnedChild(name, child);
  }

  async call<T>(command: string, payload: unknown = null): Promise<T> {
    await this.#ready;
    if (this.#exited !== null) throw new Error(`${this.name} ${this.#exited}`);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#child.send({ id, command, payload });
    });
  }

  async close(): Promise<void> {
    if (this.#exited !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    // From the stop request on, not after its answer: a child whose stop never answers (an all-in-one
    // still closing its store under a backlog) was left running, busy, after the bench had ended.
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 30_000);
    await this.call('stop').catch(() => undefined);
    await exited;
    clearTimeout(timer);
  }
}
