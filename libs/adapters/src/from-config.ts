/**
 * Builds every adapter a Skald process needs from its validated configuration.
 * Data locations in embedded mode (all under DATA_DIR):
 *   bus journal DATA_DIR/bus/journal.db · logs DATA_DIR/logs/logs.db · players DATA_DIR/logs/players.db · jobs DATA_DIR/jobs/jobs.db
 *   objects DATA_DIR/objects · outbox DATA_DIR/outbox · each service's documents DATA_DIR/<service>/documents.db
 * In MongoDB each service has its own database `skald_<service>`; the log store uses `skald_logs`.
 */
import { join } from 'node:path';
import type { Counters, DocumentStore, EventBus, JobQueue, LogStore, Mailer, ObjectStore, Payments, PlayerStore } from '@skald/ports';
import type { SkaldConfig } from '@skald/config';
import { HISTORY_TOPICS } from '@skald/contracts';
import { createCounters } from './counters/index.ts';
import type { CountersConfig } from './counters/index.ts';
import { createDocumentStore } from './document-store/index.ts';
import type { DocumentStoreConfig } from './document-store/index.ts';
import { createEventBus } from './event-bus/index.ts';
import type { EventBusConfig } from './event-bus/index.ts';
import { createMailer } from './mailer/index.ts';
import type { MailerConfig } from './mailer/index.ts';
import { createLogStore } from './log-store/index.ts';
import type { LogStoreConfig } from './log-store/index.ts';
import { createObjectStore } from './object-store/index.ts';
import type { ObjectStoreConfig } from './object-store/index.ts';
import { createPlayerStore } from './player-store/index.ts';
import type { PlayerStoreConfig } from './player-store/index.ts';
import { createJobQueue } from './job-queue/index.ts';
import { openedAdapters } from './opened-adapters.ts';
import { createPayments } from './payments/index.ts';
import type { PaymentsConfig } from './payments/index.ts';
import type { JobQueueConfig } from './job-queue/index.ts';

export function eventBusConfig(config: SkaldConfig): EventBusConfig {
  // Every process gets the same list: one that trimmed a history topic would cost every consumer
  // group added later its history (see HISTORY_TOPICS).
  const historyTopics = HISTORY_TOPICS;
  switch (config.adapters.eventBus) {
    case 'memory':
      return { kind: 'memory', file: join(config.dataDir, 'bus', 'journal.db'), historyTopics };
    case 'redis': {
      const redis = need(config.redis, 'REDIS_URL');
      return { kind: 'redis', url: redis.url, prefix: `${redis.prefix}:bus:`, historyTopics };
    }
    case 'kafka': {
      const kafka = need(config.kafka, 'KAFKA_BROKERS');
      return {
        kind: 'kafka',
        brokers: kafka.brokers,
        clientId: kafka.clientId,
        historyTopics,
        ...(kafka.replicationFactor !== undefined ? { replicationFactor: kafka.replicationFactor } : {}),
        ...(kafka.topicProvisioning !== undefined ? { topicProvisioning: kafka.topicProvisioning } : {}),
        ...(kafka.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: kafka.sessionTimeoutMs } : {}),
        ...(kafka.fetchMaxWaitMs !== undefined ? { fetchMaxWaitMs: kafka.fetchMaxWaitMs } : {}),
      };
    }
  }
}

/** Each service's own document store: its own SQLite file or its own Mongo database. */
export function documentStoreConfig(config: SkaldConfig, service: string): DocumentStoreConfig {
  if (!/^[a-z][a-z0-9-]*$/.test(service)) throw new Error(`invalid service name for a document store: ${service}`);
  return config.adapters.docStore === 'sqlite'
    ? { kind: 'sqlite', file: join(config.dataDir, service, 'documents.db') }
    : { kind: 'mongo', url: need(config.mongoUrl, 'MONGO_URL'), database: `skald_${service}` };
}

export function logStoreConfig(config: SkaldConfig): LogStoreConfig {
  return config.adapters.logStore === 'sqlite'
    ? { kind: 'sqlite', file: logStoreFile(config), layout: config.adapters.logLayout }
    : { kind: 'mongo', url: need(config.mongoUrl, 'MONGO_URL'), database: 'skald_logs' };
}

const logStoreFile = (config: SkaldConfig): string => join(config.dataDir, 'logs', 'logs.db');

/** The logs service's players: beside its logs (the same adapter kind, the same Mongo database). */
export function playerStoreConfig(config: SkaldConfig): PlayerStoreConfig {
  return config.adapters.logStore === 'sqlite'
    ? { kind: 'sqlite', file: join(config.dataDir, 'logs', 'players.db'), logFile: logStoreFile(config) }
    : { kind: 'mongo', url: need(config.mongoUrl, 'MONGO_URL'), database: 'skald_logs' };
}

