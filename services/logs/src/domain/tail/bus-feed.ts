/**
 * The live tails' feed across logs replicas. With several logs replicas in one consumer
 * group each stores only its share of the accepted batches, yet a tail must send every log of its
 * server, and only logs that are stored. So each replica that has tails OBSERVES the bus
 * (EventBus.observe: every message, to this process alone) on two topics:
 * - `logs.batch-accepted` (the logs themselves): held here, per batch, for the servers with tails;
 * - `logs.batch-stored` (a small notice the replica that stored a batch publishes after its commit):
 *   releases the held batch to the tails (LiveLogFeed fan-out), in acceptance order per server
 *   (held-batches.ts: a batch stored before an earlier one waits for it, up to `holdMs`).
 * A log therefore reaches a tail only after its insert committed (the notice follows the commit), and a
 * resume that reads the store after the last id sent finds whatever was stored before it subscribed.
 *
 * A notice whose batch was not observed (accepted before this observer started, or held past
 * `pendingTtlMs`) is served from the store: after `graceMs` (the batch may still be on its way; the two
 * topics are observed independently) the tail feed reads the notice's createdAt window of that server,
 * among the logs received near the batch (their ids), and sends what is stored there; tails drop ids they
 * already sent. Nothing polls the store.
 *
 * The observer runs only while this process has tails (plus `lingerMs`, so a reconnecting client
 * does not restart it each time); subscribe() resolves once it is live, so a tail's catch-up read
 * happens after the feed started: no gap between the two.
 */
import type { FastifyBaseLogger } from 'fastify';
import { LogsBatchAcceptedEvent, LogsBatchStoredEvent, observeEvents, on } from '@skald/contracts';
import type { LogsBatchAccepted, LogsBatchStored } from '@skald/contracts';
import type { EventBus, LogRecord, LogStore, Subscription } from '@skald/ports';
import { HeldBatches } from './held-batches.ts';
import { isLogId, logIdFloor, logIdTime } from './log-id.ts';
import { createLiveLogFeed } from './live-feed.ts';
import type { LiveListener } from './live-feed.ts';

/** What a tail needs of a feed. */
export interface TailFeed {
  /** Resolves once every log stored from now on reaches the listener; the returned function leaves. */
  subscribe(serverId: string, listener: LiveListener): Promise<() => void>;
}

export interface BusLiveFeed extends TailFeed {
  /** Stops observing now and forgets what it held (service stop); a later subscribe starts again. */
  close(): Promise<void>;
  /** Whether the bus observer runs (diagnostics and tests). */
  observing(): boolean;
}

export interface BusFeedSettings {
  /** How long a notice waits for its batch before the store is read instead. Default 250 ms. */
  readonly graceMs: number;
  /** How long a stored batch waits for earlier batches of its server, to keep their order (held-batches.ts). Default 500 ms. */
  readonly holdMs: number;
  /** How long the observer keeps running after the last tail left. Default 60 s. */
  readonly lingerMs: number;
  /** How long an observed batch waits for its notice (a batch nobody stores, e.g. dead-lettered). Default 5 min. */
  readonly pendingTtlMs: number;
  /** Observed logs held at most, in whole batches; the oldest go first (their notice then reads the store). Default 50,000 (tens of MB). */
  readonly maxHeldLogs: number;
}

export const DEFAULT_BUS_FEED_SETTINGS: BusFeedSettings = { graceMs: 250, holdMs: 500, lingerMs: 60_000, pendingTtlMs: 5 * 60_000, maxHeldLogs: 50_000 };

export interface BusFeedDeps {
  readonly bus: EventBus;
  readonly logStore: LogStore;
  readonly log: FastifyBaseLogger;
  readonly now?: () => number;
}

/** Rows of a fallback read at a time (a notice covers one batch of at most 1000 logs and its neighbours in time). */
const FALLBACK_PAGE = 1000;
/**
 * A batch's logs were received at most this long before its batch id was made (both UUIDv7s of ingestion's
 * clock: the ids at each request, the batch id when the coalesced publish is built, after its queue wait).
 */
const BATCH_ARRIVAL_MARGIN_MS = 5 * 60_000;

function toRecords(event: LogsBatchAccepted): LogRecord[] {
  return event.logs
    .filter((log) => log.logType === 'text')
    // expiresAt is the store's business (the tier's retention) and no part of what a tail sends.
    .map((log) => ({ ...log, serverId: event.serverId, expiresAt: log.createdAt }));
}

