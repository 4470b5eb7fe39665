/**
 * The service's side of the recorder's worker thread (player-recorder-worker.ts, started through
 * PlayerStore.startWorker with a connection of its own): the store path's queue rows are recorded there,
 * extraction included, so storing logs pays only for the queue row. The worker starts when something is
 * queued (or at start, when a restart left something queued) and ends after `idleMs` with nothing to record. If it
 * fails, recording falls back to the service's own thread for good (`inline`): the queue keeps every log,
 * nothing waits on a worker that is gone.
 */
import type { Worker } from 'node:worker_threads';
import type { PlayerStore } from '@skald/ports';
import type { RecorderLog, RecordingLoop } from './player-recorder.ts';

export interface RecorderThreadDeps {
  readonly store: PlayerStore;
  readonly log: RecorderLog;
  /** The same runs on the service's thread: used once the worker failed. */
  readonly inline: RecordingLoop;
  readonly delayMs: number;
  readonly idleMs: number;
}

/** What the service tells the worker. */
export type RecorderRequest =
  /** Rows were queued: a run follows after the delay. */
  | { readonly kind: 'queued' }
  /** Record everything queued now and write the seen times gathered in memory, then answer `caught-up`. */
  | { readonly kind: 'catch-up'; readonly id: number }
  /** Finish the run under way, close the connection, answer `closed`. */
  | { readonly kind: 'close' };

/** What the worker answers. */
export type RecorderReply =
  | { readonly kind: 'caught-up'; readonly id: number }
  | { readonly kind: 'catch-up-failed'; readonly id: number; readonly error: unknown }
  /** A background run found nothing more to record. */
  | { readonly kind: 'drained' }
  /** A line for the service's log (the worker has no logger of its own). */
  | { readonly kind: 'log'; readonly level: 'warn' | 'error'; readonly fields: Record<string, unknown>; readonly message: string }
  | { readonly kind: 'closed' };

export interface RecorderWorkerData {
  readonly delayMs: number;
}

interface Waiting {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export function createRecorderThread(deps: RecorderThreadDeps): Pick<RecordingLoop, 'nudge' | 'catchUp' | 'start' | 'stop'> {
  let worker: Worker | null = null;
  let failed = false;
  let started = false;
  /** A worker asked to close and not closed yet: the next one waits for it (never two recording at once). */
  let closing: Promise<void> = Promise.resolve();
  let idle: NodeJS.Timeout | null = null;
  let nextId = 0;
  const waiting = new Map<number, Waiting>();
  /** While set, `queued` was told less than `delayMs` ago: more nudges are told once when it fires. */
  let told: NodeJS.Timeout | null = null;
  let untold = false;

  function clearIdle(): void {
    if (idle !== null) clearTimeout(idle);
    idle = null;
  }

  async function ready(): Promise<Worker | null> {
    await closing;
    if (failed || !started) return null;
    if (worker !== null) return worker;
    const data: RecorderWorkerData = { delayMs: deps.delayMs };
    let current: Worker;
    try {
      current = deps.store.startWorker!({ module: new URL('./player-recorder-worker.ts', import.meta.url), data });
    } catch (error) {
      fail(null, error);
      return null;
    }
    worker = current;
    current.on('message', (reply: RecorderReply) => onReply(current, reply));
    current.on('error', (error) => fail(current, error));
    current.on('exit', (code) => fail(current, new Error(`the player recorder's worker exited (code ${code})`)));
    // Never what keeps the process alive (close() refs it again while it closes).
    current.unref();
    return current;
  }

  function onReply(from: Worker, reply: RecorderReply): void {
    switch (reply.kind) {
      case 'caught-up':
        waiting.get(reply.id)?.resolve();
        answered(from, reply.id);
        return;
      case 'catch-up-failed':
        waiting.get(reply.id)?.reject(reply.error);
        answered(from, reply.id);
        return;
      case 'log':
        deps.log[reply.level](reply.fields, reply.message);
        return;
      case 'drained':
        if (from === worker && waiting.size === 0) retireWhenIdle(from);
        return;
      case 'closed':
        return;
    }
  }

