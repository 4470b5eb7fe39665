/**
 * From an accepted batch of logs to delivery jobs: for each of the server's served webhooks (enabled,
 * within the tier's limit, server not suspended) the logs it matches, packed into the few messages its platform allows (up to 10 embeds
 * per Discord message and so on: a burst becomes a handful of messages, not a flood). Each message gets
 * a delivery id derived from the webhook and its first log, so a batch the bus hands out twice enqueues
 * the same jobs (deduplicated by job id) instead of new ones. Then the types and resources seen are noted
 * (the options projection).
 */
import { createHash } from 'node:crypto';
import type { AcceptedLog, LogsBatchAccepted } from '@skald/contracts';
import { tierOf } from '@skald/contracts';
import type { JobQueue } from '@skald/ports';
import { enqueueDelivery } from './delivery.ts';
import type { ServerDirectory } from './limits.ts';
import { matches } from './matching.ts';
import { PLATFORM_FORMATS } from './platforms/index.ts';
import type { WebhookLog } from './platforms/index.ts';
import type { SeenFields } from './seen-fields.ts';
import type { WebhookStore } from './webhook-store.ts';

export interface RouteBatchDeps {
  readonly directory: ServerDirectory;
  readonly store: WebhookStore;
  readonly seen: SeenFields;
  readonly jobs: JobQueue;
}

export function deliveryIdOf(webhookId: string, firstLogId: string): string {
  return `msg_${createHash('sha256').update(`${webhookId}:${firstLogId}`).digest('hex').slice(0, 32)}`;
}

function toWebhookLog(log: AcceptedLog): WebhookLog {
  return { id: log.id, createdAt: log.createdAt, level: log.level, type: log.type, resource: log.resource, message: log.message, metadata: log.metadata, logType: log.logType };
}

/** Returns how many delivery jobs were enqueued. The options projection is noted last, once routing is done. */
export async function routeBatch(deps: RouteBatchDeps, batch: LogsBatchAccepted): Promise<number> {
  const enqueued = await enqueueMatches(deps, batch);
  await deps.seen.note(batch.serverId, batch.logs);
  return enqueued;
}

async function enqueueMatches(deps: RouteBatchDeps, batch: LogsBatchAccepted): Promise<number> {
  const { serverId } = batch;
  const server = await deps.directory.server(serverId);
  if (server === null || server.suspended) return 0;
  const limit = tierOf(server.tier).maxWebhooks;
  if (limit <= 0) return 0;
  const served = (await deps.store.filtersOf(serverId)).slice(0, limit).filter((w) => w.enabled);
  if (served.length === 0) return 0;
  const logs = batch.logs.map(toWebhookLog);
  const acceptedAt = Math.min(...logs.map((l) => l.createdAt));
  let enqueued = 0;
  for (const webhook of served) {
    const matched = logs.filter((log) => matches(webhook, log));
    if (matched.length === 0) continue;
    const format = PLATFORM_FORMATS[webhook.platform];
    for (const group of format.pack(matched)) {
      const deliveryId = deliveryIdOf(webhook.id, group[0]!.id);
      const payload = JSON.stringify(format.build(group, { deliveryId, serverName: server.name, webhookId: webhook.id }));
      await enqueueDelivery(deps.jobs, { deliveryId, webhookId: webhook.id, payload, attempt: 1, throttles: 0, acceptedAt });
      enqueued += 1;
    }
  }
  return enqueued;
}
