/**
 * From an accepted batch of logs to waiting logs: for each of the server's served webhooks (enabled,
 * within the tier's limit, server not suspended) the logs it matches are stored as pending (pending-logs.ts)
 * and a flush of the webhook is scheduled a gather window later (flush.ts), so logs arriving over many
 * batches leave as few messages. The pending document's id is derived from the webhook and its first log,
 * so a batch the bus hands out twice adds nothing. Then the types and resources seen are noted (the
 * options projection).
 */
import type { AcceptedLog, LogsBatchAccepted } from '@skald/contracts';
import { tierOf } from '@skald/contracts';
import type { JobQueue } from '@skald/ports';
import { scheduleFlush } from './flush.ts';
import { deliveryIdOf } from './delivery-id.ts';
import type { ServerDirectory } from './limits.ts';
import { matches } from './matching.ts';
import type { PendingLogs } from './pending-logs.ts';
import type { WebhookLog } from './platforms/index.ts';
import type { SeenFields } from './seen-fields.ts';
import type { WebhookMatcher, WebhookStore } from './webhook-store.ts';

export interface RouteBatchDeps {
  readonly directory: Pick<ServerDirectory, 'server'>;
  readonly store: Pick<WebhookStore, 'filtersOf'>;
  readonly seen: SeenFields;
  readonly pending: Pick<PendingLogs, 'add'>;
  readonly jobs: Pick<JobQueue, 'add'>;
  readonly gatherMs: number;
  readonly now: () => number;
}

function toWebhookLog(log: AcceptedLog): WebhookLog {
  return { id: log.id, createdAt: log.createdAt, level: log.level, type: log.type, resource: log.resource, message: log.message, metadata: log.metadata, logType: log.logType };
}

type FiltersOf = (serverId: string) => Promise<WebhookMatcher[]>;

/**
 * Routes the batches one read of the bus brought, in order, and returns how many webhooks got logs. A
 * server's webhook filters are read from the store once for all of its batches in the read (a busy
 * server's read holds many), not once per batch. Each batch's options projection is noted once it is routed.
 */
export async function routeBatches(deps: RouteBatchDeps, batches: readonly LogsBatchAccepted[]): Promise<number> {
  const filters = new Map<string, Promise<WebhookMatcher[]>>();
  const filtersOf: FiltersOf = (serverId) => {
    let read = filters.get(serverId);
    if (read === undefined) {
      read = deps.store.filtersOf(serverId);
      filters.set(serverId, read);
    }
    return read;
  };
  let routed = 0;
  for (const batch of batches) {
    routed += await pendMatches(deps, filtersOf, batch);
    await deps.seen.note(batch.serverId, batch.logs);
  }
  return routed;
}

async function pendMatches(deps: RouteBatchDeps, filtersOf: FiltersOf, batch: LogsBatchAccepted): Promise<number> {
  const { serverId } = batch;
  const server = await deps.directory.server(serverId);
  if (server === null || server.suspended) return 0;
  const limit = tierOf(server.tier).maxWebhooks;
  if (limit <= 0) return 0;
  const served = (await filtersOf(serverId)).slice(0, limit).filter((w) => w.enabled);
  if (served.length === 0) return 0;
  const logs = batch.logs.map(toWebhookLog);
  let routed = 0;
  for (const webhook of served) {
    const matched = logs.filter((log) => matches(webhook, log));
    if (matched.length === 0) continue;
    const now = deps.now();
    await deps.pending.add(deliveryIdOf(webhook.id, matched[0]!.id), webhook.id, matched, now);
    await scheduleFlush(deps.jobs, webhook.id, now, deps.gatherMs);
    routed += 1;
  }
  return routed;
}