export function createBusLiveFeed(deps: BusFeedDeps, overrides: Partial<BusFeedSettings> = {}): BusLiveFeed {
  const settings: BusFeedSettings = { ...DEFAULT_BUS_FEED_SETTINGS, ...overrides };
  const now = deps.now ?? Date.now;
  const fanout = createLiveLogFeed((error) => deps.log.error({ err: error }, 'logs: a live tail failed on a stored batch'));
  const held = new HeldBatches(settings, now, (serverId, records) => fanout.publish(serverId, records));
  const early = new Map<string, NodeJS.Timeout>();
  let observer: Subscription | null = null;
  let starting: Promise<Subscription> | null = null;
  let linger: NodeJS.Timeout | null = null;
  /** Bumped by close(): an observer that finishes starting after it is stopped at once. */
  let generation = 0;

  const forgetHeld = (): void => {
    held.clear();
    for (const timer of early.values()) clearTimeout(timer);
    early.clear();
  };

  const readStored = async (notice: LogsBatchStored): Promise<void> => {
    early.delete(notice.batchId);
    if (!fanout.listening(notice.serverId)) return;
    try {
      const records: LogRecord[] = [];
      // The window is of the logs' own times, which a client's batch sent a day late spreads over a day: the
      // ids keep the read to what was received near the batch, not a day of neighbours held in memory.
      const afterId = isLogId(notice.batchId) ? logIdFloor(logIdTime(notice.batchId) - BATCH_ARRIVAL_MARGIN_MS) : undefined;
      const query = { serverId: notice.serverId, logType: 'text' as const, from: notice.fromTime, to: notice.toTime, ...(afterId === undefined ? {} : { afterId }) };
      for await (const page of deps.logStore.scan(query, FALLBACK_PAGE)) records.push(...page);
      records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      fanout.publish(notice.serverId, records);
    } catch (error) {
      deps.log.error({ err: error, serverId: notice.serverId }, 'logs: a live tail could not read a stored batch it had not seen');
    }
  };

  const onAccepted = async (event: LogsBatchAccepted, batchId: string): Promise<void> => {
    if (!fanout.listening(event.serverId)) return;
    const records = toRecords(event);
    if (records.length === 0) return;
    const noticed = early.get(batchId);
    if (noticed !== undefined) {
      clearTimeout(noticed);
      early.delete(batchId);
    }
    held.accepted(event.serverId, batchId, records, noticed !== undefined);
  };

  const onStored = async (notice: LogsBatchStored): Promise<void> => {
    if (!fanout.listening(notice.serverId)) return;
    if (held.stored(notice.batchId) || early.has(notice.batchId)) return;
    const timer = setTimeout(() => void readStored(notice), settings.graceMs);
    timer.unref();
    early.set(notice.batchId, timer);
  };

  const startObserving = async (): Promise<void> => {
    if (observer) return;
    const startedIn = generation;
    starting ??= observeEvents(deps.bus, {
      handlers: [on(LogsBatchAcceptedEvent, (data, { envelope }) => onAccepted(data, envelope.id)), on(LogsBatchStoredEvent, (data) => onStored(data))],
      // Messages are keyed by server: those of servers without a tail here are skipped before parsing.
      filter: (key) => fanout.listening(key),
      onError: (error, message) => deps.log.warn({ err: error, topic: message.topic, messageId: message.id }, 'logs: the live tail feed skipped a message'),
    });
    // Every subscriber arriving while it starts awaits the same start.
    const current = starting;
    let started: Subscription;
    try {
      started = await current;
    } finally {
      if (starting === current) starting = null;
    }
    if (generation !== startedIn) {
      // close() ran meanwhile (the service stops): this observer is nobody's.
      await started.stop();
      throw new Error('logs: the live tail feed was closed while it started');
    }
    observer ??= started;
  };

  const stopObserving = async (): Promise<void> => {
    const running = observer;
    observer = null;
    forgetHeld();
    if (running) await running.stop();
  };

  return {
    async subscribe(serverId, listener) {
      if (linger) clearTimeout(linger);
      linger = null;
      // Listening before the observer starts: nothing it delivers for this server is dropped for want of a listener.
      const leave = fanout.subscribe(serverId, listener);
      const unsubscribe = (): void => {
        leave();
        if (fanout.servers() > 0 || linger) return;
        linger = setTimeout(() => {
          linger = null;
          if (fanout.servers() === 0) {
            stopObserving().catch((error: unknown) => deps.log.warn({ err: error }, 'logs: stopping the live tail feed failed'));
          }
        }, settings.lingerMs);
        linger.unref();
      };
      try {
        await startObserving();
      } catch (error) {
        unsubscribe();
        throw error;
      }
      return unsubscribe;
    },
    observing: () => observer !== null,
    async close() {
      generation += 1;
      starting = null;
      if (linger) clearTimeout(linger);
      linger = null;
      await stopObserving();
    },
  };
}
