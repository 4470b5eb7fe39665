/** The last `capacity` ids seen, to drop a log sent once already (a resume's hand-over, a redelivered batch). */
export class RecentIds {
  readonly #ids = new Set<string>();
  readonly #order: string[] = [];
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Adds the id; false when it was already there. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    this.#order.push(id);
    if (this.#order.length > this.#capacity) this.#ids.delete(this.#order.shift()!);
    return true;
  }
}
