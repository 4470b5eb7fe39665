/**
 * The logs service's per-server figures for the admin area (docs/EVENTS.md "Data another service owns"): the full stored text and photo counts and the last LOG_COUNT_DAYS days, keyed by server, as two
 * events with the same figures:
 *
 * - `logs.server-counts` on TOPICS.logCounts, the history (kept forever: a reader added later starts from
 *   each server's last value). Whatever changes a server's stored logs (a stored batch, a photo eviction, a
 *   cleanup) marks the server in a small collection of this service's store; a repeatable job (once across
 *   replicas, every minute) reads the marked servers' figures from the log store's rollups and publishes
 *   them, then clears each mark unless it was set again meanwhile. So a busy server is announced at most once
 *   a minute there, a mark survives a restart, and a crash between publish and clear only repeats a full
 *   value. The retention sweep does not say which servers lost logs, so a sweep that removed any marks every
 *   server that has logs.
 * - `logs.server-counts-live` on TOPICS.logCountsLive, the freshness (a stream, not kept): every replica
 *   also remembers in memory the servers whose logs it changed, and every LIVE_COUNTS_EVERY_MS publishes their
 *   figures, so staff see counts seconds old, not a minute. Memory only, per replica: a crash loses at most
 *   one period of these, and the history fact still follows within the minute.
 */
import { LOG_COUNT_DAYS, LogsServerCountsEvent, LogsServerCountsLiveEvent, TOPICS, eventMessage } from '@skald/contracts';
import type { LogsServerCounts } from '@skald/contracts';
import type { Collection, DocumentStore, EventBus, JobQueue, LogStore, PublishInput, Worker } from '@skald/ports';
import { dayOf, lastDays } from './days.ts';

export const COUNTS_QUEUE = 'logs-counts';
export const COUNTS_SCHEDULE_ID = 'logs-counts-publish';
export const COUNTS_JOB = 'publish-counts';
export const COUNTS_EVERY_MS = 60_000;
/** Servers announced per job run; the rest wait for the next run (their marks stay). */
const MAX_PER_RUN = 2_000;
/**
 * Period of the live facts: staff see counts about this old at most, plus a run and the bus's delivery (the
 * admin replicas observe the facts and answer with them at once). The bound they are promised is 5 s
 * (docs/DECISIONS.md).
 */
export const LIVE_COUNTS_EVERY_MS = 2_000;
/** Servers announced per live run (the others wait for the next run, oldest change first). */
const MAX_LIVE_PER_RUN = 2_000;
/** Live facts read between two turns of the event loop (the embedded log store answers synchronously). */
const LIVE_READS_PER_TURN = 100;
/** Live facts per bus publish (one journal transaction, one producer batch). */
const LIVE_PER_PUBLISH = 500;

interface CountMark {
  readonly _id: string;
  /** Bumped by every mark: the job clears a mark only if nobody marked it again while it published. */
  readonly version: number;
}

interface ServerWithLogs {
  readonly _id: string;
}

export interface ServerCounts {
  /** The server's stored logs changed: announce its figures with the next run. */
  mark(serverId: string): Promise<void>;
  /** After a retention sweep that removed logs: every server with logs may have lost some. */
  markAllWithLogs(): Promise<void>;
  /** Publishes the figures of every marked server (at most MAX_PER_RUN); returns how many. */
  publishMarked(now: number): Promise<number>;
  /**
   * Publishes the live figures of the servers this replica changed since its last call (at most
   * MAX_LIVE_PER_RUN, oldest change first); returns how many. A failed publish keeps them for the next call.
   */
  publishChanged(now: number): Promise<number>;
}

