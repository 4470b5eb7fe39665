/**
 * Flushing a webhook's pending logs into deliveries (docs/WEBHOOKS.md "Grouping"): everything waiting is
 * packed into the fewest messages the platform allows (10 embeds per Discord message, and so on), each
 * enqueued as a delivery job with an id derived from its first log, and only then removed from pending:
 * a crash in between packs the same logs again into the same delivery ids (the queue dedupes waiting jobs).
 *
 * Flush jobs are keyed by webhook and gather window (`flush.<webhook>.<window>`), so a burst of batches
 * schedules one flush per window, not one per batch. A flush that finds more logs arrived while it ran
 * schedules the next window; a periodic sweep re-schedules any webhook whose logs have waited too long
 * (a flush refused because one with the same id was running at that instant).
 */
import type { JobQueue } from '@skald/ports';
import { deliveryIdOf } from './delivery-id.ts';
import { DELIVERY_QUEUE, enqueueDelivery } from './delivery.ts';
import type { ServerDirectory } from './limits.ts';
import type { PendingLogs } from './pending-logs.ts';
import { PLATFORM_FORMATS } from './platforms/index.ts';
import type { WebhookStore } from './webhook-store.ts';

export const FLUSH_JOB = 'flush';
export const SWEEP_JOB = 'sweep-pending';
export const SWEEP_SCHEDULE_ID = 'webhooks-pending-sweep';
export const SWEEP_EVERY_MS = 5_000;
/** Pending documents (one per webhook and batch) packed per flush; the rest go in the next window. */
const MAX_DOCS_PER_FLUSH = 500;

export interface FlushDeps {
  readonly jobs: JobQueue;
  readonly store: WebhookStore;
  readonly pending: PendingLogs;
  readonly directory: ServerDirectory;
  readonly gatherMs: number;
  readonly now: () => number;
}

export interface FlushJob {
  readonly webhookId: string;
}

export function isFlushJob(data: unknown): data is FlushJob {
  return typeof data === 'object' && data !== null && typeof (data as Record<string, unknown>)['webhookId'] === 'string';
}

/** Schedules the webhook's flush at the end of the current gather window (one job per window). */
export async function scheduleFlush(jobs: Pick<JobQueue, 'add'>, webhookId: string, now: number, gatherMs: number): Promise<void> {
  const window = Math.floor(now / gatherMs) + 1;
  await jobs.add(DELIVERY_QUEUE, FLUSH_JOB, { webhookId } satisfies FlushJob, {
    jobId: `flush.${webhookId}.${window}`,
    delayMs: Math.max(0, window * gatherMs - now),
    attempts: 5,
    backoff: { type: 'exponential', delayMs: 1_000 },
  });
}

export async function flushWebhook(deps: FlushDeps, webhookId: string): Promise<number> {
  const webhook = await deps.store.byId(webhookId);
  if (webhook === null) {
    await deps.pending.removeOf(webhookId);
    return 0;
  }
  const waiting = await deps.pending.take(webhookId, MAX_DOCS_PER_FLUSH);
  if (waiting === null) return 0;
  const serverName = (await deps.directory.server(webhook.serverId))?.name ?? webhook.serverId;
  const format = PLATFORM_FORMATS[webhook.platform];
  const groups = format.pack(waiting.logs);
  for (const group of groups) {
    const deliveryId = deliveryIdOf(webhook.id, group[0]!.id);
    const payload = JSON.stringify(format.build(group, { deliveryId, serverName, webhookId: webhook.id }));
    await enqueueDelivery(deps.jobs, { deliveryId, webhookId: webhook.id, payload, attempt: 1, throttles: 0, acceptedAt: waiting.acceptedAt, logCount: group.length });
  }
  await deps.pending.remove(waiting.ids);
  if ((await deps.pending.count(webhookId)) > 0) await scheduleFlush(deps.jobs, webhookId, deps.now() + deps.gatherMs, deps.gatherMs);
  return groups.length;
}

/** The safety net: every webhook whose logs waited longer than two sweeps gets a flush scheduled. */
export async function sweepPending(deps: FlushDeps): Promise<void> {
  const now = deps.now();
  for (const webhookId of await deps.pending.waitingSince(now - SWEEP_EVERY_MS)) await scheduleFlush(deps.jobs, webhookId, now, deps.gatherMs);
}
