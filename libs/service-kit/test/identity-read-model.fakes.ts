/**
 * Minimal in-memory fakes of EventBus and DocumentStore, enough for the identity read model:
 * equality and $in/$lte filters, $set/$inc updates with upsert, in-order delivery per subscription,
 * PoisonMessageError -> dead letters (the adapters' real behaviour is covered by their own suites).
 */
import { randomUUID } from 'node:crypto';
import { PoisonMessageError } from '@skald/ports';
import type { BaseDocument, BusMessage, Collection, DocumentStore, EventBus, FieldOperators, Filter, FindOptions, PublishInput, SubscribeOptions, Subscription, Update } from '@skald/ports';

type Row = Record<string, unknown>;

function fieldsOf(doc: BaseDocument): Row {
  return Object.fromEntries(Object.entries(doc));
}

function matches(doc: BaseDocument, filter: Filter): boolean {
  const row = fieldsOf(doc);
  return Object.entries(filter).every(([field, condition]) => {
    const value = row[field] ?? null;
    if (condition !== null && typeof condition === 'object') {
      const ops: FieldOperators = condition;
      if (ops.$in !== undefined && !ops.$in.some((candidate) => candidate === value)) return false;
      if (ops.$ne !== undefined && value === ops.$ne) return false;
      if (ops.$lte !== undefined && !(typeof value === 'number' && typeof ops.$lte === 'number' && value <= ops.$lte)) return false;
      return true;
    }
    return value === condition;
  });
}

function applyUpdate<T extends BaseDocument>(doc: T, update: Update): T {
  const unset = new Set(update.$unset ?? []);
  const next: Row = Object.fromEntries(Object.entries({ ...fieldsOf(doc), ...(update.$set ?? {}) }).filter(([k]) => !unset.has(k)));
  for (const [field, n] of Object.entries(update.$inc ?? {})) {
    const current = next[field];
    next[field] = (typeof current === 'number' ? current : 0) + n;
  }
  // A fake: the update keeps the document's shape by construction of the callers' updates.
  return next as T;
}

class FakeCollection<T extends BaseDocument> implements Collection<T> {
  readonly rows = new Map<string, T>();
  async insertOne(doc: T): Promise<void> {
    if (this.rows.has(doc._id)) throw new Error('duplicate');
    this.rows.set(doc._id, { ...doc });
  }
  async findOne(filter: Filter): Promise<T | null> {
    return (await this.find(filter))[0] ?? null;
  }
  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const found = [...this.rows.values()].filter((r) => matches(r, filter));
    const skip = options.skip ?? 0;
    return found.slice(skip, options.limit === undefined ? undefined : skip + options.limit);
  }
  async count(filter: Filter): Promise<number> {
    return (await this.find(filter)).length;
  }
  async updateOne(filter: Filter, update: Update, options: { readonly upsert?: boolean } = {}): Promise<{ matched: number }> {
    const row = [...this.rows.values()].find((r) => matches(r, filter));
    if (row !== undefined) {
      this.rows.set(row._id, applyUpdate(row, update));
      return { matched: 1 };
    }
    const id = filter['_id'];
    if (options.upsert && typeof id === 'string') this.rows.set(id, applyUpdate<T>({ _id: id } as T, update));
    return { matched: 0 };
  }
  async updateMany(filter: Filter, update: Update): Promise<{ matched: number }> {
    const hits = [...this.rows.values()].filter((r) => matches(r, filter));
    for (const r of hits) this.rows.set(r._id, applyUpdate(r, update));
    return { matched: hits.length };
  }
  async findOneAndUpdate(filter: Filter, update: Update): Promise<T | null> {
    const row = [...this.rows.values()].find((r) => matches(r, filter));
    if (row === undefined) return null;
    const next = applyUpdate(row, update);
    this.rows.set(row._id, next);
    return next;
  }
  async deleteOne(filter: Filter): Promise<number> {
    const row = [...this.rows.values()].find((r) => matches(r, filter));
    return row !== undefined && this.rows.delete(row._id) ? 1 : 0;
  }
  async deleteMany(filter: Filter): Promise<number> {
    const hits = [...this.rows.values()].filter((r) => matches(r, filter));
    for (const r of hits) this.rows.delete(r._id);
    return hits.length;
  }
}

export class FakeDocumentStore implements DocumentStore {
  readonly #collections = new Map<string, unknown>();
  async collection<T extends BaseDocument>(name: string): Promise<Collection<T>> {
    const existing = this.#collections.get(name);
    if (existing instanceof FakeCollection) {
      // One map holds collections of every document type; the caller names the type, as with the real stores.
      return existing as FakeCollection<T>;
    }
    const created = new FakeCollection<T>();
    this.#collections.set(name, created);
    return created;
  }
  async close(): Promise<void> {}
}

export class FakeEventBus implements EventBus {
  readonly deadLetters: BusMessage[] = [];
  readonly #subscriptions: SubscribeOptions[] = [];
  #chain: Promise<void> = Promise.resolve();

  async ensureTopics(): Promise<void> {}
  async publish(messages: readonly PublishInput[]): Promise<void> {
    for (const input of messages) {
      const message: BusMessage = { id: input.id ?? randomUUID(), topic: input.topic, key: input.key, payload: input.payload, headers: input.headers ?? {}, attempt: 1 };
      // Delivery is asynchronous and in publish order, like the real adapters.
      this.#chain = this.#chain.then(() => this.#deliver(message));
    }
  }
  async #deliver(message: BusMessage): Promise<void> {
    for (const sub of this.#subscriptions) {
      if (!sub.topics.includes(message.topic)) continue;
      try {
        await sub.handler(message);
      } catch (err) {
        if (err instanceof PoisonMessageError) this.deadLetters.push(message);
        else throw err;
      }
    }
  }
  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.#subscriptions.push(options);
    return {
      stop: async () => {
        const i = this.#subscriptions.indexOf(options);
        if (i >= 0) this.#subscriptions.splice(i, 1);
      },
    };
  }
  async close(): Promise<void> {}
}
