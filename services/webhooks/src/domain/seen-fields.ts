/**
 * The log types and resources seen in a server's logs, for GET /webhooks/options (the add form's
 * choices). The webhooks service never reads the logs store: it keeps this small projection from the same
 * accepted-logs events it delivers from. Values are kept as first seen, deduplicated case-insensitively
 * (matching is case-insensitive), at most SEEN_FIELDS_KEPT of each per server; the store is written only
 * when a batch brings something new, and a per-process cache spares the read on every batch.
 */
import type { Collection, DocumentStore } from '@skald/ports';
import type { WebhookLog } from './platforms/index.ts';

export const SEEN_FIELDS_KEPT = 200;

interface SeenDoc {
  readonly _id: string;
  readonly types: readonly string[];
  readonly resources: readonly string[];
}

export interface SeenFields {
  note(serverId: string, logs: readonly Pick<WebhookLog, 'type' | 'resource'>[]): Promise<void>;
  of(serverId: string): Promise<{ types: string[]; resources: string[] }>;
}

function merge(known: readonly string[], values: Iterable<string>): string[] | null {
  const seen = new Set(known.map((v) => v.toLowerCase()));
  const next = [...known];
  for (const value of values) {
    if (next.length >= SEEN_FIELDS_KEPT) break;
    const trimmed = value.trim();
    if (trimmed === '' || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    next.push(trimmed);
  }
  return next.length === known.length ? null : next;
}

export async function createSeenFields(docs: DocumentStore): Promise<SeenFields> {
  const collection: Collection<SeenDoc> = await docs.collection<SeenDoc>('seen_fields');
  const cache = new Map<string, SeenDoc>();
  const load = async (serverId: string): Promise<SeenDoc> => {
    const cached = cache.get(serverId);
    if (cached) return cached;
    const doc = (await collection.findOne({ _id: serverId })) ?? { _id: serverId, types: [], resources: [] };
    cache.set(serverId, doc);
    return doc;
  };
  return {
    async note(serverId, logs) {
      const current = await load(serverId);
      const types = merge(current.types, logs.map((l) => l.type));
      const resources = merge(current.resources, logs.map((l) => l.resource));
      if (types === null && resources === null) return;
      const next: SeenDoc = { _id: serverId, types: types ?? current.types, resources: resources ?? current.resources };
      await collection.updateOne({ _id: serverId }, { $set: { types: next.types, resources: next.resources } }, { upsert: true });
      cache.set(serverId, next);
    },
    async of(serverId) {
      // Read from the store: another replica may have noted values this process has not seen.
      const doc = await collection.findOne({ _id: serverId });
      const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort((a, b) => a.localeCompare(b));
      return { types: sorted(doc?.types), resources: sorted(doc?.resources) };
    },
  };
}
