/**
 * The period-end sweep (a JobQueue schedule: runs once across replicas, survives restarts): subscriptions
 * set to cancel whose period has ended revert to free, should Stripe's customer.subscription.deleted never
 * arrive.
 */
import type { JobQueue, Worker } from '@skald/ports';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingState } from './billing-state.ts';

export const PERIOD_END_QUEUE = 'billing';
const SCHEDULE_ID = 'billing.period-end';
const JOB = 'period-end';

export async function startPeriodEndSweep(jobs: JobQueue, state: BillingState, options: { everyMs: number; now: () => number; log: FastifyBaseLogger }): Promise<Worker> {
  await jobs.schedule(PERIOD_END_QUEUE, SCHEDULE_ID, options.everyMs, JOB, {});
  return jobs.process(PERIOD_END_QUEUE, async (job) => {
    if (job.name !== JOB) return;
    const ended = await state.endCancelledPeriods(options.now());
    if (ended > 0) options.log.info({ ended }, 'billing: cancelled subscriptions reverted to free at period end');
  });
}
