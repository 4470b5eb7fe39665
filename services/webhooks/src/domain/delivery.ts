/**
 * Deliveries through the JobQueue port (BullMQ distributed, the embedded SQLite queue all-in-one): one job
 * per message (a group of matched logs for one webhook). The handler makes ONE attempt and decides what
 * comes next itself, so that a throttled answer can wait without counting as a failure and retries get
 * jitter (docs/WEBHOOKS.md):
 *   delivered  -> the webhook's last attempt is a success, failed_attempts back to 0;
 *   throttled  -> the same attempt again after Retry-After (bounded; MAX_THROTTLES times at most);
 *   failed     -> failed_attempts + 1, attempt n+1 after retryDelayMs, or a dead letter after the last one;
 *   gone (410) -> the webhook is disabled and the payload dead-lettered; refused -> dead letter at once.
 * The next attempt is a new job with a deterministic id, added before this job completes: a process killed
 * mid-attempt leaves its job active, and the queue hands it out again (embedded: on the next open; BullMQ:
 * once the lock stalls), so every matched log is delivered at least once, with the same delivery id.
 * Job data holds ids and the payload, never the URL or a secret (read from the store at send time, so an
 * edit applies to pending retries and a deleted webhook's jobs end quietly).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '@skald/ports';
import type { OutboundGuard } from '@skald/service-kit';
import { retryDelayMs } from './retry-schedule.ts';
import { GONE_REASON, sendDelivery } from './send.ts';
import type { SendSettings } from './send.ts';
import type { WebhookStore } from './webhook-store.ts';

export const DELIVERY_QUEUE = 'webhooks-delivery';
export const DELIVERY_JOB = 'deliver';
/** A throttled delivery waits this many times at most, then counts as a failed attempt. */
export const MAX_THROTTLES = 20;
/** The port's own retries cover only an infrastructure error inside the handler (the store, the queue). */
const INFRA_RETRY = { attempts: 5, backoff: { type: 'exponential', delayMs: 2_000 } } as const;

export interface DeliveryJob {
  readonly deliveryId: string;
  readonly webhookId: string;
  /** JSON body without destination credentials (platforms/index.ts). */
  readonly payload: string;
  /** 1-based attempt number (throttled waits do not count). */
  readonly attempt: number;
  readonly throttles: number;
  /** Epoch ms the matched logs were accepted, the earliest (latency figures). */
  readonly acceptedAt: number;
  /** Logs in the message. */
  readonly logCount: number;
}

export interface DeliverySettings extends SendSettings {
  /** Attempts before a dead letter (WEBHOOK_MAX_ATTEMPTS). */
  readonly maxAttempts: number;
  /** First retry delay; later ones grow x4 (WEBHOOK_RETRY_BASE_MS). */
  readonly retryBaseMs: number;
  /** Jobs run at once per process. */
  readonly concurrency: number;
  /** How long matched logs wait for more before they are packed into messages (docs/WEBHOOKS.md "Grouping"). */
  readonly gatherMs: number;
}

export const DELIVERY_DEFAULTS: DeliverySettings = { maxAttempts: 6, retryBaseMs: 5_000, concurrency: 8, gatherMs: 250, connectTimeoutMs: 5_000, timeoutMs: 15_000 };

export interface DeliveryDeps {
  readonly jobs: JobQueue;
  readonly store: WebhookStore;
  readonly guard: OutboundGuard;
  readonly settings: DeliverySettings;
  readonly log: FastifyBaseLogger;
  readonly now: () => number;
  /** Called after each successful delivery (benchmarks measure ingest-to-delivery with it). */
  readonly onDelivered?: (job: DeliveryJob) => void;
}

export function isDeliveryJob(data: unknown): data is DeliveryJob {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return typeof d['deliveryId'] === 'string' && typeof d['webhookId'] === 'string' && typeof d['payload'] === 'string' && typeof d['attempt'] === 'number';
}

export async function enqueueDelivery(jobs: JobQueue, job: DeliveryJob, delayMs = 0): Promise<void> {
  await jobs.add(DELIVERY_QUEUE, DELIVERY_JOB, job, {
    ...INFRA_RETRY,
    jobId: `${job.deliveryId}.${job.attempt}.${job.throttles}`,
    ...(delayMs > 0 ? { delayMs } : {}),
  });
}

export async function runDelivery(deps: DeliveryDeps, job: DeliveryJob): Promise<void> {
  const webhook = await deps.store.byId(job.webhookId);
  if (webhook === null) return; // Deleted since: nothing to deliver to.
  if (!webhook.enabled) {
    await deps.store.addDeadLetter(webhook, job.deliveryId, job.payload, 'The webhook is disabled.', deps.now());
    return;
  }
  const outcome = await sendDelivery(deps.guard, webhook, job.deliveryId, job.payload, deps.settings, deps.now);
  const at = deps.now();
  switch (outcome.kind) {
    case 'delivered':
      await deps.store.recordAttempt(webhook.id, { ok: true, statusCode: outcome.statusCode, at });
      deps.onDelivered?.(job);
      return;
    case 'throttled':
      if (job.throttles < MAX_THROTTLES) {
        await enqueueDelivery(deps.jobs, { ...job, throttles: job.throttles + 1 }, outcome.retryAfterMs);
        return;
      }
      return failed(deps, webhook, job, outcome.statusCode, `The receiver kept answering HTTP ${outcome.statusCode} (rate limited).`, at);
    case 'gone':
      await deps.store.recordAttempt(webhook.id, { ok: false, statusCode: outcome.statusCode, at, disable: GONE_REASON });
      await deps.store.addDeadLetter(webhook, job.deliveryId, job.payload, `${outcome.error} The webhook was disabled.`, at);
      deps.log.warn({ webhookId: webhook.id }, 'webhooks: receiver answered 410, webhook disabled');
      return;
    case 'refused':
      await deps.store.recordAttempt(webhook.id, { ok: false, statusCode: null, at });
      await deps.store.addDeadLetter(webhook, job.deliveryId, job.payload, outcome.error, at);
      return;
    case 'failed':
      return failed(deps, webhook, job, outcome.statusCode, outcome.error, at);
  }
}

async function failed(deps: DeliveryDeps, webhook: { id: string; serverId: string }, job: DeliveryJob, statusCode: number | null, error: string, at: number): Promise<void> {
  await deps.store.recordAttempt(webhook.id, { ok: false, statusCode, at });
  if (job.attempt < deps.settings.maxAttempts) {
    await enqueueDelivery(deps.jobs, { ...job, attempt: job.attempt + 1, throttles: 0 }, retryDelayMs(deps.settings.retryBaseMs, job.attempt));
    return;
  }
  await deps.store.addDeadLetter(webhook, job.deliveryId, job.payload, `${error} (after ${job.attempt} attempt${job.attempt === 1 ? '' : 's'})`, at);
  deps.log.info({ webhookId: webhook.id, attempts: job.attempt }, 'webhooks: delivery dead-lettered');
}
