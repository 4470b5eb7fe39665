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

/**
 * Routes the batches one read of the bus brought, in order, and returns how many webhooks got logs. What a
 * server's logs go to (its directory entry and its webhook filters) is read once for all of its batches in
 * the read (a busy server's read holds many), not once per batch, and read again on the next read, so a
 * webhook added or a tier changed meanwhile counts from then on. Each batch's options projection is noted
 * once it is routed.
 */
export async function routeBatches(deps: RouteBatchDeps, batches: readonly LogsBatchAccepted[]): Promise<number> {
  const servedOf = onceEach((serverId: string) => readServed(deps, serverId));
  let routed = 0;
  for (const batch of batches) {
    routed += await pendMatches(deps, await servedOf(batch.serverId), batch);
    await deps.seen.note(batch.serverId, batch.logs);
  }
  return routed;
}

/** Memoizes an async read by its key for the lifetime of the returned function (one read of the bus). */
function onceEach<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const reads = new Map<string, Promise<T>>();
  return (key) => {
    let pending = reads.get(key);
    if (pending === undefined) {
      pending = read(key);
      reads.set(key, pending);
    }
    return pending;
  };
}

/** The webhooks a server's logs go to: enabled, within its tier's limit, none while it is suspended. */
async function readServed(deps: RouteBatchDeps, serverId: string): Promise<readonly WebhookMatcher[]> {
  const server = await deps.directory.server(serverId);
  if (server === null || server.suspended) return [];
  const limit = tierOf(server.tier).maxWebhooks;
  if (limit <= 0) return [];
  return (await deps.store.filtersOf(serverId)).slice(0, limit).filter((w) => w.enabled);
}

async function pendMatches(deps: RouteBatchDeps, served: readonly WebhookMatcher[], batch: LogsBatchAccepted): Promise<number> {
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