export async function createServerCounts(deps: { docs: DocumentStore; logStore: LogStore; bus: EventBus }): Promise<ServerCounts> {
  const marks: Collection<CountMark> = await deps.docs.collection<CountMark>('count_marks');
  const withLogs: Collection<ServerWithLogs> = await deps.docs.collection<ServerWithLogs>('count_servers_with_logs');
  /** Servers whose logs this replica changed since the last live run, in the order of their first change. */
  let changed = new Set<string>();

  async function mark(serverId: string): Promise<void> {
    changed.add(serverId);
    await marks.updateOne({ _id: serverId }, { $inc: { version: 1 } }, { upsert: true });
  }

  /** The server's figures as the log store's rollups hold them now. */
  async function countsOf(serverId: string, now: number): Promise<LogsServerCounts> {
    const days = lastDays(now, LOG_COUNT_DAYS);
    const stats = await deps.logStore.stats(serverId, { fromDay: days[0]!, toDay: days[days.length - 1]! });
    const perDay = days.flatMap((date) => {
      const figures = stats.perDay[date];
      return figures === undefined || figures.text + figures.photo === 0 ? [] : [{ date, logs: figures.text, photoLogs: figures.photo }];
    });
    return { serverId, logs: stats.totals.text, photoLogs: stats.totals.photo, days: perDay, countedAt: new Date(now).toISOString() };
  }

  return {
    mark,
    async markAllWithLogs() {
      for (const server of await withLogs.find({})) await mark(server._id);
    },
    async publishMarked(now) {
      const due = await marks.find({}, { limit: MAX_PER_RUN });
      for (const { _id: serverId, version } of due) {
        const counts = await countsOf(serverId, now);
        await deps.bus.publish([eventMessage(LogsServerCountsEvent, serverId, counts)]);
        if (counts.logs + counts.photoLogs > 0) await withLogs.updateOne({ _id: serverId }, { $set: { since: dayOf(now) } }, { upsert: true });
        else await withLogs.deleteOne({ _id: serverId });
        await marks.deleteOne({ _id: serverId, version });
      }
      return due.length;
    },
    async publishChanged(now) {
      if (changed.size === 0) return 0;
      const all = [...changed];
      const due = all.slice(0, MAX_LIVE_PER_RUN);
      // A change from now on marks the server again for the next run.
      changed = new Set(all.slice(MAX_LIVE_PER_RUN));
      try {
        const messages: PublishInput[] = [];
        for (const serverId of due) {
          messages.push(eventMessage(LogsServerCountsLiveEvent, serverId, await countsOf(serverId, now)));
          if (messages.length % LIVE_READS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        }
        for (let i = 0; i < messages.length; i += LIVE_PER_PUBLISH) await deps.bus.publish(messages.slice(i, i + LIVE_PER_PUBLISH));
      } catch (error) {
        // Announced again next run (a fact read later is as true): back in front of the newer changes.
        changed = new Set([...due, ...changed]);
        throw error;
      }
      return due.length;
    },
  };
}

/** Schedules the publishing job (idempotent: same schedule id) and starts its worker. */
export async function startCountsPublisher(jobs: JobQueue, bus: EventBus, counts: ServerCounts, everyMs = COUNTS_EVERY_MS): Promise<Worker> {
  await bus.ensureTopics([TOPICS.logCounts]);
  await jobs.schedule(COUNTS_QUEUE, COUNTS_SCHEDULE_ID, everyMs, COUNTS_JOB, {});
  return jobs.process(COUNTS_QUEUE, async (job) => {
    if (job.name === COUNTS_JOB) await counts.publishMarked(Date.now());
  });
}

/**
 * Runs publishChanged every `everyMs` on this replica (each replica announces the servers it changed; no
 * job queue, which would run it on one replica only). The next run is timed from the end of the last, so
 * runs never overlap; a failed run is logged and its servers kept for the next.
 */
export function startLiveCounts(counts: Pick<ServerCounts, 'publishChanged'>, options: { everyMs?: number; onError: (error: unknown) => void }): { close(): Promise<void> } {
  const everyMs = options.everyMs ?? LIVE_COUNTS_EVERY_MS;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;
  const schedule = (): void => {
    if (closed) return;
    timer = setTimeout(() => {
      running = counts
        .publishChanged(Date.now())
        .then(
          () => undefined,
          (error: unknown) => options.onError(error),
        )
        .finally(() => {
          running = null;
          schedule();
        });
    }, everyMs);
  };
  schedule();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
