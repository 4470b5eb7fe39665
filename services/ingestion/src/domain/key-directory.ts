/**
 * The ingestion service's own read model of API keys: key hash -> server, tier, suspension.
 *
 * Built from identity events (never by calling the auth service), persisted in the service's document
 * store so a restart does not need the whole event history, and mirrored in memory so the hot path
 * (`lookup`) is a Map read. Other replicas of the service apply changes they did not consume themselves
 * by polling the store for documents updated since their last sync (`refresh`, driven by
 * replica-refresh.ts), so a rotated key or a suspension takes effect everywhere within one refresh interval.
 *
 * One method per identity fact (events/identity-consumer.ts routes them here): store first, then memory,
 * so a crash in between is repaired by redelivery. Events carry full values (not deltas), so applying
 * one twice is harmless.
 */
import { tierOf } from '@skald/contracts';
import type { ApiKeyRotated, ServerCreated, ServerDeleted, ServerSuspensionChanged, ServerTierChanged, Tier } from '@skald/contracts';
import type { BaseDocument, Collection, DocumentStore } from '@skald/ports';

export interface ServerDoc extends BaseDocument {
  readonly tier?: string;
  readonly suspended?: boolean;
  /** sha256 hex of the current API key; null when none was issued or the server is deleted. */
  readonly keyHash?: string | null;
  readonly deleted?: boolean;
  /** Epoch ms of the last change, for replicas to pick up changes (`refresh`). */
  readonly updatedAt: number;
}

export interface KeyOwner {
  readonly serverId: string;
  readonly tier: Tier;
  readonly suspended: boolean;
}

interface ServerState {
  readonly tier: string;
  readonly suspended: boolean;
  readonly keyHash: string | null;
  readonly deleted: boolean;
}

export const SERVERS_COLLECTION = 'servers';
/** Clock skew allowance between replicas when asking for documents changed since the last sync. */
const REFRESH_OVERLAP_MS = 5_000;

export class KeyDirectory {
  private readonly collection: Collection<ServerDoc>;
  private readonly servers = new Map<string, ServerState>();
  private readonly keys = new Map<string, string>();
  private lastSync = 0;
  private readonly now: () => number;

  private constructor(collection: Collection<ServerDoc>, now: () => number) {
    this.collection = collection;
    this.now = now;
  }

  static async open(docs: DocumentStore, now: () => number = Date.now): Promise<KeyDirectory> {
    const collection = await docs.collection<ServerDoc>(SERVERS_COLLECTION, [{ fields: ['updatedAt'] }]);
    return new KeyDirectory(collection, now);
  }

  /** Hot path: the server owning the key, or null. */
  lookup(keyHash: string): KeyOwner | null {
    const serverId = this.keys.get(keyHash);
    if (serverId === undefined) return null;
    const state = this.servers.get(serverId);
    if (state === undefined || state.deleted) return null;
    return { serverId, tier: tierOf(state.tier), suspended: state.suspended };
  }

  /** Server state by id (for tests and diagnostics). */
  server(serverId: string): KeyOwner | null {
    const state = this.servers.get(serverId);
    if (state === undefined || state.deleted) return null;
    return { serverId, tier: tierOf(state.tier), suspended: state.suspended };
  }

  get size(): number {
    return this.keys.size;
  }

  /** Loads every persisted server into memory (startup). */
  async load(): Promise<void> {
    const started = this.now();
    for (const doc of await this.collection.find({})) this.remember(doc);
    this.lastSync = started;
  }

  /** Applies documents other replicas changed since the last sync. */
  async refresh(): Promise<number> {
    const started = this.now();
    const changed = await this.collection.find({ updatedAt: { $gte: this.lastSync - REFRESH_OVERLAP_MS } });
    for (const doc of changed) this.remember(doc);
    this.lastSync = started;
    return changed.length;
  }

  async serverCreated(data: ServerCreated): Promise<void> {
    await this.set(data.serverId, { tier: data.tier, suspended: data.suspended, deleted: false });
  }

  async tierChanged(data: ServerTierChanged): Promise<void> {
    await this.set(data.serverId, { tier: data.tier });
  }

  async suspensionChanged(data: ServerSuspensionChanged): Promise<void> {
    await this.set(data.serverId, { suspended: data.suspended });
  }

  /** The previous key stops resolving at once, even if the server's document was never loaded here. */
  async keyRotated(data: ApiKeyRotated): Promise<void> {
    await this.set(data.serverId, { keyHash: data.keyHash });
    if (data.previousKeyHash !== null && this.keys.get(data.previousKeyHash) === data.serverId) {
      this.keys.delete(data.previousKeyHash);
    }
  }

  async serverDeleted(data: ServerDeleted): Promise<void> {
    await this.set(data.serverId, { deleted: true, keyHash: null });
  }

  private async set(serverId: string, fields: Partial<Omit<ServerDoc, '_id' | 'updatedAt'>>): Promise<void> {
    const now = this.now();
    const updated = await this.collection.findOneAndUpdate({ _id: serverId }, { $set: { ...fields, updatedAt: now } });
    if (updated !== null) {
      this.remember(updated);
      return;
    }
    await this.collection.updateOne({ _id: serverId }, { $set: { ...fields, updatedAt: now } }, { upsert: true });
    const inserted = await this.collection.findOne({ _id: serverId });
    if (inserted !== null) this.remember(inserted);
  }

  private remember(doc: ServerDoc): void {
    const previous = this.servers.get(doc._id);
    const state: ServerState = {
      tier: doc.tier ?? 'free',
      suspended: doc.suspended === true,
      keyHash: doc.keyHash ?? null,
      deleted: doc.deleted === true,
    };
    if (previous?.keyHash && previous.keyHash !== state.keyHash && this.keys.get(previous.keyHash) === doc._id) {
      this.keys.delete(previous.keyHash);
    }
    this.servers.set(doc._id, state);
    if (state.keyHash !== null && !state.deleted) this.keys.set(state.keyHash, doc._id);
  }
}
