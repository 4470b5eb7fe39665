/**
 * The webhooks service: owners and admins configure webhooks per server; the service consumes
 * the accepted-logs events with its own consumer group, matches each log against the server's webhooks and
 * delivers them to nine platforms through the job queue, with retries, dead letters and replay
 * (docs/WEBHOOKS.md). Every connection to a receiver goes through deps.outbound (the service kit's guard).
 */
import type { FastifyInstance } from 'fastify';
import { TOPICS } from '@skald/contracts';
import type { Subscription, Worker } from '@skald/ports';
import { authPlugin, createAuditPublisher, createIdentityReadModel, createSecretBox } from '@skald/service-kit';
import type { OutboundGuard, ServiceDeps, ServiceFactory, ServiceModule } from '@skald/service-kit';
import { DELIVERY_DEFAULTS } from './domain/delivery.ts';
import type { DeliveryJob, DeliverySettings } from './domain/delivery.ts';
import { createAlertEvaluator } from './domain/alerts/alert-evaluator.ts';
import { createAlertStore } from './domain/alerts/alert-store.ts';
import { createPendingLogs } from './domain/pending-logs.ts';
import { createSeenFields } from './domain/seen-fields.ts';
import { createWebhookStore } from './domain/webhook-store.ts';
import { startWebhooksWorker } from './domain/worker.ts';
import { startAlertConsumer } from './events/alert-consumer.ts';
import { startBatchConsumer } from './events/batch-consumer.ts';
import { registerWebhooksRoutes } from './http/routes.ts';

/** Alert rules need time to pass to resolve or fire on silence: evaluated this often (rule windows are 60 s and more). */
export const ALERT_TICK_MS = 5_000;
/** Alert counts kept in memory are written this often at most, per server and replica (docs/ALERTS.md, "Cost"). */
export const ALERT_FLUSH_MS = 1_000;

export interface WebhooksServiceOptions {
  /** Retry schedule, concurrency and timeouts; default DELIVERY_DEFAULTS with deps.webhookDelivery over it. */
  readonly delivery?: Partial<DeliverySettings>;
  /** The guard every receiver connection goes through; default deps.outbound. */
  readonly outbound?: OutboundGuard;
  /** The clock of delivery state and dead letters; default Date.now. */
  readonly now?: () => number;
  /** How often alert rules are evaluated without logs (resolves, absences); default ALERT_TICK_MS. */
  readonly alertTickMs?: number;
  /** The shortest rule window; default deps.alerts.minWindowSeconds (ALERT_MIN_WINDOW_SECONDS), else 60. */
  readonly alertMinWindowSeconds?: number;
  /** How often each replica writes the alert counts it keeps in memory, at most (ms); 0 after every bus read. Default 1000. */
  readonly alertFlushMs?: number;
  /** Called after each evaluation tick of the alert rules (tests count ticks instead of sleeping). */
  readonly onAlertTick?: () => void;
  /** Called after each successful queued delivery (benchmarks). */
  readonly onDelivered?: (job: DeliveryJob) => void;
}

/** Stop and restart the delivery worker alone (tests that hold deliveries back). */
export interface WebhooksServiceControl {
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
}

export async function createWebhooksServiceWith(deps: ServiceDeps, options: WebhooksServiceOptions = {}): Promise<ServiceModule & WebhooksServiceControl> {
  const now = options.now ?? Date.now;
  const guard = options.outbound ?? deps.outbound;
  const settings: DeliverySettings = { ...DELIVERY_DEFAULTS, ...deps.webhookDelivery, ...options.delivery };
  const directory = await createIdentityReadModel({ bus: deps.bus, docs: deps.docs, group: 'webhooks.identity' });
  const store = await createWebhookStore(deps.docs, createSecretBox(deps.secretsKey));
  const seen = await createSeenFields(deps.docs);
  const pending = await createPendingLogs(deps.docs);
  const audit = createAuditPublisher({ bus: deps.bus, directory });
  const alerts = await createAlertStore(deps.docs);
  const alertFlushMs = options.alertFlushMs ?? ALERT_FLUSH_MS;
  const evaluator = createAlertEvaluator({ alerts, webhooks: store, directory, jobs: deps.jobs, publicUrl: deps.publicUrl, log: deps.log, now }, { flushMs: alertFlushMs });
  const minWindowSeconds = options.alertMinWindowSeconds ?? deps.alerts?.minWindowSeconds ?? 60;
  let consumer: Subscription | null = null;
  let alertConsumer: Subscription | null = null;
  let worker: Worker | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let started = false;

  const control: WebhooksServiceControl = {
    async startWorker() {
      if (worker) return;
      worker = await startWebhooksWorker({
        jobs: deps.jobs,
        store,
        pending,
        directory,
        gatherMs: settings.gatherMs,
        guard,
        settings,
        log: deps.log,
        now,
        alerts: options.onAlertTick ? { ...evaluator, tick: async () => (await evaluator.tick(), options.onAlertTick!()) } : evaluator,
        alertTickMs: options.alertTickMs ?? ALERT_TICK_MS,
        ...(options.onDelivered ? { onDelivered: options.onDelivered } : {}),
      });
    },
    async stopWorker() {
      const current = worker;
      worker = null;
      if (current) await current.close();
    },
  };

  return {
    name: 'webhooks',
    ...control,
    async routes(app: FastifyInstance) {
      await app.register(authPlugin, { keys: deps.keys, isRevoked: (claims) => directory.isRevoked(claims) });
      await registerWebhooksRoutes(app, { directory, store, seen, guard, send: settings, audit, log: deps.log, now, alerts, minWindowSeconds, publicUrl: deps.publicUrl });
    },
    async start() {
      await directory.start();
      await deps.bus.ensureTopics([TOPICS.logsIngested, TOPICS.audit]);
      await control.startWorker();
      consumer = await startBatchConsumer(deps.bus, { directory, store, seen, pending, jobs: deps.jobs, gatherMs: settings.gatherMs, now });
      alertConsumer = await startAlertConsumer(deps.bus, evaluator);
      // Each replica writes the counts it keeps in memory (its own memory: a timer per process, not a job).
      if (alertFlushMs > 0) {
        flushTimer = setInterval(() => void evaluator.flush().catch((error: unknown) => deps.log.error({ err: error }, 'alerts: writing counts failed')), alertFlushMs);
        flushTimer.unref();
      }
      started = true;
    },
    async stop() {
      started = false;
      const current = consumer;
      consumer = null;
      if (current) await current.stop();
      const currentAlerts = alertConsumer;
      alertConsumer = null;
      if (currentAlerts) await currentAlerts.stop();
      if (flushTimer) clearInterval(flushTimer);
      flushTimer = null;
      // What this replica counted and did not write yet: stopping loses nothing.
      await evaluator.flush();
      await control.stopWorker();
      await directory.stop();
    },
    async ready() {
      return started && consumer !== null && alertConsumer !== null && worker !== null;
    },
  };
}

export const createWebhooksService: ServiceFactory = (deps) => createWebhooksServiceWith(deps);