export function objectStoreConfig(config: SkaldConfig): ObjectStoreConfig {
  return config.adapters.objectStore === 'fs' ? { kind: 'fs', root: join(config.dataDir, 'objects') } : { kind: 'minio', ...need(config.s3, 'S3_ENDPOINT') };
}

export function jobQueueConfig(config: SkaldConfig): JobQueueConfig {
  if (config.adapters.jobQueue === 'embedded') return { kind: 'embedded', file: join(config.dataDir, 'jobs', 'jobs.db') };
  const redis = need(config.redis, 'REDIS_URL');
  return { kind: 'bullmq', url: redis.url, prefix: `${redis.prefix}:jobs` };
}

export function countersConfig(config: SkaldConfig): CountersConfig {
  if (config.adapters.counters === 'memory') return { kind: 'memory' };
  const redis = need(config.redis, 'REDIS_URL');
  return { kind: 'redis', url: redis.url, prefix: `${redis.prefix}:counters:` };
}

export function mailerConfig(config: SkaldConfig, publishLine?: (line: string) => void): MailerConfig {
  return config.adapters.mailer === 'outbox'
    ? { kind: 'outbox', dir: join(config.dataDir, 'outbox'), from: config.mailFrom, ...(publishLine ? { publishLine } : {}) }
    : { kind: 'smtp', url: need(config.smtpUrl, 'SMTP_URL'), from: config.mailFrom };
}

function need<T>(value: T | undefined, variable: string): T {
  // loadConfig already refuses these combinations; this guards hand-built configs in tests.
  if (value === undefined) throw new Error(`Invalid configuration: ${variable} is required for the chosen adapter`);
  return value;
}

export const createLogStoreFromConfig = (config: SkaldConfig): Promise<LogStore> => createLogStore(logStoreConfig(config));
export const createPlayerStoreFromConfig = (config: SkaldConfig): Promise<PlayerStore> => createPlayerStore(playerStoreConfig(config));
export const createObjectStoreFromConfig = (config: SkaldConfig): Promise<ObjectStore> => createObjectStore(objectStoreConfig(config));
export const createJobQueueFromConfig = (config: SkaldConfig): Promise<JobQueue> => createJobQueue(jobQueueConfig(config));

/** Infrastructure shared by every service of a process (the document stores are per service). */
export interface SharedAdapters {
  readonly bus: EventBus;
  readonly logStore: LogStore;
  readonly objects: ObjectStore;
  readonly jobs: JobQueue;
  readonly counters: Counters;
  readonly mailer: Mailer;
  /** Closes everything that was opened, in reverse order, reporting the first failure after trying all. */
  close(): Promise<void>;
}

export interface SharedAdapterOptions {
  /** The outbox mailer's one-line notice per mail (all-in-one prints it to the log). */
  readonly publishLine?: (line: string) => void;
}

export async function createSharedAdapters(config: SkaldConfig, options: SharedAdapterOptions = {}): Promise<SharedAdapters> {
  const { open, closeAll } = openedAdapters();
  try {
    const bus = await open(() => createEventBus(eventBusConfig(config)));
    const logStore = await open(() => createLogStoreFromConfig(config));
    const objects = await open(() => createObjectStoreFromConfig(config));
    const jobs = await open(() => createJobQueueFromConfig(config));
    const counters = await open(() => createCounters(countersConfig(config)));
    const mailer = await open(() => createMailer(mailerConfig(config, options.publishLine)));
    return { bus, logStore, objects, jobs, counters, mailer, close: closeAll };
  } catch (error) {
    await closeAll().catch(() => undefined);
    throw error;
  }
}

export async function createServiceDocumentStore(config: SkaldConfig, service: string): Promise<DocumentStore> {
  return createDocumentStore(documentStoreConfig(config, service));
}

/** The billing service's payments: the Stripe adapter when STRIPE_SECRET_KEY is set, else none (503 answers). */
export function paymentsConfig(config: SkaldConfig): PaymentsConfig {
  const stripe = config.stripe;
  if (!stripe) return { kind: 'none' };
  return {
    kind: 'stripe',
    secretKey: stripe.secretKey,
    ...(stripe.webhookSecret ? { webhookSecret: stripe.webhookSecret } : {}),
    ...(stripe.apiBase ? { apiBase: stripe.apiBase } : {}),
    webhookToleranceSeconds: stripe.webhookToleranceSeconds,
    prices: stripe.prices,
  };
}

export const createPaymentsFromConfig = (config: SkaldConfig): Promise<Payments | null> => createPayments(paymentsConfig(config));