  /**
   * A catch-up answered: with none left waiting, the worker no longer keeps the process alive, and it ends when
   * nothing more comes (a catch-up cleared its idle timer; a nudge clears this one).
   */
  function answered(from: Worker, id: number): void {
    waiting.delete(id);
    if (waiting.size > 0 || from !== worker) return;
    from.unref();
    retireWhenIdle(from);
  }

  function retireWhenIdle(current: Worker): void {
    clearIdle();
    idle = setTimeout(() => {
      idle = null;
      if (worker === current && waiting.size === 0) retire(current);
    }, deps.idleMs);
    idle.unref();
  }

  /** Asks the worker to close after its run (never terminated mid-transaction: its lock would stay held). */
  function retire(current: Worker): void {
    worker = null;
    current.ref();
    closing = new Promise<void>((resolve) => {
      current.on('message', (reply: RecorderReply) => {
        if (reply.kind === 'closed') resolve();
      });
      current.once('exit', () => resolve());
    });
    current.postMessage({ kind: 'close' } satisfies RecorderRequest);
  }

  /** The worker failed: its waiting catch-ups and everything from now on run on this thread. */
  function fail(current: Worker | null, error: unknown): void {
    if (current !== null && current !== worker) return;
    worker = null;
    failed = true;
    clearIdle();
    deps.log.error({ err: error }, "logs: the player recorder's worker failed; recording on the service's thread from now on");
    if (started) deps.inline.start();
    const pending = [...waiting.values()];
    waiting.clear();
    for (const one of pending) deps.inline.catchUp().then(one.resolve, one.reject);
  }

  /**
   * Tells the worker that rows were queued, at most once per `delayMs` (its run waits that long anyway, so
   * it loses nothing): a message per stored batch cost the thread storing logs more than its queue row.
   * Nudges meanwhile are told when the time is up, so every row queued is followed by a run.
   */
  function tellQueued(): void {
    if (told !== null) {
      untold = true;
      return;
    }
    void ready().then((current) => current?.postMessage({ kind: 'queued' } satisfies RecorderRequest));
    told = setTimeout(() => {
      told = null;
      if (!untold) return;
      untold = false;
      if (failed) deps.inline.nudge();
      else tellQueued();
    }, deps.delayMs);
    told.unref();
  }

  return {
    nudge() {
      if (failed) {
        deps.inline.nudge();
        return;
      }
      clearIdle();
      tellQueued();
    },
    async catchUp() {
      if (failed || !started) return deps.inline.catchUp();
      clearIdle();
      const current = await ready();
      if (current === null) return deps.inline.catchUp();
      const id = ++nextId;
      const done = new Promise<void>((resolve, reject) => waiting.set(id, { resolve, reject }));
      // Someone awaits its answer: the process stays up for it (an unref'd worker's messages do not).
      current.ref();
      current.postMessage({ kind: 'catch-up', id } satisfies RecorderRequest);
      return done;
    },
    start() {
      started = true;
      if (failed) {
        deps.inline.start();
        return;
      }
      // What a restart left queued is recorded at once (the worker runs right away when it starts); an empty
      // queue starts no thread (an idle process should not hold one).
      deps.store.queued(1).then(
        (page) => {
          if (page.through >= 0) void ready();
        },
        (error: unknown) => deps.log.error({ err: error }, 'logs: reading the players queue at start failed; it is recorded with the next batch'),
      );
    },
    async stop() {
      started = false;
      clearIdle();
      if (told !== null) clearTimeout(told);
      told = null;
      untold = false;
      const current = worker;
      if (current !== null) retire(current);
      await closing;
      await deps.inline.stop();
    },
  };
}
