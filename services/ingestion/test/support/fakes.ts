/**
 * Small in-memory port implementations for the ingestion tests: a recording event bus (with a switch to
 * make publishing fail), a map-backed object store and a document store covering the query subset the
 * service uses. The real embedded adapters are exercised by their own contract suites.
 */
import { Readable } from 'node:stream';
import type {
  BaseDocument,
  BusMessage,
  Collection,
  DocumentStore,
  EventBus,
  Filter,
  FieldOperators,
  ObjectInfo,
  ObjectStore,
  PublishInput,
  Scalar,
  StoredObject,
  SubscribeOptions,
  Subscription,
  Update,
} from '@skald/ports';

export class RecordingBus implements EventBus {
  readonly published: PublishInput[] = [];
  readonly subscriptions: SubscribeOptions[] = [];
  publishCalls = 0;
  failPublish = false;

  async ensureTopics(): Promise<void> {}

  async publish(messages: readonly PublishInput[]): Promise<void> {
    this.publishCalls += 1;
    if (this.failPublish) throw new Error('bus unavailable');
    this.published.push(...messages);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.subscriptions.push(options);
    return { stop: async () => undefined };
  }

  /** Delivers a message to every subscriber of its topic, as the bus would. */
  async deliver(message: Omit<BusMessage, 'attempt'>): Promise<void> {
    for (const sub of this.subscriptions) {
      if (sub.topics.includes(message.topic)) await sub.handler({ ...message, attempt: 1 });
    }
  }

  async close(): Promise<void> {}
}

export class MapObjectStore implements ObjectStore {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  failPut = false;

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<ObjectInfo> {
    if (this.failPut) throw new Error('object store unavailable');
    const bytes = Buffer.isBuffer(body) ? body : Buffer.concat(await body.toArray());
    this.objects.set(key, { body: bytes, contentType });
    return { key, size: bytes.length, contentType };
  }
  async get(key: string): Promise<StoredObject | null> {
    const o = this.objects.get(key);
    return o ? { key, size: o.body.length, contentType: o.contentType, body: Readable.from(o.body) } : null;
  }
  async stat(key: string): Promise<ObjectInfo | null> {
    const o = this.objects.get(key);
    return o ? { key, size: o.body.length, contentType: o.contentType } : null;
  }
  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.objects.delete(key);
  }
  async list(prefix: string): Promise<ObjectInfo[]> {
    return [...this.objects.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .map(([key, o]) => ({ key, size: o.body.length, contentType: o.contentType }));
  }
  async close(): Promise<void> {}
}

function isOperators(value: Scalar | FieldOperators): value is FieldOperators {
  return typeof value === 'object' && value !== null;
}

function field(doc: object, name: string): unknown {
  return Reflect.get(doc, name);
}

/** Sign of actual - bound for same-typed values, else null (no match), like MongoDB's type brackets. */
function compare(actual: unknown, bound: string | number): number | null {
  if (typeof actual === 'number' && typeof bound === 'number') return actual - bound;
  if (typeof actual === 'string' && typeof bound === 'string') return actual < bound ? -1 : actual > bound ? 1 : 0;
  return null;
}

function matches(doc: object, filter: Filter): boolean {
  for (const [name, condition] of Object.entries(filter)) {
    const actual = field(doc, name);
    if (!isOperators(condition)) {
      if (actual !== condition) return false;
      continue;
    }
    if (condition.$gte !== undefined && !((compare(actual, condition.$gte) ?? -1) >= 0)) return false;
    if (condition.$gt !== undefined && !((compare(actual, condition.$gt) ?? -1) > 0)) return false;
    if (condition.$lte !== undefined && !((compare(actual, condition.$lte) ?? 1) <= 0)) return false;
    if (condition.$lt !== undefined && !((compare(actual, condition.$lt) ?? 1) < 0)) return false;
    if (condition.$in !== undefined && !condition.$in.includes(actual as Scalar)) return false;
    if (condition.$ne !== undefined && actual === condition.$ne) return false;
  }
  return true;
}

class MapCollection<T extends BaseDocument> implements Collection<T> {
  readonly docs = new Map<string, T>();

  private applyUpdate(doc: T, update: Update): void {
    Object.assign(doc, update.$set ?? {});
    for (const name of update.$unset ?? []) Reflect.deleteProperty(doc, name);
    for (const [name, n] of Object.entries(update.$inc ?? {})) Reflect.set(doc, name, ((field(doc, name) as number | undefined) ?? 0) + n);
  }
  private first(filter: Filter): T | undefined {
    return [...this.docs.values()].find((d) => matches(d, filter));
  }
  async insertOne(doc: T): Promise<void> {
    this.docs.set(doc._id, structuredClone(doc));
  }
  async findOne(filter: Filter): Promise<T | null> {
    return (await this.find(filter))[0] ?? null;
  }
  async find(filter: Filter): Promise<T[]> {
    return [...this.docs.values()].filter((d) => matches(d, filter)).map((d) => structuredClone(d));
  }
  async count(filter: Filter): Promise<number> {
    return (await this.find(filter)).length;
  }
  async updateOne(filter: Filter, update: Update, options?: { readonly upsert?: boolean }): Promise<{ matched: number }> {
    const doc = this.first(filter);
    if (doc) {
      this.applyUpdate(doc, update);
      return { matched: 1 };
    }
    const id = filter['_id'];
    if (options?.upsert && typeof id === 'string') {
      const created = { _id: id } as T; // completed by $set below, as the port's upsert does
      this.applyUpdate(created, update);
      this.docs.set(id, created);
    }
    return { matched: 0 };
  }
  async updateMany(filter: Filter, update: Update): Promise<{ matched: number }> {
    const hits = [...this.docs.values()].filter((d) => matches(d, filter));
    for (const doc of hits) this.applyUpdate(doc, update);
    return { matched: hits.length };
  }
  async findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    const doc = this.first(filter);
    if (!doc) return null;
    this.applyUpdate(doc, update);
    return structuredClone(doc);
  }
  async deleteOne(filter: Filter): Promise<number> {
    const doc = this.first(filter);
    if (!doc) return 0;
    this.docs.delete(doc._id);
    return 1;
  }
  async deleteMany(filter: Filter): Promise<number> {
    const hits = [...this.docs.values()].filter((d) => matches(d, filter));
    for (const doc of hits) this.docs.delete(doc._id);
    return hits.length;
  }
}

export class MapDocumentStore implements DocumentStore {
  // Values are MapCollection<T> for the T of the first caller; tests use one T per name.
  private readonly collections = new Map<string, unknown>();
  async collection<T extends BaseDocument>(name: string): Promise<Collection<T>> {
    const existing = this.collections.get(name);
    if (existing) return existing as MapCollection<T>;
    const created = new MapCollection<T>();
    this.collections.set(name, created);
    return created;
  }
  async close(): Promise<void> {}
}
