/** A small least-recently-used map of decoded things by their row id (the block store's caches). */
export class Lru<V> {
  readonly #map = new Map<number, V>();
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  get(key: number, make: () => V): V {
    let value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
      return value;
    }
    value = make();
    this.#map.set(key, value);
    if (this.#map.size > this.#size) this.#map.delete(this.#map.keys().next().value!);
    return value;
  }

  delete(key: number): void {
    this.#map.delete(key);
  }
}
