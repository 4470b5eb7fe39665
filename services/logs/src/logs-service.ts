/**
 * The logs service: consumes accepted log batches into the log store, serves the read side (lists,
 * search, stats, photo images, usage, colour settings, cleanup, the live tail fed by every replica's stored batches) and runs
 * the retention sweep. It also serves every export (CSV and PDF, the monthly count) from its log store and its
 * own copy of the audit entries.
 */
import type { FastifyInstance } from 'fastify';
import { LogsBatchStoredEvent, TOPICS, eventMessage } from '@skald/contracts';
import type { LogsBatchStored } from '@skald/contracts';
import type { Subscription, Worker } from '@skald/ports';
import { authPlugin, createAuditPublisher, createIdentityReadModel } from '@skald/service-kit';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { createAuditCopy } from './domain/exports/audit-copy.ts';
import { createExportLimit } from './domain/exports/export-limit.ts';
import { createImageUrlSigner } from './domain/image-url.ts';
import { createLevelColorsRepository } from './domain/level-colors.ts';
import { createCases } from './domain/cases/cases.ts';
import { createSavedSearches } from './domain/saved-searches.ts';
import { createPlayerRecorder } from './domain/players/player-recorder.ts';
import { startRetention } from './domain/retention.ts';
import { createServerCounts, startCountsPublisher, startLiveCounts } from './domain/server-counts.ts';
import { startAuditCopyConsumer } from './events/audit-copy-consumer.ts';
import { TAIL_SHUTDOWN, createLiveTails } from './domain/tail/live-tails.ts';
import type { LiveTailOptions } from './domain/tail/live-tails.ts';
import { startBatchConsumer } from './events/batch-consumer.ts';
import { registerLogsRoutes } from './http/routes.ts';

export interface LogsServiceOptions {
  /** Path prefix browsers use to reach this service's routes (image URLs). Default '/api' (the gateway's). */
  readonly publicPathPrefix?: string;
  /** Period of the logs.server-counts publishing job; default 1 minute. */
  readonly countsEveryMs?: number;
  /** Period of each replica's logs.server-counts-live facts; default LIVE_COUNTS_EVERY_MS (2 s). */
  readonly liveCountsEveryMs?: number;
  /** Retention sweep period; default 10 minutes. */
  readonly retentionEveryMs?: number;
  /** The clock of the read side (day windows, image URL expiry, cleanup ages); default Date.now. */
  readonly now?: () => number;
  /** Bounds and timings of the live tails (GET /logs/tail); defaults in domain/tail/live-tails.ts. */
  readonly tail?: LiveTailOptions;
}

/** Stop and restart the bus consumer alone (reliability tests; operators pausing storage). */
export interface LogsServiceControl {
  startConsumer(): Promise<void>;
  stopConsumer(): Promise<void>;
}

