/**
 * WAL checkpoints off the event loop. A checkpoint copies the pages the WAL holds into the database file; left
 * to SQLite (wal_autocheckpoint), the connection whose commit crosses the threshold runs it inside that commit,
 * and node:sqlite is synchronous: measured on the log store's 10,000-page (160 MiB) WAL, an insert of 45 logs
 * then took 295-357 ms instead of 0.4, and every request of the all-in-one waited that long, about every 20 s
 * under single-log load (docs/DECISIONS.md, "Performance").
 *
 * Instead an owner turns wal_autocheckpoint off on its connection, registers its file here and says when it
 * committed (`wrote`). About once a second, each file written since the last look is checkpointed PASSIVE (never
 * waits for the owner's writes, never blocks them), at once when a commit finds its WAL past the bound of
 * wal-bound.ts (whose TRUNCATE checkpoint then resets it), so the WAL stays short:
 * - on the owner's own connection while writes are light: a checkpoint costs ~32 µs per WAL frame here, so a
 *   few commits a second cost well under a millisecond;
 * - by a worker thread on a connection of its own once they are heavy: HEAVY_TICKS checkpoints in a row that
 *   took over HEAVY_CHECKPOINT_MS on the owner's connection, or one over VERY_HEAVY_CHECKPOINT_MS (under
 *   single-log load the log store's checkpoint of one second of WAL took ~27 ms), which the event loop then no
 *   longer waits for.
 * A file registered `gated` (the block log store, whose single writer commits back to back under ingest) takes
 * part in its resets: past WAL_RESET_BYTES the worker resets its WAL while the owner holds its writes back
 * (`ready()`, awaited off the event loop), and below that its checkpoints stay PASSIVE. A reset tried beside such a
 * writer (the `bounded` mode) waits for the write lock between two commits, then for the readers, while the
 * writer's next BEGIN waits in its busy handler on the event loop: the WAL reached 89-94 MiB that way, and the event
 * loop stalled. Held back, the writer lets the reset take the lock at once; it only waits for the readers.
 * A worker thread costs ~15-18 MiB of RSS that the process keeps even after it ends (measured), so it starts only
 * under sustained heavy writes, never for the short bursts of a mostly idle process (idle memory); it
 * ends after a minute without work, and the files go back to their owners' connections. If it fails, they stay
 * there (warned once).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { BACKGROUND_THREADS } from '../background-threads.ts';
import type { CheckpointMode, CheckpointReply, CheckpointRequest } from './wal-checkpoint-messages.ts';
import { WAL_BOUND_BYTES, WAL_RESET_BYTES } from './wal-bound.ts';

export interface WalCheckpointerOptions {
  /** How long after a write its file is checkpointed (the files written meanwhile go together). Default 1000 ms. */
  readonly intervalMs?: number;
  /** The worker thread ends after this long without a checkpoint to run. Default 60 s. */
  readonly idleWorkerMs?: number;
  readonly warn?: (message: string) => void;
  /** The worker's module (tests give one that fails). */
  readonly workerUrl?: URL;
  /** Tests: what counts as a heavy checkpoint and how many in a row start the worker, or one alone. */
  readonly heavyCheckpointMs?: number;
  readonly heavyTicks?: number;
  readonly veryHeavyCheckpointMs?: number;
  /** Tests: the WAL size past which a commit brings the next checkpoint forward (default wal-bound.ts's bound). */
  readonly walBoundBytes?: number;
  /** Tests: the WAL size past which a gated file's writes wait for a reset (default WAL_RESET_BYTES). */
  readonly walResetBytes?: number;
}

export interface WalRegistrationOptions {
  /**
   * The owner awaits `ready()` before its writes: past WAL_RESET_BYTES they wait for the worker's reset instead of
   * meeting it in SQLite's busy handler, and below that the file's checkpoints stay PASSIVE.
   */
  readonly gated?: boolean;
}

/** A registered file: its owner says when it committed, and closes this before its own connection. */
export interface WalFile {
  wrote(): void;
  /**
   * A gated file's writes wait for this when it is not null: a reset of its WAL under way (the WAL past
   * WAL_RESET_BYTES). Null for a file registered without `gated`, and whenever writes may go on.
   */
  ready(): Promise<void> | null;
  /** Resolves once the worker's connection to the file is closed (at once when there is none). */
  close(): Promise<void>;
}

