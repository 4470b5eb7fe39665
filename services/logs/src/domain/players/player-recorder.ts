/**
 * Recording players off the storing of logs: the store path extracts each stored log's players
 * (domain/identity) and queues them in the player store (durable, one row per batch); the recorder
 * records the queue a few thousand logs at a time, dropping what it recorded in the same transaction.
 * Bigger runs cost far less per log than a batch at a time (each player's rows and counts written once per
 * run: docs/PLAYERS.md, "Recording"). Reads of the player view catch up first, so they answer every log
 * stored before them. Failures never reach the store path: a log whose extraction fails is stored without
 * players (and logged); a queue the store refuses is logged; a run that fails is logged and retried.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LogRecord, PlayerStore } from '@skald/ports';
import { mentionsOf } from './record-players.ts';

export interface PlayerRecorderDeps {
  readonly store: PlayerStore;
  readonly log: FastifyBaseLogger;
}

export interface PlayerRecorderOptions {
  /** How long queued logs wait before a background run (more gather meanwhile); default RECORD_DELAY_MS. */
  readonly delayMs?: number;
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

export const RECORD_DELAY_MS = 200;
/** Queued logs recorded per run. */
export const RECORD_RUN_LOGS = 10_000;
/** After a failed run, the next one waits this long (the queue keeps the logs). */
const RETRY_DELAY_MS = 5_000;

export function createPlayerRecorder(deps: PlayerRecorderDeps, options: PlayerRecorderOptions = {}): PlayerRecorder {
  const delayMs = options.delayMs ?? RECORD_DELAY_MS;
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
          if (more) arm();
        },
        (error: unknown) => {
          deps.log.error({ err: error }, 'logs: recording queued players failed; retrying later');
          arm(RETRY_DELAY_MS);
        },
      );
    }, wait);
    timer.unref();
  }

  return {
    store: deps.store,
    async queue(records) {
      const mentions = mentionsOf(records, deps.log);
      if (mentions.length === 0) return;
      try {
        await deps.store.queue(mentions);
      } catch (error) {
        deps.log.error({ err: error, logs: records.length }, 'logs: queueing stored logs for their players failed; the logs are stored');
        return;
      }
      arm();
    },
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
}

async function recordQueued(deps: PlayerRecorderDeps): Promise<boolean> {
  const page = await deps.store.queued(RECORD_RUN_LOGS);
  if (page.through < 0) return false;
  await deps.store.record(page.logs, page.through);
  return page.logs.length >= RECORD_RUN_LOGS;
}
