/**
 * A count cap per server held by the store itself rather than by a count read before the insert (two members
 * taking the last place at once would both see one free): each document holds one of the server's numbered
 * slots 0 .. max - 1, and a unique index on (serverId, slot) lets only one insert have a slot. An insert that
 * loses the race meets a DuplicateKeyError, reads again and tries the next free slot.
 */
import { DuplicateKeyError } from '@skald/ports';

export interface BoundedSlots<D extends { readonly slot: number }, R> {
  /** How many places the server has. Fewer than it already holds (a lower tier) leaves no free one. */
  readonly max: number;
  /** The documents that hold the server's places now. */
  readonly held: () => Promise<readonly D[]>;
  /** A refusal what is held already calls for (a name taken), else null; checked on every read. */
  readonly refuse?: (held: readonly D[]) => R | null;
  /** Builds and inserts the document holding `slot`; throws DuplicateKeyError when the slot was taken meanwhile. */
  readonly insert: (slot: number) => Promise<D>;
}

/** The inserted document, the refusal of `refuse`, or null when every place is held. */
export async function insertInFreeSlot<D extends { readonly slot: number }, R = never>(slots: BoundedSlots<D, R>): Promise<D | R | null> {
  for (let attempt = 0; attempt <= slots.max; attempt++) {
    const held = await slots.held();
    const refusal = slots.refuse?.(held) ?? null;
    if (refusal !== null) return refusal;
    if (held.length >= slots.max) return null;
    const taken = new Set(held.map((doc) => doc.slot));
    let slot = 0;
    while (taken.has(slot)) slot++;
    if (slot >= slots.max) return null;
    try {
      return await slots.insert(slot);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }
  return null;
}
