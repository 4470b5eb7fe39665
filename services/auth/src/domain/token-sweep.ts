/**
 * Expired password-reset tokens and 2FA pre-tokens are refused when used, whatever their age; this
 * repeatable job on the JobQueue port removes the dead rows so they do not pile up. One schedule id, so
 * every instance (and every restart) shares one series instead of adding its own.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue, Worker } from '@skald/ports';
import type { AuthStore } from './store.ts';

export const TOKEN_SWEEP_QUEUE = 'auth-token-sweep';
export const TOKEN_SWEEP_SCHEDULE_ID = 'auth-token-sweep-expired';
export const TOKEN_SWEEP_JOB = 'sweep-expired-tokens';
export const TOKEN_SWEEP_EVERY_MS = 10 * 60_000;

/** Deletes reset tokens and pre-tokens expired at `now`; returns how many went. */
export async function sweepExpiredTokens(store: Pick<AuthStore, 'preTokens' | 'resetTokens'>, now: number): Promise<number> {
  const preTokens = await store.preTokens.deleteMany({ expiresAt: { $lte: now } });
  const resetTokens = await store.resetTokens.deleteMany({ expiresAt: { $lte: now } });
  return preTokens + resetTokens;
}

/** Schedules the sweep (idempotent: same schedule id) and starts its worker; close the worker on stop. */
export async function startTokenSweep(
  jobs: JobQueue,
  deps: { readonly store: Pick<AuthStore, 'preTokens' | 'resetTokens'>; readonly log: FastifyBaseLogger },
  everyMs = TOKEN_SWEEP_EVERY_MS,
): Promise<Worker> {
  await jobs.schedule(TOKEN_SWEEP_QUEUE, TOKEN_SWEEP_SCHEDULE_ID, everyMs, TOKEN_SWEEP_JOB, {});
  return jobs.process(TOKEN_SWEEP_QUEUE, async (job) => {
    if (job.name !== TOKEN_SWEEP_JOB) return;
    const removed = await sweepExpiredTokens(deps.store, Date.now());
    if (removed > 0) deps.log.info({ removed }, 'auth: removed expired reset tokens and 2FA pre-tokens');
  });
}
