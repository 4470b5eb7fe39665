/**
 * The batches the evaluator counted, by key (a batch's first log id) per server, so one the bus hands out again
 * is not counted twice. The `max` latest across servers are kept: the oldest is forgotten first. Looked up by
 * the id the batch carries in the server's own set, so a bus read makes no key string of its own.
 */
export class SeenKeys {
  readonly #byServer = new Map<string, Set<string>>();
  /** A ring of what was remembered, oldest at #next once full: the server and the key. */
  readonly #servers: string[] = [];
  readonly #keys: string[] = [];
  readonly #max: number;
  #next = 0;

  constructor(max: number) {
    this.#max = max;
  }

  /** The server's keys (a set kept while it has one). */
  of(serverId: string): Set<string> {
    let keys = this.#byServer.get(serverId);
    if (keys === undefined) this.#byServer.set(serverId, (keys = new Set()));
    return keys;
  }

  /** Remembers `key` of the server whose set `of` gave as `keys`; the oldest key of all goes once `max` are kept. */
  remember(serverId: string, keys: Set<string>, key: string): void {
    if (!keys.has(key)) this.rememberNew(serverId, keys, key);
  }

  /** remember, for a key the caller just found not in `keys` (a batch's key is looked up once, not twice). */
  rememberNew(serverId: string, keys: Set<string>, key: string): void {
    if (this.#keys.length === this.#max) {
      const oldServer = this.#servers[this.#next]!;
      const oldKeys = this.#byServer.get(oldServer);
      oldKeys?.delete(this.#keys[this.#next]!);
      // A set emptied here may still be held by a read under way: it is dropped from the map, refilled by `of`.
      if (oldKeys !== undefined && oldKeys.size === 0 && oldKeys !== keys) this.#byServer.delete(oldServer);
      this.#servers[this.#next] = serverId;
      this.#keys[this.#next] = key;
      this.#next = (this.#next + 1) % this.#max;
    } else {
      this.#servers.push(serverId);
      this.#keys.push(key);
    }
    keys.add(key);
  }
}