interface Registration {
  readonly file: string;
  /** The file's WAL (its size is looked at after commits, at most every WAL_LOOK_MS). */
  readonly wal: string;
  lookedAt: number;
  /** Runs a PASSIVE checkpoint on the owner's connection. */
  readonly checkpointHere: () => void;
  dirty: boolean;
  /** Heavy checkpoints in a row on the owner's connection. */
  heavyTicks: number;
  /** Checkpointed by the worker rather than on the owner's connection. */
  heavy: boolean;
  inFlight: boolean;
  closed: boolean;
  readonly gated: boolean;
  /** The reset the owner's writes wait for (a gated file), resolved when the worker answers it. */
  gate: { readonly promise: Promise<void>; readonly open: () => void } | null;
  /** A reset that failed (a reader held on) is tried again from then on (performance.now()), not at every commit. */
  resetAfter: number;
}

/** A request the worker has not answered yet: whose, and whether the owner's writes wait for it. */
interface Awaiting {
  readonly registration: Registration;
  readonly reset: boolean;
}

const DEFAULT_INTERVAL_MS = 1_000;
/** How often a file's WAL size is looked at after its commits. */
const WAL_LOOK_MS = 20;
const DEFAULT_IDLE_WORKER_MS = 60_000;
/** A checkpoint on the owner's connection that took longer than this is heavy. */
const HEAVY_CHECKPOINT_MS = 8;
/** Heavy checkpoints in a row after which the worker takes the file over (a short burst does not start it). */
const HEAVY_TICKS = 3;
/** A checkpoint on the owner's connection that took longer than this hands the file to the worker at once. */
const VERY_HEAVY_CHECKPOINT_MS = 40;
/**
 * After a reset that could not complete (a reader held its snapshot past the worker's wait, 1 s), the writes of a
 * gated file are held back again no sooner than this: a long reader slows ingest by at most half.
 */
const RESET_RETRY_MS = 1_000;

export class WalCheckpointer {
  readonly #intervalMs: number;
  readonly #idleWorkerMs: number;
  readonly #warn: (message: string) => void;
  readonly #workerUrl: URL;
  readonly #heavyCheckpointMs: number;
  readonly #heavyTicks: number;
  readonly #veryHeavyCheckpointMs: number;
  readonly #walBoundBytes: number;
  readonly #walResetBytes: number;
  readonly #registrations = new Set<Registration>();
  /** Per file, the registrations whose request the worker has not answered yet, in the order sent. */
  readonly #awaiting = new Map<string, Awaiting[]>();
  /** Per file, the closes waiting for the worker's `closed`. */
  readonly #closing = new Map<string, (() => void)[]>();
  #worker: Worker | null = null;
  #failed = false;
  #tick: NodeJS.Timeout | null = null;
  /** The delay #tick was set with (0: brought forward by a WAL past its bound). */
  #tickDelay = 0;
  #idle: NodeJS.Timeout | null = null;
  /** Files whose last checkpoint failed (warned once until one succeeds). */
  readonly #failing = new Set<string>();

  constructor(options: WalCheckpointerOptions = {}) {
    this.#intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.#idleWorkerMs = options.idleWorkerMs ?? DEFAULT_IDLE_WORKER_MS;
    this.#warn = options.warn ?? ((message) => process.emitWarning(message));
    this.#workerUrl = options.workerUrl ?? new URL('./wal-checkpoint-worker.ts', import.meta.url);
    this.#heavyCheckpointMs = options.heavyCheckpointMs ?? HEAVY_CHECKPOINT_MS;
    this.#heavyTicks = options.heavyTicks ?? HEAVY_TICKS;
    this.#veryHeavyCheckpointMs = options.veryHeavyCheckpointMs ?? VERY_HEAVY_CHECKPOINT_MS;
    this.#walBoundBytes = options.walBoundBytes ?? WAL_BOUND_BYTES;
    this.#walResetBytes = options.walResetBytes ?? WAL_RESET_BYTES;
  }

  /**
   * Registers a database file in WAL mode whose connection has wal_autocheckpoint = 0; `checkpointHere` runs
   * `PRAGMA wal_checkpoint(PASSIVE)` on that connection.
   */
  register(file: string, checkpointHere: () => void, options: WalRegistrationOptions = {}): WalFile {
    const registration: Registration = {
      file: resolve(file),
      wal: `${resolve(file)}-wal`,
      lookedAt: 0,
      checkpointHere,
      dirty: false,
      heavyTicks: 0,
      heavy: false,
      inFlight: false,
      closed: false,
      gated: options.gated ?? false,
      gate: null,
      resetAfter: 0,
    };
    this.#registrations.add(registration);
    return {
      wrote: () => this.#wrote(registration),
      ready: () => registration.gate?.promise ?? null,
      close: () => this.#close(registration),
    };
  }

