/**
 * Recording players off the storing of logs: the store path queues each stored batch's logs in the player
 * store (durable, one row per batch, nothing extracted yet); the recorder extracts their players
 * (domain/identity) and records them a few thousand logs at a time, dropping what it recorded in the same
 * transaction. Bigger runs cost far less per log than a batch at a time (each player's rows and counts
 * written once per run). When the store offers a worker thread with its own connection (the embedded
 * store), the runs happen there (player-recorder-thread.ts), on the other core, and the store path pays only
 * the queue row (docs/PLAYERS.md, "Recording"). Reads of the player view catch up first, so they answer
 * every log stored before them. Failures never reach the store path: a log whose extraction fails is
 * recorded without players (and logged); a queue the store refuses is logged; a run that fails is logged
 * and retried.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogRecord, PlayerStore, QueuedLog } from '@skald/ports';
import { createRecorderThread } from './player-recorder-thread.ts';
import { mentionsOf } from './record-players.ts';

/** What recording logs through (the service's logger; in the worker, one that hands lines to the service's). */
export type RecorderLog = Pick<FastifyBaseLogger, 'warn' | 'error'>;

export interface PlayerRecorderDeps {
  readonly store: PlayerStore;
  readonly log: RecorderLog;
}

export interface PlayerRecorderOptions {
  /** How long queued logs wait before a background run on the caller's thread (more gather meanwhile); default RECORD_DELAY_MS. */
  readonly delayMs?: number;
  /** The same on the worker thread; default THREAD_RECORD_DELAY_MS. */
  readonly threadDelayMs?: number;
  /** Record on a worker thread when the store offers one (default true); false: on the caller's thread. */
  readonly thread?: boolean;
  /** How long an idle worker thread lives on (default RECORDER_IDLE_MS). */
  readonly idleMs?: number;
}

export interface PlayerRecorder {
  readonly store: PlayerStore;
  /** The store path: queues a stored batch's logs. Never throws (a failure is logged; those logs get no players). */
  queue(records: readonly LogRecord[]): Promise<void>;
  /** Records everything queued before the call (the player view's reads, erasure). */
  catchUp(): Promise<void>;
  /** Starts the background runs (what a restart left queued is recorded). */
  start(): void;
  /** Stops them after the current run; the queue stays for the next start. */
  stop(): Promise<void>;
}

/** Records the queue in runs: wherever it runs (the service's thread, or the recorder's worker thread). */
export interface RecordingLoop {
  /** Something was queued: a run follows after the delay. */
  nudge(): void;
  /** Runs until everything queued before the call is recorded. */
  catchUp(): Promise<void>;
  /** A run that found the queue empty, or recorded it all (the worker's cue to go idle). */
  onDrained?: () => void;
  start(): void;
  stop(): Promise<void>;
}

export const RECORD_DELAY_MS = 200;
/**
 * On its own thread too a run waits for batches to gather: a run costs per player it names (counts written
 * once, a page per player in the commit), so a run of many batches costs less per log (200 ms against 50 ms:
 * ~15-20% less CPU a log with identity, docs/PLAYERS.md). Reads catch up first, so they never wait for it.
 */
export const THREAD_RECORD_DELAY_MS = 200;
/** Queued logs recorded per run. */
export const RECORD_RUN_LOGS = 10_000;
/** After a failed run, the next one waits this long (the queue keeps the logs). */
const RETRY_DELAY_MS = 5_000;
/** A worker thread holds ~15 MiB while it lives: after a minute with nothing to record it ends. */
export const RECORDER_IDLE_MS = 60_000;

export function createPlayerRecorder(deps: PlayerRecorderDeps, options: PlayerRecorderOptions = {}): PlayerRecorder {
  const delayMs = options.delayMs ?? RECORD_DELAY_MS;
  const inline = createRecordingLoop(deps, delayMs);
  const threaded = options.thread !== false && typeof deps.store.startWorker === 'function';
  const loop: Pick<RecordingLoop, 'nudge' | 'catchUp' | 'start' | 'stop'> = threaded
    ? createRecorderThread({ store: deps.store, log: deps.log, inline, delayMs: options.threadDelayMs ?? THREAD_RECORD_DELAY_MS, idleMs: options.idleMs ?? RECORDER_IDLE_MS })
    : inline;
  return {
    store: deps.store,
    async queue(records) {
      if (records.length === 0) return;
      try {
        await deps.store.queue(records.map(queuedLogOf));
      } catch (error) {
        deps.log.error({ err: error, logs: records.length }, 'logs: queueing stored logs for their players failed; the logs are stored');
        return;
      }
      loop.nudge();
    },
    catchUp: () => loop.catchUp(),
    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}

function queuedLogOf(record: LogRecord): QueuedLog {
  return {
    logId: record.id,
    serverId: record.serverId,
    at: record.createdAt,
    logType: record.logType,
    expiresAt: record.expiresAt,
    message: record.message,
    metadata: record.metadata,
  };
}

/** The runs themselves, on whichever thread calls this (never two runs at once). */
export function createRecordingLoop(deps: PlayerRecorderDeps, delayMs: number): RecordingLoop {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<boolean> = Promise.resolve(false);
  let started = false;

  /** One run: the oldest queued logs recorded; true when more were waiting. Runs never overlap. */
  function run(): Promise<boolean> {
    running = running.then(
      () => recordQueued(deps),
      () => recordQueued(deps),
    );
    return running;
  }

  function arm(wait = delayMs): void {
    if (!started || timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      run().then(
        (more) => {
          // A full run left more waiting: the next one starts at once (the queue is already long).
          if (more) arm(0);
          else loop.onDrained?.();
        },
        (error: unknown) => {
          deps.log.error({ err: error }, 'logs: recording queued players failed; retrying later');
          arm(RETRY_DELAY_MS);
        },
      );
    }, wait);
    timer.unref();
  }

  const loop: RecordingLoop = {
    nudge: () => arm(),
    async catchUp() {
      // Until a run finds less than a full run waiting: everything queued before the call is then recorded.
      while (await run());
    },
    start() {
      started = true;
      arm(0);
    },
    async stop() {
      started = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await running.catch(() => undefined);
    },
  };
  return loop;
}

async function recordQueued(deps: PlayerRecorderDeps): Promise<boolean> {
  const page = await deps.store.queued(RECORD_RUN_LOGS);
  if (page.through < 0) return false;
  await deps.store.record(mentionsOf(page.logs, deps.log), page.through);
  return page.logs.length >= RECORD_RUN_LOGS;
}
