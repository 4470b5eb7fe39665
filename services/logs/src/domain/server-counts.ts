/**
 * The logs service's per-server figures for the admin area (docs/ARCHITECTURE.md "Data another service
 * owns"): `logs.server-counts` on TOPICS.logCounts, the full stored text and photo counts and the last
 * LOG_COUNT_DAYS days, keyed by server.
 *
 * Whatever changes a server's stored logs (a stored batch, a photo eviction, a cleanup) marks the server in
 * a small collection of this service's store; a repeatable job (once across replicas, every minute) reads
 * the marked servers' figures from the log store's rollups and publishes them, then clears each mark unless
 * it was set again meanwhile. So a busy server is announced at most once a minute, a mark survives a
 * restart, and a crash between publish and clear only repeats a full value. The retention sweep does not
 * say which servers lost logs, so a sweep that removed any marks every server that has logs.
 */
import { LOG_COUNT_DAYS, LogsServerCountsEvent, TOPICS, eventMessage } from '@skald/contracts';
import type { Collection, DocumentStore, EventBus, JobQueue, LogStore, Worker } from '@skald/ports';
import { dayOf, lastDays } from './days.ts';

export const COUNTS_QUEUE = 'logs-counts';
export const COUNTS_SCHEDULE_ID = 'logs-counts-publish';
export const COUNTS_JOB = 'publish-counts';
export const COUNTS_EVERY_MS = 60_000;
/** Servers announced per job run; the rest wait for the next run (their marks stay). */
const MAX_PER_RUN = 2_000;

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
}

export async function createServerCounts(deps: { docs: DocumentStore; logStore: LogStore; bus: EventBus }): Promise<ServerCounts> {
  const marks: Collection<CountMark> = await deps.docs.collection<CountMark>('count_marks');
  const withLogs: Collection<ServerWithLogs> = await deps.docs.collection<ServerWithLogs>('count_servers_with_logs');

  async function mark(serverId: string): Promise<void> {
    await marks.updateOne({ _id: serverId }, { $inc: { version: 1 } }, { upsert: true });
  }

  return {
    mark,
    async markAllWithLogs() {
      for (const server of await withLogs.find({})) await mark(server._id);
    },
    async publishMarked(now) {
      const due = await marks.find({}, { limit: MAX_PER_RUN });
      const days = lastDays(now, LOG_COUNT_DAYS);
      for (const { _id: serverId, version } of due) {
        const stats = await deps.logStore.stats(serverId, { fromDay: days[0]!, toDay: days[days.length - 1]! });
        const perDay = days.flatMap((date) => {
          const figures = stats.perDay[date];
          return figures === undefined || figures.text + figures.photo === 0 ? [] : [{ date, logs: figures.text, photoLogs: figures.photo }];
        });
        await deps.bus.publish([
          eventMessage(LogsServerCountsEvent, serverId, {
            serverId,
            logs: stats.totals.text,
            photoLogs: stats.totals.photo,
            days: perDay,
            countedAt: new Date(now).toISOString(),
          }),
        ]);
        if (stats.totals.text + stats.totals.photo > 0) await withLogs.updateOne({ _id: serverId }, { $set: { since: dayOf(now) } }, { upsert: true });
        else await withLogs.deleteOne({ _id: serverId });
        await marks.deleteOne({ _id: serverId, version });
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