  /** Whether a worker thread is running now (diagnostics and tests). */
  running(): boolean {
    return this.#worker !== null;
  }

  #wrote(registration: Registration): void {
    if (registration.closed) return;
    registration.dirty = true;
    // Fast writers fill a WAL far quicker than once a second (a log store's batches: ~100 MiB/s): past its
    // bound the checkpoint runs at once, so it resets the WAL (wal-bound.ts) before it grows much further.
    const size = this.#walSize(registration);
    if (registration.gated && size > this.#walResetBytes && this.#reset(registration)) return;
    const now = size > this.#walBoundBytes;
    if (this.#tick !== null && !(now && this.#tickDelay > 0)) return;
    if (this.#tick !== null) clearTimeout(this.#tick);
    this.#tickDelay = now ? 0 : this.#intervalMs;
    this.#tick = setTimeout(() => this.#checkpointDirty(), this.#tickDelay);
    this.#tick.unref();
  }

  /** The WAL file's size; looked at (a stat) at most every WAL_LOOK_MS per file, else (and without a WAL) 0. */
  #walSize(registration: Registration): number {
    const now = performance.now();
    if (now - registration.lookedAt < WAL_LOOK_MS) return 0;
    registration.lookedAt = now;
    try {
      return statSync(registration.wal).size;
    } catch {
      return 0;
    }
  }

  /**
   * Holds a gated file's writes back (`ready()`) and has the worker reset its WAL; they go on once it answers.
   * False when that is not done: a reset under way or tried too recently, or no worker to run it.
   */
  #reset(registration: Registration): boolean {
    if (registration.gate !== null || this.#failed || performance.now() < registration.resetAfter) return false;
    let open = (): void => undefined;
    const promise = new Promise<void>((resolve) => (open = resolve));
    registration.gate = { promise, open };
    // A WAL this large is heavy writing: the worker checkpoints the file from now on.
    registration.heavy = true;
    this.#send({ kind: 'checkpoint', file: registration.file, mode: 'reset' }, { registration, reset: true });
    // Writes wait for this answer: the process stays up for it, as for a close.
    this.#worker?.ref();
    return true;
  }

  #openGate(registration: Registration): void {
    const gate = registration.gate;
    if (gate === null) return;
    registration.gate = null;
    gate.open();
    this.#unrefWhenUnawaited();
  }

  /** The worker keeps the process up only while a close or a gated file's writes wait for its answer. */
  #unrefWhenUnawaited(): void {
    const closing = [...this.#closing.values()].some((queue) => queue.length > 0);
    const gated = [...this.#registrations].some((registration) => registration.gate !== null);
    if (!closing && !gated) this.#worker?.unref();
  }

  #checkpointDirty(): void {
    this.#tick = null;
    for (const registration of this.#registrations) {
      if (!registration.dirty || registration.inFlight) continue;
      registration.dirty = false;
      if (registration.heavy && !this.#failed) {
        registration.inFlight = true;
        // A gated file is never reset beside its writes: that reset would hold the write lock while it waits for
        // the readers, and the owner's next BEGIN would wait for it in SQLite's busy handler, on its event loop.
        const mode: CheckpointMode = registration.gated ? 'passive' : 'bounded';
        this.#send({ kind: 'checkpoint', file: registration.file, mode }, { registration, reset: false });
        continue;
      }
      const started = performance.now();
      try {
        registration.checkpointHere();
      } catch (error) {
        this.#warnFailure(registration.file, error instanceof Error ? error.message : String(error));
        continue;
      }
      this.#failing.delete(registration.file);
      const took = performance.now() - started;
      registration.heavyTicks = took > this.#heavyCheckpointMs ? registration.heavyTicks + 1 : 0;
      // Several times the bar at once is no short burst: no need to pay it again before handing the file over.
      if (registration.heavyTicks >= this.#heavyTicks || took > this.#veryHeavyCheckpointMs) registration.heavy = true;
    }
  }

  /** Nothing is lost by a failed checkpoint: the WAL keeps the pages until one succeeds (the next write tries again). */
  #warnFailure(file: string, reason: string): void {
    if (!this.#failing.has(file)) this.#warn(`WAL checkpoint of ${file} failed, will retry: ${reason}`);
    this.#failing.add(file);
  }

  #send(request: CheckpointRequest, awaiting: Awaiting | null): void {
    const worker = this.#ensureWorker();
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    if (awaiting !== null) {
      const queue = this.#awaiting.get(request.file);
      if (queue) queue.push(awaiting);
      else this.#awaiting.set(request.file, [awaiting]);
    }
    worker.postMessage(request);
  }

