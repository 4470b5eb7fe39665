/**
 * The payloads this bus instance just published on a shared topic (config `sharedPayloadTopics`), kept
 * in memory so its own consumer groups share ONE parsed copy instead of each reading the row's text and
 * parsing it again (for a batch of 1000 logs that was two `JSON.parse` of ~220 KB and two
 * reads of the text, ~12-15% of the all-in-one's CPU under batch load; it pays at every size, down to
 * one-log messages, because freezing walks the value once where each group parsed it).
 *
 * What a consumer gets is unchanged: a payload is kept only if it is plain JSON data, so the object IS
 * what `JSON.parse(JSON.stringify(payload))` would give (no undefined, no Date or class instance, no
 * non-finite number, no -0, no holes); it is deep-frozen, so neither a consumer nor the publisher can
 * change what another one sees, or make it differ from the durable row. Durability is unchanged: the row
 * was committed to the journal before the payload is kept, and whatever is not here (another process
 * published it, this one restarted, the entry was evicted) is parsed from the row as before.
 *
 * An entry leaves when every consumer loop that was on its topic when it was published has taken it, or
 * when the kept text exceeds MAX_KEPT_CHARS (oldest first: a consumer far behind parses from disk).
 */

/** Bound of the kept payloads, counted as the JSON text they were published as (UTF-16 code units). */
export const MAX_KEPT_CHARS = 32 * 1024 * 1024;

interface Entry {
  readonly payload: unknown;
  readonly chars: number;
  /** Consumer loops still expected to take it. */
  takers: number;
}

/**
 * Deep-freezes `value` if it is plain JSON data (see the module comment) and answers whether it did;
 * on false nothing was frozen. Objects are collected first and frozen only once the whole value passed.
 */
export function freezeIfPlainJson(value: unknown): boolean {
  const objects: object[] = [];
  if (!collectPlainJson(value, objects)) return false;
  for (const object of objects) Object.freeze(object);
  return true;
}

function collectPlainJson(value: unknown, objects: object[]): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      // JSON has no NaN, Infinity (they become null) nor -0 (it becomes 0).
      return Number.isFinite(value) && !(value === 0 && 1 / value < 0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i++) {
          // A hole or undefined becomes null in JSON.
          if (!(i in value) || !collectPlainJson(value[i], objects)) return false;
        }
        objects.push(value);
        return true;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      // A Date, Map or class instance turns into something else in JSON (toJSON, {}).
      if (prototype !== Object.prototype && prototype !== null) return false;
      const record = value as Record<string, unknown>;
      for (const key in record) {
        // undefined and functions are left out by JSON.stringify, symbols too.
        if (!collectPlainJson(record[key], objects)) return false;
      }
      objects.push(value);
      return true;
    }
    default:
      return false;
  }
}

export class PublishedPayloads {
  readonly #entries = new Map<number, Entry>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars = MAX_KEPT_CHARS) {
    this.#maxChars = maxChars;
  }

  /**
   * Keeps the committed row `seq`'s payload for `takers` consumer loops if it is plain JSON (it is then
   * deep-frozen). `chars` is the length of the row's JSON text.
   */
  keep(seq: number, payload: unknown, chars: number, takers: number): void {
    if (takers === 0 || chars > this.#maxChars) return;
    if (!freezeIfPlainJson(payload)) return;
    this.#entries.set(seq, { payload, chars, takers });
    this.#chars += chars;
    for (const [oldest, entry] of this.#entries) {
      if (this.#chars <= this.#maxChars) break;
      this.#drop(oldest, entry);
    }
  }

  /** The shared payload of row `seq` for one consumer loop, or undefined: parse the row's text. */
  take(seq: number): unknown {
    const entry = this.#entries.get(seq);
    if (entry === undefined) return undefined;
    entry.takers -= 1;
    if (entry.takers <= 0) this.#drop(seq, entry);
    return entry.payload;
  }

  /** Rows kept (tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#chars = 0;
  }

  #drop(seq: number, entry: Entry): void {
    this.#entries.delete(seq);
    this.#chars -= entry.chars;
  }
}