export async function createLogsServiceWith(deps: ServiceDeps, options: LogsServiceOptions = {}): Promise<ServiceModule & LogsServiceControl> {
  const players = deps.playerStore;
  if (players === undefined) throw new Error('the logs service needs its player store (ServiceDeps.playerStore)');
  const recorder = createPlayerRecorder({ store: players, log: deps.log });
  const now = options.now ?? Date.now;
  const directory = await createIdentityReadModel({ bus: deps.bus, docs: deps.docs, group: 'logs.identity' });
  const colors = await createLevelColorsRepository(deps.docs);
  const savedSearches = await createSavedSearches(deps.docs);
  const cases = await createCases({ docs: deps.docs, logStore: deps.logStore, objects: deps.objects });
  const signer = createImageUrlSigner(deps.secretsKey, options.publicPathPrefix ?? '/api');
  const tails = createLiveTails({ bus: deps.bus, logStore: deps.logStore, log: deps.log }, options.tail);
  const counts = await createServerCounts({ docs: deps.docs, logStore: deps.logStore, bus: deps.bus });
  const notifyStored = async (notices: readonly LogsBatchStored[]): Promise<void> => {
    await deps.bus.publish(notices.map((notice) => eventMessage(LogsBatchStoredEvent, notice.serverId, notice)));
  };
  const storeDeps = { logStore: deps.logStore, objects: deps.objects, directory, log: deps.log, notifyStored, counts, players: recorder };
  const auditCopy = await createAuditCopy(deps.docs);
  const audit = createAuditPublisher({ bus: deps.bus, directory, now });
  const exportLimit = createExportLimit({ counters: deps.counters, directory, now });
  let consumer: Subscription | null = null;
  let auditCopyConsumer: Subscription | null = null;
  let retention: Worker | null = null;
  let countsPublisher: Worker | null = null;
  let liveCounts: { close(): Promise<void> } | null = null;
  let started = false;

  const control: LogsServiceControl = {
    async startConsumer() {
      if (consumer) return;
      await deps.bus.ensureTopics([TOPICS.logsIngested, TOPICS.logsStored]);
      consumer = await startBatchConsumer(deps.bus, storeDeps);
    },
    async stopConsumer() {
      const current = consumer;
      consumer = null;
      if (current) await current.stop();
    },
  };

  return {
    name: 'logs',
    ...control,
    async routes(app: FastifyInstance) {
      // app.authenticate: verifies access tokens (EdDSA, pinned options) and checks revocation against the identity read model.
      await app.register(authPlugin, { keys: deps.keys, isRevoked: (claims) => directory.isRevoked(claims) });
      // Closing the HTTP server waits for open answers, and a tail never finishes on its own: end the
      // tails (each client told to reconnect) before the server closes, not after.
      app.addHook('preClose', (done) => {
        tails.closeAll(TAIL_SHUTDOWN);
        done();
      });
      await registerLogsRoutes(app, {
        directory,
        logStore: deps.logStore,
        objects: deps.objects,
        counters: deps.counters,
        colors,
        signer,
        log: deps.log,
        now,
        audit,
        auditCopy,
        exportLimit,
        tails,
        counts,
        players,
        recorder,
        savedSearches,
        cases,
      });
    },
    async start() {
      await directory.start();
      recorder.start();
      await control.startConsumer();
      await deps.bus.ensureTopics([TOPICS.audit]);
      auditCopyConsumer = await startAuditCopyConsumer(deps.bus, auditCopy);
      retention = await startRetention(deps.jobs, { logStore: deps.logStore, objects: deps.objects, log: deps.log, counts, players: recorder }, options.retentionEveryMs);
      countsPublisher = await startCountsPublisher(deps.jobs, deps.bus, counts, options.countsEveryMs);
      await deps.bus.ensureTopics([TOPICS.logCountsLive]);
      liveCounts = startLiveCounts(counts, {
        ...(options.liveCountsEveryMs === undefined ? {} : { everyMs: options.liveCountsEveryMs }),
        onError: (error) => deps.log.warn({ err: error }, 'logs: the live counts facts failed; the servers are announced next run'),
      });
      started = true;
    },
    async stop() {
      started = false;
      // Before the consumer stops: the tails' clients get an `end` saying to reconnect, not a silent drop.
      tails.closeAll(TAIL_SHUTDOWN);
      await tails.feed.close();
      await control.stopConsumer();
      await recorder.stop();
      const copyConsumer = auditCopyConsumer;
      auditCopyConsumer = null;
      if (copyConsumer) await copyConsumer.stop();
      const worker = retention;
      retention = null;
      if (worker) await worker.close();
      const publisher = countsPublisher;
      countsPublisher = null;
      if (publisher) await publisher.close();
      const live = liveCounts;
      liveCounts = null;
      if (live) await live.close();
      await directory.stop();
    },
    async ready() {
      return started && consumer !== null && auditCopyConsumer !== null;
    },
  };
}

export const createLogsService: ServiceFactory = (deps) => createLogsServiceWith(deps);
