/**
 * Matched logs waiting to be packed into messages (docs/WEBHOOKS.md "Grouping"). The bus hands the
 * service one accepted batch at a time, often a few logs each; sending each batch's matches as their own
 * message would turn a busy server into a flood of one-embed Discord messages. So the consumer stores the
 * matched logs here (one document per webhook and batch, durable before the bus offset is committed) and
 * schedules a flush of the webhook a short gather window later; the flush packs everything waiting into as
 * few messages as the platform allows and enqueues them as deliveries, then removes what it packed.
 */
import type { Collection, DocumentStore } from '@skald/ports';
import { DuplicateKeyError } from '@skald/ports';
import type { WebhookLog } from './platforms/index.ts';

interface PendingDoc {
  readonly _id: string;
  readonly webhookId: string;
  readonly logs: readonly WebhookLog[];
  /** Epoch ms the logs were accepted (the earliest), for latency figures. */
  readonly acceptedAt: number;
  readonly createdAt: number;
}

export interface PendingGroup {
  readonly ids: readonly string[];
  readonly logs: readonly WebhookLog[];
  readonly acceptedAt: number;
}

export interface PendingLogs {
  /** Idempotent on id (a redelivered batch adds nothing). */
  add(id: string, webhookId: string, logs: readonly WebhookLog[], now: number): Promise<void>;
  /** The oldest waiting logs of a webhook, at most `maxDocs` documents, in acceptance order. */
  take(webhookId: string, maxDocs: number): Promise<PendingGroup | null>;
  remove(ids: readonly string[]): Promise<void>;
  count(webhookId: string): Promise<number>;
  /** Webhooks with logs waiting since before `before` (the sweep's safety net). */
  waitingSince(before: number): Promise<string[]>;
  removeOf(webhookId: string): Promise<void>;
}

export async function createPendingLogs(docs: DocumentStore): Promise<PendingLogs> {
  const pending: Collection<PendingDoc> = await docs.collection<PendingDoc>('pending_logs', [{ fields: ['webhookId', 'createdAt'] }, { fields: ['createdAt'] }]);
  return {
    async add(id, webhookId, logs, now) {
      try {
        await pending.insertOne({ _id: id, webhookId, logs, acceptedAt: Math.min(...logs.map((l) => l.createdAt)), createdAt: now });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    },
    async take(webhookId, maxDocs) {
      const found = await pending.find({ webhookId }, { sort: { createdAt: 1, _id: 1 }, limit: maxDocs });
      if (found.length === 0) return null;
      const logs = found.flatMap((d) => d.logs).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return { ids: found.map((d) => d._id), logs, acceptedAt: Math.min(...found.map((d) => d.acceptedAt)) };
    },
    async remove(ids) {
      if (ids.length > 0) await pending.deleteMany({ _id: { $in: [...ids] } });
    },
    count: (webhookId) => pending.count({ webhookId }),
    async waitingSince(before) {
      const old = await pending.find({ createdAt: { $lt: before } }, { limit: 1000 });
      return [...new Set(old.map((d) => d.webhookId))];
    },
    async removeOf(webhookId) {
      await pending.deleteMany({ webhookId });
    },
  };
}
