/**
 * The matcher's lookups of a log's own strings (alert-matcher.ts), made without hashing them where that is
 * cheaper. A log's strings are new objects (parsed from a request or from the bus), and a Map hashes such a
 * string at its first lookup: ~50 ns for 11-12 characters (measured), against ~5 ns for the short strings the
 * JSON parser interns (their hash is already known) and ~10-15 ns to compare a string with a few known ones
 * (lengths first; interned strings by identity). So: a few known values are compared, many are hashed.
 */

/** Values a lookup compares one by one at most; beyond, it hashes. */
const COMPARED_AT_MOST = 8;

/** Known string -> value, for strings of logs: compared with each known one while they are few, hashed beyond. */
export class StringIndex<T> {
  readonly #keys: readonly string[];
  readonly #values: readonly T[];
  readonly #map: ReadonlyMap<string, T> | null;

  constructor(entries: ReadonlyMap<string, T>) {
    this.#keys = [...entries.keys()];
    this.#values = [...entries.values()];
    this.#map = entries.size > COMPARED_AT_MOST ? entries : null;
  }

  get(key: string): T | undefined {
    if (this.#map !== null) return this.#map.get(key);
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) return this.#values[i];
    return undefined;
  }
}

interface TripleEntry<T> {
  readonly resource: string;
  readonly level: string;
  readonly value: T;
}

/** A type's triples: a list while it has few, then lists per resource. */
interface TypeNode<T> {
  readonly list: TripleEntry<T>[];
  byResource: Map<string, TripleEntry<T>[]> | null;
}

const NONE: readonly TripleEntry<never>[] = [];

/**
 * What each (type, resource, level) a server's logs come with maps to, worked out once per triple: one hashed
 * lookup of the type, then the type's few (resource, level) pairs compared (a type is usually sent by one or
 * two resources, at a few levels). A type with many pairs gets a map of its resources. Bounded: once `max`
 * triples are remembered, they are all forgotten and worked out again as logs bring them.
 */
export class TripleMemo<T> {
  readonly #byType = new Map<string, TypeNode<T>>();
  readonly #max: number;
  #size = 0;

  constructor(max: number) {
    this.#max = max;
  }

  get(type: string, resource: string, level: string, compute: (type: string, resource: string, level: string) => T): T {
    let node = this.#byType.get(type);
    if (node === undefined) {
      if (this.#size >= this.#max) {
        this.#byType.clear();
        this.#size = 0;
      }
      this.#byType.set(type, (node = { list: [], byResource: null }));
    }
    const list = node.byResource === null ? node.list : (node.byResource.get(resource) ?? NONE);
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!;
      // The level first: five short strings, interned by the parser, compared by identity.
      if (entry.level === level && entry.resource === resource) return entry.value;
    }
    const value = compute(type, resource, level);
    this.#add(node, { resource, level, value });
    return value;
  }

  #add(node: TypeNode<T>, entry: TripleEntry<T>): void {
    this.#size += 1;
    if (node.byResource === null) {
      node.list.push(entry);
      if (node.list.length <= COMPARED_AT_MOST) return;
      node.byResource = new Map();
      for (const kept of node.list) this.#addByResource(node.byResource, kept);
      node.list.length = 0;
      return;
    }
    this.#addByResource(node.byResource, entry);
  }

  #addByResource(byResource: Map<string, TripleEntry<T>[]>, entry: TripleEntry<T>): void {
    const list = byResource.get(entry.resource);
    if (list === undefined) byResource.set(entry.resource, [entry]);
    else list.push(entry);
  }
}
