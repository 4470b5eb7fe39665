/**
 * The one worker of the webhooks queue: delivery attempts (delivery.ts), flushes of pending logs into
 * deliveries and the periodic sweep of pending logs (flush.ts). One queue, so one worker pool and one
 * concurrency setting per process.
 */
import type { Worker } from '@skald/ports';
import { DELIVERY_JOB, DELIVERY_QUEUE, isDeliveryJob, runDelivery } from './delivery.ts';
import type { DeliveryDeps } from './delivery.ts';
import { FLUSH_JOB, SWEEP_EVERY_MS, SWEEP_JOB, SWEEP_SCHEDULE_ID, flushWebhook, isFlushJob, sweepPending } from './flush.ts';
import type { FlushDeps } from './flush.ts';
import type { AlertEvaluator } from './alerts/alert-evaluator.ts';

export type WorkerDeps = DeliveryDeps &
  FlushDeps & {
    /** Alert rules' time-driven half (resolves, absences), and how often it runs. */
    readonly alerts: AlertEvaluator;
    readonly alertTickMs: number;
  };

export const ALERT_TICK_JOB = 'alert-tick';
export const ALERT_TICK_SCHEDULE_ID = 'webhooks-alert-tick';

export async function startWebhooksWorker(deps: WorkerDeps): Promise<Worker> {
  await deps.jobs.schedule(DELIVERY_QUEUE, SWEEP_SCHEDULE_ID, SWEEP_EVERY_MS, SWEEP_JOB, {});
  // A repeatable job: one run per period whatever the number of replicas, and kept across restarts.
  await deps.jobs.schedule(DELIVERY_QUEUE, ALERT_TICK_SCHEDULE_ID, deps.alertTickMs, ALERT_TICK_JOB, {});
  return deps.jobs.process(
    DELIVERY_QUEUE,
    async (job) => {
      if (job.name === DELIVERY_JOB && isDeliveryJob(job.data)) return runDelivery(deps, job.data);
      if (job.name === FLUSH_JOB && isFlushJob(job.data)) return void (await flushWebhook(deps, job.data.webhookId));
      if (job.name === SWEEP_JOB) return sweepPending(deps);
      if (job.name === ALERT_TICK_JOB) return deps.alerts.tick();
      deps.log.error({ jobId: job.id, name: job.name }, 'webhooks: unreadable job dropped');
    },
    { concurrency: deps.settings.concurrency },
  );
}