  #ensureWorker(): Worker {
    if (this.#worker !== null) return this.#worker;
    const worker = new Worker(this.#workerUrl, { name: BACKGROUND_THREADS.walCheckpoint });
    worker.on('message', (reply: CheckpointReply) => this.#onReply(reply));
    worker.on('error', (error) => this.#fail(`the WAL checkpoint worker failed: ${String(error)}`));
    worker.on('exit', (code) => {
      // A worker retired when idle is no longer this.#worker: its exit is not a failure.
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#fail(`the WAL checkpoint worker exited (code ${code})`);
    });
    // Never what keeps the process alive. After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #onReply(reply: CheckpointReply): void {
    if (reply.kind === 'closed') {
      const waiting = this.#closing.get(reply.file)?.shift();
      waiting?.();
      this.#unrefWhenUnawaited();
    } else {
      const awaited = this.#awaiting.get(reply.file)?.shift();
      const registration = awaited?.registration;
      if (awaited?.reset === true) {
        const reset = reply.kind === 'checkpointed' && (reply.truncated || reply.walFrames === 0);
        if (!reset) awaited.registration.resetAfter = performance.now() + RESET_RETRY_MS;
        this.#openGate(awaited.registration);
      } else if (registration) registration.inFlight = false;
      if (reply.kind === 'failed') this.#warnFailure(reply.file, reply.reason);
      else this.#failing.delete(reply.file);
      // Written again while its checkpoint ran: another look at the next tick.
      if (registration?.dirty && !registration.closed) this.#wrote(registration);
    }
    this.#retireWhenIdle();
  }

  #retireWhenIdle(): void {
    const busy = [...this.#awaiting.values(), ...this.#closing.values()].some((queue) => queue.length > 0);
    if (busy || this.#tick !== null || this.#idle !== null || this.#worker === null) return;
    this.#idle = setTimeout(() => {
      this.#idle = null;
      const worker = this.#worker;
      if (worker === null || this.#tick !== null) return;
      this.#worker = null;
      void worker.terminate();
      // A minute without work: the owners' connections checkpoint again.
      for (const registration of this.#registrations) {
        registration.heavy = false;
        registration.heavyTicks = 0;
      }
    }, this.#idleWorkerMs);
    this.#idle.unref();
  }

  async #close(registration: Registration): Promise<void> {
    if (registration.closed) return;
    registration.closed = true;
    this.#registrations.delete(registration);
    this.#openGate(registration);
    const sharedWithAnother = [...this.#registrations].some((other) => other.file === registration.file);
    if (this.#worker === null || this.#failed || sharedWithAnother) return;
    await new Promise<void>((done) => {
      // Someone awaits this answer: the process stays up for it (unref'd again once no close waits).
      this.#worker?.ref();
      const queue = this.#closing.get(registration.file);
      if (queue) queue.push(done);
      else this.#closing.set(registration.file, [done]);
      this.#send({ kind: 'close', file: registration.file }, null);
    });
  }

  #fail(message: string): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#warn(`${message}; checkpoints run on the writing connections from now on`);
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    const worker = this.#worker;
    this.#worker = null;
    if (worker !== null) void worker.terminate();
    for (const queue of this.#awaiting.values()) {
      for (const { registration } of queue) {
        registration.inFlight = false;
        this.#openGate(registration);
        // Its checkpoint never ran: the next tick runs it on the owner's connection.
        if (!registration.closed) this.#wrote(registration);
      }
    }
    this.#awaiting.clear();
    for (const waiting of this.#closing.values()) for (const done of waiting) done();
    this.#closing.clear();
  }
}

let shared: WalCheckpointer | null = null;

/** The process's checkpointer: one worker thread (when needed) for every SQLite file of every adapter. */
export function sharedWalCheckpointer(): WalCheckpointer {
  shared ??= new WalCheckpointer();
  return shared;
}

/**
 * Hands the checkpoints of `db`'s file to `checkpointer` (wal_autocheckpoint off; PASSIVE checkpoints on `db`
 * itself while its writes are light). Null, or an in-memory database, leaves them to SQLite inside the commits.
 */
export function registerPassiveCheckpoints(db: DatabaseSync, file: string, checkpointer: WalCheckpointer | null): WalFile | null {
  if (checkpointer === null || file === ':memory:') return null;
  db.exec('PRAGMA wal_autocheckpoint = 0');
  return checkpointer.register(file, () => {
    if (db.isOpen) db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
  });
}
