/** Minimal in-memory ObjectStore and DocumentStore for the logs service's unit tests. */
import { Readable } from 'node:stream';
import type { BaseDocument, Collection, DocumentStore, Filter, ObjectInfo, ObjectStore, StoredObject, Update } from '@skald/ports';

export class MemoryObjectStore implements ObjectStore {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  async put(key: string, body: Buffer | Readable, contentType: string): Promise<ObjectInfo> {
    const buffer = Buffer.isBuffer(body) ? body : Buffer.concat(await body.toArray());
    this.objects.set(key, { body: buffer, contentType });
    return { key, size: buffer.length, contentType };
  }
  async get(key: string): Promise<StoredObject | null> {
    const o = this.objects.get(key);
    return o ? { key, size: o.body.length, contentType: o.contentType, body: Readable.from([o.body]) } : null;
  }
  async stat(key: string): Promise<ObjectInfo | null> {
    const o = this.objects.get(key);
    return o ? { key, size: o.body.length, contentType: o.contentType } : null;
  }
  async delete(keys: readonly string[]): Promise<void> {
    for (const k of keys) this.objects.delete(k);
  }
  async list(prefix: string): Promise<ObjectInfo[]> {
    return [...this.objects.entries()].filter(([k]) => k.startsWith(prefix)).map(([key, o]) => ({ key, size: o.body.length, contentType: o.contentType }));
  }
  async close(): Promise<void> {}
}

/** Supports only what the logs service uses: equality filters on _id, updateOne with $set and upsert. */
class MemoryCollection<T extends BaseDocument> implements Collection<T> {
  readonly docs = new Map<string, T>();
  private match(filter: Filter): T[] {
    return [...this.docs.values()].filter((d) => Object.entries(filter).every(([k, v]) => (d as Record<string, unknown>)[k] === v));
  }
  async insertOne(doc: T) {
    this.docs.set(doc._id, doc);
  }
  async findOne(filter: Filter) {
    return this.match(filter)[0] ?? null;
  }
  async find(filter: Filter) {
    return this.match(filter);
  }
  async count(filter: Filter) {
    return this.match(filter).length;
  }
  async updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }) {
    const found = this.match(filter)[0];
    if (found) {
      this.docs.set(found._id, { ...found, ...update.$set });
      return { matched: 1 };
    }
    if (options?.upsert) this.docs.set(String(filter._id), { _id: filter._id, ...update.$set } as unknown as T); // test fake: shape is the caller's
    return { matched: 0 };
  }
  async updateMany(filter: Filter, update: Update) {
    const found = this.match(filter);
    for (const d of found) this.docs.set(d._id, { ...d, ...update.$set });
    return { matched: found.length };
  }
  async findOneAndUpdate(filter: Filter, update: Update) {
    await this.updateOne(filter, update);
    return this.findOne(filter);
  }
  async deleteOne(filter: Filter) {
    const found = this.match(filter)[0];
    return found && this.docs.delete(found._id) ? 1 : 0;
  }
  async deleteMany(filter: Filter) {
    const found = this.match(filter);
    for (const d of found) this.docs.delete(d._id);
    return found.length;
  }
}

export class MemoryDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, MemoryCollection<BaseDocument>>();
  async collection<T extends BaseDocument>(name: string): Promise<Collection<T>> {
    let c = this.collections.get(name);
    if (!c) {
      c = new MemoryCollection<BaseDocument>();
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>; // one untyped map of collections; each name is only used with one T
  }
  async close(): Promise<void> {}
}
